/**
 * A sweep's axes over its base request: the cell count first (the composer shows it as the person types, no
 * request built), then each cell's full request. Pure: the renderer and the engine run the same code.
 */
import type { GenerateRequest, LoraSpec, StartSweep, SweepAxis } from '../contract.js';
import { SWEEP_CELL_CAP, SWEEP_IMAGE_CAP, type SweepAxisField } from './limits.js';
import { readAxisValues, type AxisValues } from './values.js';

export type SweepBase = StartSweep['base'];

export interface PlannedAxis {
  field: SweepAxisField;
  lora?: string;
  /** Each value as the grid's header shows it. */
  labels: string[];
  values: AxisValues;
}

/** Refused: `field` points at what to change (`axes.1.values`, `axes.0.lora`, `axes` for the caps). */
export interface SweepProblem {
  ok: false;
  field: string;
  message: string;
}

export type SweepPlan = { ok: true; axes: PlannedAxis[]; cells: number; images: number } | SweepProblem;

export interface SweepCellRequest {
  x: number;
  y: number;
  z: number;
  request: SweepBase;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** Reads every axis and counts cells and images, refusing past either cap; builds no request. */
export function planSweep(start: {
  base: Pick<SweepBase, 'prompt' | 'count' | 'inputImage'>;
  axes: readonly SweepAxis[];
}): SweepPlan {
  const axes: PlannedAxis[] = [];
  for (const [i, axis] of start.axes.entries()) {
    const read = readAxisValues(axis.field, axis.values, start.base.prompt);
    if (!read.ok) return { ok: false, field: `axes.${i}.values`, message: read.message };
    if (axis.field === 'loraWeight' && (axis.lora === undefined || axis.lora.trim().length === 0))
      return { ok: false, field: `axes.${i}.lora`, message: 'Name the LoRA whose weight this axis varies.' };
    if (axis.field === 'strength' && start.base.inputImage === undefined)
      return {
        ok: false,
        field: `axes.${i}.field`,
        message: 'Strength is how far an image-to-image result moves from its input: start from an image to vary it.',
      };
    axes.push({
      field: axis.field,
      ...(axis.field === 'loraWeight' && { lora: axis.lora!.trim() }),
      labels: read.labels,
      values: read.values,
    });
  }
  const cells = axes.reduce((n, a) => n * a.labels.length, 1);
  const count = start.base.count;
  if (cells > SWEEP_CELL_CAP)
    return {
      ok: false,
      field: 'axes',
      message: `This sweep makes ${fmt(cells)} cells; a sweep has at most ${fmt(SWEEP_CELL_CAP)}.`,
    };
  if (cells * count > SWEEP_IMAGE_CAP)
    return {
      ok: false,
      field: 'axes',
      message: `This sweep makes ${fmt(cells * count)} images (${fmt(cells)} cells × ${count}); a sweep has at most ${fmt(SWEEP_IMAGE_CAP)}.`,
    };
  return { ok: true, axes, cells, images: cells * count };
}

/** The LoRAs with `name` at `weight`: its place kept when present, else added last. */
function withLora(loras: readonly LoraSpec[], name: string, weight: number): LoraSpec[] {
  return loras.some((l) => l.name === name)
    ? loras.map((l) => (l.name === name ? { name, weight } : l))
    : [...loras, { name, weight }];
}

/** One axis's value `index` applied to a request (a new object; the base is never changed). */
export function applyAxis(request: SweepBase, axis: PlannedAxis, index: number, base: SweepBase): SweepBase {
  const v = axis.values;
  const out: SweepBase = { ...request };
  switch (v.kind) {
    case 'prompt':
      // Every occurrence, as A1111's S/R does; split/join is one linear pass with no pattern semantics.
      out.prompt = request.prompt.split(v.search).join(v.values[index]!);
      return out;
    case 'seed':
      out.seed = v.values[index]!;
      return out;
    case 'size':
      out.width = v.values[index]!.width;
      out.height = v.values[index]!.height;
      return out;
    case 'number': {
      const n = v.values[index]!;
      if (axis.field === 'loraWeight') out.loras = withLora(request.loras ?? [], axis.lora!, n);
      else if (axis.field === 'steps') out.steps = n;
      else if (axis.field === 'guidance') out.guidance = n;
      else if (request.inputImage !== undefined) out.inputImage = { ...request.inputImage, strength: n };
      return out;
    }
    case 'name': {
      const name = v.values[index]!;
      if (axis.field === 'lora') {
        // The axis swaps which LoRA is applied: its other values leave, this one comes at the base's weight or 1.
        const others = new Set(v.values);
        const kept = (request.loras ?? []).filter((l) => !others.has(l.name) || l.name === name);
        const weight = base.loras?.find((l) => l.name === name)?.weight ?? 1;
        out.loras = withLora(kept, name, weight);
      } else if (axis.field === 'provider') out.provider = name as GenerateRequest['provider'];
      else if (axis.field === 'model') out.model = name;
      else if (axis.field === 'sampler') out.sampler = name;
      else out.scheduler = name;
      return out;
    }
  }
}

/** The request of the cell at (x, y, z): the base with each axis's value applied, X first. */
export function cellRequest(
  base: SweepBase,
  axes: readonly PlannedAxis[],
  at: { x: number; y: number; z: number },
): SweepBase {
  const pos = [at.x, at.y, at.z];
  return axes.reduce((request, axis, i) => applyAxis(request, axis, pos[i]!, base), base);
}

/** Every cell, Z pages outermost and X innermost (reading order of the grid). */
export function expandSweep(start: {
  base: SweepBase;
  axes: readonly SweepAxis[];
}): { ok: true; axes: PlannedAxis[]; cells: SweepCellRequest[] } | SweepProblem {
  const plan = planSweep(start);
  if (!plan.ok) return plan;
  const [nx, ny, nz] = [0, 1, 2].map((i) => plan.axes[i]?.labels.length ?? 1) as [number, number, number];
  const cells: SweepCellRequest[] = [];
  for (let z = 0; z < nz; z += 1)
    for (let y = 0; y < ny; y += 1)
      for (let x = 0; x < nx; x += 1) cells.push({ x, y, z, request: cellRequest(start.base, plan.axes, { x, y, z }) });
  return { ok: true, axes: plan.axes, cells };
}
