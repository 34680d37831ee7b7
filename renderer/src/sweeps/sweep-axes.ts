import type { SweepField } from '../../../shared/contract';
import { AXIS_LABELS } from '../../../shared/sweep/labels';

/** An axis as the composer holds it: the field, the values as typed, and for loraWeight which LoRA. */
export interface SweepAxisDraft {
  field: SweepField;
  values: string;
  lora: string;
}

/** The field picker's order and names (shared/sweep/labels.ts: the same names the grid, the sheet and a default name use). */
export const FIELD_LABELS: Record<SweepField, string> = AXIS_LABELS;

export const FIELD_ORDER = Object.keys(FIELD_LABELS) as SweepField[];

/** What the values box suggests for each field: the forms it reads (shared/sweep/values.ts). */
export const FIELD_EXAMPLES: Record<SweepField, string> = {
  prompt: 'cat, dog, fox (the first is searched for)',
  seed: '1-20 step 5, or 42, 43, 44',
  steps: '10-40 step 10',
  guidance: '3-9 [4], or 4.5, 7, 9',
  sampler: 'euler, dpm++ 2m',
  scheduler: 'normal, karras',
  model: 'model-a, model-b',
  lora: 'lora-a, lora-b',
  loraWeight: '0-1 step 0.25',
  size: '512x512, 512x768',
  strength: '0.3-0.9 step 0.2',
  provider: 'comfyui, a1111',
};

/** The axes' names in the grid and the composer: X across, Y down, Z as pages. */
export const AXIS_NAMES = ['X', 'Y', 'Z'] as const;

export const NEW_AXIS: SweepAxisDraft = { field: 'guidance', values: '', lora: '' };

/** An axis header: the field's name (with its LoRA for a weight) and one value. */
export function axisTitle(axis: { field: SweepField; lora?: string | undefined }): string {
  const label = FIELD_LABELS[axis.field];
  return axis.field === 'loraWeight' && axis.lora !== undefined && axis.lora !== '' ? `${label} (${axis.lora})` : label;
}

/** The axes as StartSweep takes them: a blank lora dropped, loraWeight's LoRA kept. */
export function axesForRequest(
  axes: readonly SweepAxisDraft[],
): { field: SweepField; values: string; lora?: string }[] {
  return axes.map((axis) =>
    axis.field === 'loraWeight' && axis.lora.trim() !== ''
      ? { field: axis.field, values: axis.values, lora: axis.lora.trim() }
      : { field: axis.field, values: axis.values },
  );
}

/** "axes.1.values" (the engine's pointer at a refused axis) → 1. */
export function axisOfField(field: unknown): number | null {
  if (typeof field !== 'string') return null;
  const match = /^axes\.(\d+)/.exec(field);
  return match === null ? null : Number(match[1]);
}
