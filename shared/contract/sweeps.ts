/** Sweeps: one to three settings as axes over a base request, each cell a normal job, read as one labelled grid. */
import { z } from 'zod';
import { Id, int } from './common.js';
import { AbsolutePath } from './imports.js';
import { GenerateRequest, JobSummary, StoredRequest } from './jobs.js';
import {
  SWEEP_AXIS_CAP,
  SWEEP_AXIS_FIELDS,
  SWEEP_CELL_CAP,
  SWEEP_IMAGE_CAP,
  type SweepAxisField,
} from '../sweep/limits.js';

/**
 * The settings an axis can vary, and the caps: one list in shared/sweep/limits.ts (plain values the renderer counts
 * with, without zod). `prompt` is A1111's search/replace (its first value is the text searched for), `lora` swaps
 * which LoRA is applied, `loraWeight` varies one LoRA's weight, `size` takes `WxH` values.
 */
export const SWEEP_FIELDS = SWEEP_AXIS_FIELDS;
export type SweepField = SweepAxisField;

export const MAX_SWEEP_AXES = SWEEP_AXIS_CAP;
/** A sweep is refused past this many cells (jobs), and past this many images (cells × count). */
export const MAX_SWEEP_CELLS = SWEEP_CELL_CAP;
export const MAX_SWEEP_IMAGES = SWEEP_IMAGE_CAP;

export const SweepAxis = z.strictObject({
  field: z.enum(SWEEP_FIELDS, { error: `An axis varies one of ${SWEEP_FIELDS.join(', ')}.` }),
  /** As typed: a list (`euler, dpm++ 2m`) or a range (`1-20 step 5`, `4-12 [5]`); shared/sweep/ reads it. */
  values: z
    .string({ error: 'Give the values of the axis.' })
    .min(1, 'Give the values of the axis.')
    .max(4_000, 'An axis has at most 4,000 characters of values.'),
  /** loraWeight only: the LoRA whose weight varies (by the name its server lists). */
  lora: z.string().min(1).max(200).optional(),
});
export type SweepAxis = z.infer<typeof SweepAxis>;

export const StartSweep = z.strictObject({
  /** The settings every cell starts from; each axis then sets its own field. */
  base: GenerateRequest.omit({ idempotencyKey: true }),
  axes: z
    .array(SweepAxis)
    .min(1, 'A sweep needs at least one axis.')
    .max(MAX_SWEEP_AXES, `A sweep has at most ${MAX_SWEEP_AXES} axes.`),
  name: z.string().max(120, 'A sweep name is at most 120 characters.').optional(),
  /** Submitting the same sweep twice with one key makes it once. */
  idempotencyKey: z.string().min(1).max(256).optional(),
});
export type StartSweep = z.infer<typeof StartSweep>;

/** An axis as recorded: its field and the values it took, in order (the grid's headers). */
export const SweepAxisView = z.object({
  field: z.enum(SWEEP_FIELDS),
  lora: z.string().optional(),
  values: z.array(z.string()),
});
export type SweepAxisView = z.infer<typeof SweepAxisView>;

const count = z.number().int().min(0);

export const SweepSummary = z.object({
  id: Id,
  name: z.string(),
  createdAt: z.number().int(),
  /** X, then Y, then Z (Z: one page of the grid per value). */
  axes: z.array(SweepAxisView),
  cellCount: count,
  succeeded: count,
  failed: count,
  /** Queued or running. */
  pending: count,
  /** The first cell's first image, for a list of sweeps. */
  cover: z.object({ imageId: Id, jobId: Id }).optional(),
});
export type SweepSummary = z.infer<typeof SweepSummary>;

export const SweepCellPosition = z.strictObject({ x: count, y: count, z: count });
export type SweepCellPosition = z.infer<typeof SweepCellPosition>;

export const SweepCell = z.object({
  x: count,
  y: count,
  z: count,
  /** The cell's newest job (a re-run replaces it here; the older job stays in the history). Null once purged. */
  job: JobSummary.nullable(),
});
export type SweepCell = z.infer<typeof SweepCell>;

export const SweepDetail = SweepSummary.extend({
  base: StoredRequest,
  cells: z.array(SweepCell),
});
export type SweepDetail = z.infer<typeof SweepDetail>;

export const RerunSweep = z.strictObject({
  id: Id,
  /** Absent: every cell whose newest job failed, was cancelled or interrupted, or is gone. */
  cells: z.array(SweepCellPosition).min(1).max(MAX_SWEEP_CELLS).optional(),
});
export type RerunSweep = z.infer<typeof RerunSweep>;

export const SweepSheetRequest = z.strictObject({
  id: Id,
  /** Which Z page (0 without a Z axis). */
  z: int('Page', 0, MAX_SWEEP_CELLS).default(0),
  /** Desktop: written into this folder. Absent: kept for download (the headless host's GET /api/sweep-sheet/…). */
  folder: AbsolutePath.optional(),
});
export type SweepSheetRequest = z.infer<typeof SweepSheetRequest>;

export const SweepSheet = z.object({
  /** The PNG written (folder given). */
  path: z.string().optional(),
  /** Where the headless host serves it (no folder given). */
  download: z.string().optional(),
  width: z.number().int(),
  height: z.number().int(),
});
export type SweepSheet = z.infer<typeof SweepSheet>;
