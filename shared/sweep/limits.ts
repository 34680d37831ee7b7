/**
 * The sweep's caps and fields as plain values, the one list shared/contract/sweeps.ts takes its own from: the renderer
 * counts cells as the person types without building a zod schema.
 */
export const SWEEP_CELL_CAP = 500;
export const SWEEP_IMAGE_CAP = 1_000;
export const SWEEP_AXIS_CAP = 3;

export const SWEEP_AXIS_FIELDS = [
  'prompt',
  'seed',
  'steps',
  'guidance',
  'sampler',
  'scheduler',
  'model',
  'lora',
  'loraWeight',
  'size',
  'strength',
  'provider',
] as const;
export type SweepAxisField = (typeof SWEEP_AXIS_FIELDS)[number];
