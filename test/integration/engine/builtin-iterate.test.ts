import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/types.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const base = {
  provider: 'builtin',
  prompt: 'a lighthouse on a cliff at dusk',
  width: 160,
  height: 120,
  count: 1,
  seed: 11,
  partialImages: 0,
} as const;

let h: Harness;
afterEach(async () => {
  await h?.cleanup();
});

const pixelsOf = (engine: Engine, imageId: string): Promise<Buffer> =>
  sharp(readFileSync(engine.resolveMedia('image', imageId)!.path))
    .removeAlpha()
    .raw()
    .toBuffer();

function meanDiff(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

async function run(engine: Engine, request: Parameters<Engine['handlers']['jobs.submit']>[0]) {
  const { job } = await engine.handlers['jobs.submit'](request);
  const done = await waitForStatus(engine, job.id, ['succeeded', 'failed'], 30_000);
  expect(done.errorDetail ?? null).toBeNull();
  return done;
}

describe('the built-in provider works from a stored image, end to end', () => {
  it('image-to-image from a stored image: the result is derived from it, recorded as made from it', async () => {
    h = await startHarness({ providers: undefined });
    const source = await run(h.engine, base);
    const imageId = source.images[0]!.id;
    const sourcePixels = await pixelsOf(h.engine, imageId);

    const near = await run(h.engine, {
      ...base,
      prompt: 'a field of red flowers',
      seed: 5,
      inputImage: { imageId, strength: 0.2 },
    });
    const free = await run(h.engine, {
      ...base,
      prompt: 'a field of red flowers',
      seed: 5,
      inputImage: { imageId, strength: 1 },
    });
    expect(near).toMatchObject({ operation: 'img2img', parentImageId: imageId });
    expect(near.images.map((i) => [i.width, i.height])).toEqual([[160, 120]]);
    const apart = meanDiff(await pixelsOf(h.engine, free.images[0]!.id), sourcePixels);
    expect(apart).toBeGreaterThan(20);
    expect(meanDiff(await pixelsOf(h.engine, near.images[0]!.id), sourcePixels)).toBeLessThan(apart * 0.3);

    // Upscale ×2 of the same stored image: exactly twice its size, recorded as made from it.
    const up = await run(h.engine, { ...base, upscale: { imageId, factor: 2 } });
    expect(up).toMatchObject({ operation: 'upscale', parentImageId: imageId });
    expect(up.images.map((i) => [i.width, i.height])).toEqual([[320, 240]]);
  }, 60_000);

  it('a masked edit repaints only what was painted', async () => {
    h = await startHarness({ providers: undefined });
    const source = await run(h.engine, base);
    const imageId = source.images[0]!.id;
    // Painted: the left half, as a brush leaves it (white, transparent elsewhere).
    const rgba = Buffer.alloc(160 * 120 * 4);
    for (let p = 0; p < 160 * 120; p += 1) if (p % 160 < 80) rgba.fill(255, p * 4, p * 4 + 4);
    const png = (
      await sharp(rgba, { raw: { width: 160, height: 120, channels: 4 } })
        .png()
        .toBuffer()
    ).toString('base64');
    const { maskId } = await h.engine.handlers['images.saveMask']({ imageId, png });
    const edit = await run(h.engine, {
      ...base,
      prompt: 'a purple moon',
      inputImage: { imageId, strength: 1 },
      mask: { imageId: maskId },
    });
    expect(edit).toMatchObject({ operation: 'inpaint', parentImageId: imageId });
    const before = await pixelsOf(h.engine, imageId);
    const after = await pixelsOf(h.engine, edit.images[0]!.id);
    let changedLeft = 0;
    let changedRight = 0;
    for (let p = 0; p < 160 * 120; p += 1) {
      const differs = [0, 1, 2].some((c) => before[p * 3 + c] !== after[p * 3 + c]);
      if (p % 160 < 80) changedLeft += differs ? 1 : 0;
      else changedRight += differs ? 1 : 0;
    }
    expect(changedRight).toBe(0);
    expect(changedLeft).toBeGreaterThan(80 * 120 * 0.8);
  }, 60_000);
});
