import type { AppState } from '../store/types';
import type { AppStore } from '../store/store';

type Work = Pick<AppState, 'workingFrom' | 'references'> & { draft: Pick<AppState['draft'], 'prompt'> };

/** Something put work into the composer from elsewhere (Use as input, a reference, Reuse settings' prompt). */
export function composerWorkArrived(before: Work, after: Work): boolean {
  return (
    (after.workingFrom !== null && after.workingFrom !== before.workingFrom) ||
    after.references.length > before.references.length ||
    after.draft.prompt !== before.draft.prompt
  );
}

/** A folded composer comes back when an action fills it, so the person sees what Use as input or Reuse settings did. */
export function unfoldComposerOnWork(store: AppStore): () => void {
  return store.subscribe((after, before) => {
    if (!after.panels.composer && composerWorkArrived(before, after)) after.showPanel('composer');
  });
}
