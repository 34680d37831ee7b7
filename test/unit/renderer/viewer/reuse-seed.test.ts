import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobDetail } from '../../../../shared/contract';
import { describeSeed, seedOfImage } from '../../../../renderer/src/viewer/image-seed';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, idFor, makeJob } from '../helpers';

function image(index: number, extra: Partial<ImageSummary> = {}): ImageSummary {
  return { id: idFor(1000 + index), index, width: 64, height: 64, mime: 'image/png', bytes: 10, ...extra };
}

function detail(images: ImageSummary[], seed: number | string | undefined, provider = 'builtin'): JobDetail {
  const summary = makeJob({ provider, count: images.length, images });
  return {
    ...summary,
    request: {
      provider,
      prompt: summary.prompt,
      width: 64,
      height: 64,
      count: images.length,
      ...(seed === undefined ? {} : { seed }),
    },
    ...(seed === undefined ? {} : { result: { seed, timings: {} } }),
    cancelRequested: false,
    events: [],
  };
}

describe('Reuse settings uses the image on screen', () => {
  it('reusing image 3 of a count-3 batch seeded 424242 brings back 424244, not the first image', () => {
    const job = detail([image(0, { seed: 424242 }), image(1, { seed: 424243 }), image(2, { seed: 424244 })], 424242);
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.getState().reuseSettings(job, job.images[2]!.id);
    expect(store.getState().draft).toMatchObject({ seed: 424244, seedLocked: true, count: 3, prompt: job.prompt });
    store.getState().reuseSettings(job, job.images[0]!.id);
    expect(store.getState().draft.seed).toBe(424242);
  });

  it('for any batch, the seed reused and shown is the on-screen image’s own', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { minLength: 1, maxLength: 10 }),
        fc.nat(),
        (seeds, pick) => {
          const images = seeds.map((seed, i) => image(i, { seed }));
          const job = detail(images, seeds[0]);
          const on = pick % images.length;
          const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
          store.getState().reuseSettings(job, images[on]!.id);
          expect(store.getState().draft.seed).toBe(seeds[on]);
          expect(describeSeed(seedOfImage(job, images[on]!.id), job.count)).toBe(String(seeds[on]));
        },
      ),
    );
  });

  it('a batch drawn from one seed (ComfyUI) says so and reuses that seed with the same count', () => {
    const job = detail(
      [
        image(0, { seed: 777, batchIndex: 0 }),
        image(1, { seed: 777, batchIndex: 1 }),
        image(2, { seed: 777, batchIndex: 2 }),
      ],
      777,
      'comfyui',
    );
    expect(describeSeed(seedOfImage(job, job.images[2]!.id), 3)).toBe('777 (shared by the batch: image 3 of 3)');
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.getState().reuseSettings(job, job.images[2]!.id);
    expect(store.getState().draft).toMatchObject({ seed: 777, count: 3 });
  });

  it('images without a seed of their own: one image takes the job’s; a batch’s is the batch seed; none stays none', () => {
    expect(seedOfImage(detail([image(0)], 42), idFor(1000))).toEqual({ seed: 42 });
    expect(seedOfImage(detail([image(0), image(1)], 42, 'comfyui'), idFor(1001))).toEqual({ seed: 42, batchIndex: 1 });
    expect(seedOfImage(detail([image(0), image(1)], undefined, 'openai'), idFor(1001))).toBeUndefined();
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.getState().reuseSettings(detail([image(0), image(1)], undefined, 'openai'), idFor(1001));
    expect(store.getState().draft.seedLocked).toBe(false);
  });

  it('a 64-bit ComfyUI seed is shown and reused with every digit', () => {
    const big = '18446744073709551557';
    const job = detail(
      [image(0, { seed: big, batchIndex: 0 }), image(1, { seed: big, batchIndex: 1 })],
      big,
      'comfyui',
    );
    expect(describeSeed(seedOfImage(job, job.images[1]!.id), 2)).toBe(
      '18446744073709551557 (shared by the batch: image 2 of 2)',
    );
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.getState().reuseSettings(job, job.images[1]!.id);
    expect(store.getState().draft).toMatchObject({ seed: big, seedLocked: true, count: 2 });
  });
});
