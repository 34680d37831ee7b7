import { useMemo } from 'react';
import type { ProviderCapabilities } from '../../../shared/contract';
import { buildRequest, type ComposerDraft } from '../composer/composer';
import { withInputImage } from '../iterate/iterate';
import { useApp } from '../store/context';
import { sweepView, type SweepView } from './sweep-plan';

/** The composer's sweep: what its axes make over the composer's own request, and Run sweep. Null: no sweep to run. */
export function useComposerSweep(
  draft: ComposerDraft,
  caps: ProviderCapabilities | undefined,
): { view: SweepView; active: boolean; starting: boolean; run: () => void } {
  const open = useApp((s) => s.sweepSectionOpen);
  const axes = useApp((s) => s.sweepAxes);
  const workingFrom = useApp((s) => s.workingFrom);
  const starting = useApp((s) => s.sweepStarting);
  const startSweep = useApp((s) => s.startSweep);
  const base = useMemo(() => withInputImage(buildRequest(draft, caps), workingFrom), [draft, caps, workingFrom]);
  const view = useMemo(() => sweepView(axes, base), [axes, base]);
  // A folded Sweep section sends nothing of it: Generate is Generate again.
  const active = open && view.active;
  return {
    view,
    active,
    starting,
    run: () => {
      if (active && view.ok) void startSweep(base);
    },
  };
}
