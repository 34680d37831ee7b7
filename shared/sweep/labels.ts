/** An axis's name as a person reads it: the composer's picker, the grid's headers, the sheet and a sweep's default name. */
import type { SweepAxisView, SweepField } from '../contract/sweeps.js';

export const AXIS_LABELS: Record<SweepField, string> = {
  prompt: 'Prompt S/R',
  seed: 'Seed',
  steps: 'Steps',
  guidance: 'CFG',
  sampler: 'Sampler',
  scheduler: 'Scheduler',
  model: 'Model',
  lora: 'LoRA',
  loraWeight: 'LoRA weight',
  size: 'Size',
  strength: 'Strength',
  provider: 'Provider',
};

/** A LoRA weight axis names its LoRA. */
export function axisLabel(axis: Pick<SweepAxisView, 'field' | 'lora'>): string {
  const name = AXIS_LABELS[axis.field];
  return axis.field === 'loraWeight' && axis.lora !== undefined ? `${name} (${axis.lora})` : name;
}

/** A sweep's name when the person gives none: its axes, X first. */
export function defaultSweepName(axes: ReadonlyArray<Pick<SweepAxisView, 'field' | 'lora'>>): string {
  return axes.map(axisLabel).join(' × ');
}
