/**
 * What a sweep's sheet carries inside its PNG: `parameters` (A1111's infotext: the base settings, then the axes as its
 * X/Y/Z plot script writes them) and `atelier-sweep` (JSON: axes, base request, each cell's job).
 */
import type { SweepAxisView, SweepDetail, SweepField } from '../../../shared/contract.js';
import { formatParameters } from '../../media/png/a1111-parameters.js';
import { readChunks, writeChunks, type PngChunk } from '../../media/png/chunks.js';
import { encodeTextChunk } from '../../media/png/text-chunks.js';

export const SWEEP_SHEET_KEYWORD = 'atelier-sweep';
export const SWEEP_SHEET_FORMAT = 'atelier-sweep/1';

/** A1111's X/Y/Z plot names where it has the axis; Atelier's own words for the rest. */
const A1111_AXIS: Record<SweepField, string> = {
  prompt: 'Prompt S/R',
  seed: 'Seed',
  steps: 'Steps',
  guidance: 'CFG Scale',
  sampler: 'Sampler',
  scheduler: 'Schedule type',
  model: 'Checkpoint name',
  lora: 'LoRA',
  loraWeight: 'LoRA weight',
  size: 'Size',
  strength: 'Denoising',
  provider: 'Provider',
};

/** The axis as A1111's X/Y/Z plot names it in an infotext (a LoRA weight names its LoRA). */
export function a1111AxisName(axis: Pick<SweepAxisView, 'field' | 'lora'>): string {
  const name = A1111_AXIS[axis.field];
  return axis.field === 'loraWeight' && axis.lora !== undefined ? `${name} (${axis.lora})` : name;
}

/** A1111 reads an axis's values as CSV: a value holding a comma or a quote is quoted, its quotes doubled. */
export function csvValues(values: readonly string[]): string {
  return values.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(', ');
}

export interface SheetCellRecord {
  x: number;
  y: number;
  z: number;
  jobId: string | null;
  imageId: string | null;
  /** What the sheet shows there: an image, or why not. */
  shown: 'image' | 'failed' | 'missing' | 'pending';
}

export interface SweepSheetChunk {
  format: typeof SWEEP_SHEET_FORMAT;
  app: 'Atelier';
  version: string;
  sweep: { id: string; name: string; createdAt: number };
  /** The page drawn (0 without a Z axis) and how many there are. */
  z: number;
  pages: number;
  axes: SweepAxisView[];
  base: SweepDetail['base'];
  cells: SheetCellRecord[];
}

export function sheetParameters(sweep: SweepDetail, appVersion: string): string {
  const { base } = sweep;
  const axes: Array<[string, string]> = [];
  sweep.axes.forEach((axis, i) => {
    const letter = 'XYZ'[i];
    if (letter === undefined) return;
    axes.push([`${letter} Type`, a1111AxisName(axis)], [`${letter} Values`, csvValues(axis.values)]);
  });
  return formatParameters({
    prompt: base.prompt,
    ...(base.negativePrompt ? { negativePrompt: base.negativePrompt } : {}),
    ...(base.steps !== undefined ? { steps: base.steps } : {}),
    ...(base.sampler !== undefined ? { sampler: base.sampler } : {}),
    ...(base.guidance !== undefined ? { cfgScale: base.guidance } : {}),
    ...(base.seed !== undefined ? { seed: base.seed } : {}),
    width: base.width,
    height: base.height,
    model: base.model ?? base.provider,
    extra: [
      ...(base.loras ?? []).map((l): [string, string] => ['LoRA', `${l.name}:${l.weight}`]),
      ['Script', 'X/Y/Z plot'],
      ...axes,
      ['Provider', base.provider],
      ['Version', `Atelier ${appVersion}`],
    ],
  });
}

/** The PNG with both text chunks placed before its first IDAT (as PIL and ../../media/png/embed-settings.ts do). */
export function embedSheetMetadata(png: Uint8Array, parameters: string, chunk: SweepSheetChunk): Uint8Array {
  const chunks = readChunks(png);
  const added: PngChunk[] = [
    encodeTextChunk('parameters', parameters),
    encodeTextChunk(SWEEP_SHEET_KEYWORD, JSON.stringify(chunk)),
  ];
  let at = chunks.findIndex((c) => c.type === 'IDAT');
  if (at < 0) at = chunks.findIndex((c) => c.type === 'IEND');
  if (at < 0) throw new Error('PNG has neither IDAT nor IEND.');
  return writeChunks([...chunks.slice(0, at), ...added, ...chunks.slice(at)]);
}
