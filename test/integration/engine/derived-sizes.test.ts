import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/types.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const base = {
  provider: 'builtin',
  prompt: 'a lighthouse on a cliff at dusk',
  width: 512,
  height: 512,
  count: 1,
  seed: 7,
  partialImages: 0,
} as const;

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function run(engine: Engine, request: Parameters<Engine['handlers']['jobs.submit']>[0]) {
  const { job } = await engine.handlers['jobs.submit'](request);
  const done = await waitForStatus(engine, job.id, ['succeeded', 'failed'], 60_000);
  expect(done.errorDetail ?? null).toBeNull();
  return done;
}

const found = async (engine: Engine, search: string) =>
  (await engine.handlers['jobs.list']({ search, limit: 50, view: 'active' })).items.map((j) => j.id);

describe('a derived image records its own size', () => {
  it('an upscale ×2 of a 512² image records 1024 × 1024 for its image and its job, and size:1024x1024 finds it', async () => {
    h = await startHarness({ providers: undefined });
    const source = await run(h.engine, base);
    const imageId = source.images[0]!.id;
    // The request carries the source's size, as the composer sends it.
    const up = await run(h.engine, { ...base, upscale: { imageId, factor: 2 } });

    const detail = await h.engine.handlers['jobs.get']({ id: up.id });
    expect(detail.images.map((i) => [i.width, i.height])).toEqual([[1024, 1024]]);
    expect([detail.width, detail.height]).toEqual([1024, 1024]);
    // What was asked stays in the request, for Reuse and Retry.
    expect([detail.request.width, detail.request.height]).toEqual([512, 512]);

    expect(await found(h.engine, 'size:1024x1024')).toEqual([up.id]);
    expect(await found(h.engine, 'size:512x512')).toEqual([source.id]);
    expect(await found(h.engine, 'w:1024')).toEqual([up.id]);
  }, 120_000);
});
