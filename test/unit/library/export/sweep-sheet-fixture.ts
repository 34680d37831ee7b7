/** Hand-built sweeps and real small PNGs for the sheet's tests. */
import sharp from 'sharp';
import type { JobStatus, JobSummary, SweepAxisView, SweepDetail } from '../../../../shared/contract.js';

export const RED = { r: 200, g: 30, b: 40 };
export const GREEN = { r: 30, g: 180, b: 60 };
export const BLUE = { r: 40, g: 60, b: 210 };

export async function solidPng(width: number, height: number, colour: { r: number; g: number; b: number }) {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
export const imageId = (n: number): string => `0190a000-0000-7000-8000-${hex(n, 12)}`;
export const jobId = (n: number): string => `0190b000-0000-7000-8000-${hex(n, 12)}`;

export function job(n: number, status: JobStatus, size: { width: number; height: number } | null): JobSummary {
  return {
    id: jobId(n),
    status,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    provider: 'builtin',
    prompt: 'a lighthouse',
    width: size?.width ?? 512,
    height: size?.height ?? 512,
    count: 1,
    favorite: false,
    trashedAt: null,
    source: 'atelier',
    images:
      size === null
        ? []
        : [{ id: imageId(n), index: 0, width: size.width, height: size.height, mime: 'image/png', bytes: 100 }],
  };
}

export function sweep(
  axes: SweepAxisView[],
  cells: SweepDetail['cells'],
  overrides: Partial<SweepDetail> = {},
): SweepDetail {
  return {
    id: '0190c000-0000-7000-8000-0000000000aa',
    name: 'CFG against LoRA weight',
    createdAt: 1_700_000_000_000,
    axes,
    cells,
    cellCount: cells.length,
    succeeded: cells.filter((c) => c.job?.status === 'succeeded').length,
    failed: cells.filter((c) => c.job?.status === 'failed').length,
    pending: 0,
    base: {
      provider: 'builtin',
      prompt: 'a lighthouse at dusk',
      width: 512,
      height: 512,
      count: 1,
      steps: 20,
      sampler: 'euler',
      guidance: 7,
      seed: 42,
      model: 'sdxl-base',
      loras: [{ name: 'detail-tweaker', weight: 0.5 }],
    },
    ...overrides,
  };
}
