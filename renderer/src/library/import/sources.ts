import type { ImageSource, SourceCount } from '../../../../shared/contract';
import { SOURCE_LABELS } from '../../../../shared/source-labels';

export { SOURCE_LABELS };

/** The card badge: short enough for a 120 px tile. */
export const SOURCE_BADGES: Record<ImageSource, string> = {
  ...SOURCE_LABELS,
  a1111: 'A1111',
  easydiffusion: 'Easy Diff.',
};

export const SOURCE_ORDER = Object.keys(SOURCE_LABELS) as ImageSource[];

export interface SourceOption {
  source: ImageSource;
  /** "ComfyUI (12)", "Atelier (1,000+)"; the chosen source with none left says so. */
  label: string;
}

/**
 * The Source filter's options: only the tools the library holds images of, in the usual order, with their counts.
 * The chosen one stays listed even when none is left, so the filter never shows a choice it does not have.
 */
export function sourceOptions(present: readonly SourceCount[] | null, chosen: ImageSource | null): SourceOption[] {
  const counts = new Map((present ?? []).map((p) => [p.source, p]));
  return SOURCE_ORDER.filter((source) => counts.has(source) || source === chosen).map((source) => {
    const count = counts.get(source);
    if (count === undefined)
      return { source, label: present === null ? SOURCE_LABELS[source] : `${SOURCE_LABELS[source]} (none)` };
    return {
      source,
      label: `${SOURCE_LABELS[source]} (${count.images.toLocaleString('en-US')}${count.capped ? '+' : ''})`,
    };
  });
}
