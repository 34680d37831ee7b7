import type { ImageSource } from '../../../../shared/contract';
import { SOURCE_LABELS } from '../../../../shared/source-labels';

export { SOURCE_LABELS };

/** The card badge: short enough for a 120 px tile. */
export const SOURCE_BADGES: Record<ImageSource, string> = {
  ...SOURCE_LABELS,
  a1111: 'A1111',
  easydiffusion: 'Easy Diff.',
};

export const SOURCE_ORDER = Object.keys(SOURCE_LABELS) as ImageSource[];
