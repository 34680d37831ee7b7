import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StartSweep } from '../../../../shared/contract.js';
import { expandSweep, planSweep } from '../../../../shared/sweep/expand.js';
import { SWEEP_CELL_CAP, SWEEP_IMAGE_CAP } from '../../../../shared/sweep/limits.js';

const base: StartSweep['base'] = {
  provider: 'any:comfyui',
  prompt: 'a red fox by a red barn',
  width: 512,
  height: 512,
  count: 1,
  steps: 20,
  loras: [{ name: 'ink', weight: 0.8 }],
};

const expand = (start: Pick<StartSweep, 'base' | 'axes'>) => {
  const out = expandSweep(start);
  if (!out.ok) throw new Error(out.message);
  return out.cells;
};

describe('a sweep expanded into cells', () => {
  it('counts first, then builds every cell with X innermost and Z as pages', () => {
    const start = {
      base,
      axes: [
        { field: 'steps' as const, values: '10, 20, 30' },
        { field: 'sampler' as const, values: 'euler, dpm' },
        { field: 'size' as const, values: '512x768, 768x512' },
      ],
    };
    expect(planSweep(start)).toMatchObject({ ok: true, cells: 12, images: 12 });
    const cells = expand(start);
    expect(cells.map((c) => [c.x, c.y, c.z])).toEqual(
      [0, 1].flatMap((z) => [0, 1].flatMap((y) => [0, 1, 2].map((x) => [x, y, z]))),
    );
    expect(cells[11]!.request).toMatchObject({ steps: 30, sampler: 'dpm', width: 768, height: 512 });
    expect(cells[0]!.request).toMatchObject({ steps: 10, sampler: 'euler', width: 512, height: 768 });
    // The base is never changed.
    expect(base.steps).toBe(20);
  });

  it('prompt S/R replaces every occurrence; the first value keeps the prompt', () => {
    const cells = expand({ base, axes: [{ field: 'prompt', values: 'red, blue, "dark green"' }] });
    expect(cells.map((c) => c.request.prompt)).toEqual([
      'a red fox by a red barn',
      'a blue fox by a blue barn',
      'a dark green fox by a dark green barn',
    ]);
  });

  it('a LoRA axis swaps which LoRA applies (the base’s weight for it, else 1); a weight axis sets one LoRA’s weight', () => {
    const swapped = expand({ base, axes: [{ field: 'lora', values: 'ink, watercolor' }] });
    expect(swapped.map((c) => c.request.loras)).toEqual([
      [{ name: 'ink', weight: 0.8 }],
      [{ name: 'watercolor', weight: 1 }],
    ]);
    const weighted = expand({
      base,
      axes: [
        { field: 'loraWeight', lora: 'ink', values: '0-1 [3]' },
        { field: 'loraWeight', lora: 'detail', values: '0.5' },
      ],
    });
    expect(weighted.map((c) => c.request.loras)).toEqual(
      [0, 0.5, 1].map((w) => [
        { name: 'ink', weight: w },
        { name: 'detail', weight: 0.5 },
      ]),
    );
  });

  it('seed, guidance, model, scheduler, provider and strength set their fields', () => {
    const withImage = { ...base, inputImage: { imageId: '0190a6e2-0000-7000-8000-000000000001', strength: 0.5 } };
    const [cell] = expand({
      base: withImage,
      axes: [
        { field: 'seed', values: '18446744073709551615' },
        { field: 'provider', values: 'comfyui-2' },
        { field: 'strength', values: '0.3' },
      ],
    });
    expect(cell!.request).toMatchObject({
      seed: '18446744073709551615',
      provider: 'comfyui-2',
      inputImage: { strength: 0.3 },
    });
    const [other] = expand({
      base,
      axes: [
        { field: 'guidance', values: '6.5' },
        { field: 'model', values: 'sdxl.safetensors' },
        { field: 'scheduler', values: 'karras' },
      ],
    });
    expect(other!.request).toMatchObject({ guidance: 6.5, model: 'sdxl.safetensors', scheduler: 'karras' });
  });

  it('refuses past either cap naming both numbers, and points at the axis at fault', () => {
    expect(
      planSweep({
        base,
        axes: [
          { field: 'seed', values: '1-30' },
          { field: 'steps', values: '1-20' },
        ],
      }),
    ).toEqual({
      ok: false,
      field: 'axes',
      message: 'This sweep makes 600 cells; a sweep has at most 500.',
    });
    expect(planSweep({ base: { ...base, count: 4 }, axes: [{ field: 'seed', values: '1-300' }] })).toEqual({
      ok: false,
      field: 'axes',
      message: 'This sweep makes 1,200 images (300 cells × 4); a sweep has at most 1,000.',
    });
    expect(
      planSweep({
        base,
        axes: [
          { field: 'steps', values: '5' },
          { field: 'guidance', values: 'x' },
        ],
      }),
    ).toMatchObject({
      ok: false,
      field: 'axes.1.values',
    });
    expect(planSweep({ base, axes: [{ field: 'loraWeight', values: '1' }] })).toMatchObject({
      ok: false,
      field: 'axes.0.lora',
    });
    expect(planSweep({ base, axes: [{ field: 'strength', values: '0.5' }] })).toMatchObject({
      ok: false,
      field: 'axes.0.field',
    });
  });

  it('the count is the product of the axes’ lengths, and exactly the cells built', () => {
    const list = fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(list, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 4 }), (lists, count) => {
        const axes = lists.map((l) => ({ field: 'steps' as const, values: l.join(', ') }));
        const plan = planSweep({ base: { ...base, count }, axes });
        const product = lists.reduce((n, l) => n * l.length, 1);
        if (product * count > SWEEP_IMAGE_CAP || product > SWEEP_CELL_CAP) {
          expect(plan.ok).toBe(false);
          return;
        }
        expect(plan).toMatchObject({ ok: true, cells: product, images: product * count });
        const cells = expand({ base: { ...base, count }, axes });
        expect(cells).toHaveLength(product);
        // The last axis wins: each cell's steps is the value at its position on the last axis.
        const last = lists.length - 1;
        for (const c of cells) expect(c.request.steps).toBe(lists[last]![[c.x, c.y, c.z][last]!]);
      }),
    );
  });
});
