import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readPngMetadata } from '../../../electron/media/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

describe('a newcomer with no setup', () => {
  let h: Harness;
  afterEach(async () => {
    await h?.cleanup();
  });

  it('generates with the built-in provider: files with settings embedded, previews on the way', async () => {
    h = await startHarness({ providers: undefined });
    const { providers } = await h.engine.handlers['providers.list']({});
    const builtin = providers.find((p) => p.id === 'builtin');
    expect(builtin).toMatchObject({ enabled: true, configured: true });
    expect(providers.find((p) => p.id === 'openai')).toMatchObject({ configured: false });

    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'a red fox in deep blue snow, Gogh',
      negativePrompt: 'green',
      width: 256,
      height: 192,
      count: 2,
      seed: 1234,
      steps: 12,
      partialImages: 2,
    });
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed'], 30_000);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done.images.map((i) => [i.width, i.height])).toEqual([
      [256, 192],
      [256, 192],
    ]);
    const meta = readPngMetadata(readFileSync(h.engine.resolveMedia('image', done.images[0]!.id)!.path));
    expect(meta.settings).toMatchObject({
      prompt: 'a red fox in deep blue snow, Gogh',
      negativePrompt: 'green',
      seed: 1234,
      steps: 12,
    });
    expect(meta.atelier?.jobId).toBe(job.id);
    const progress = h.events
      .filter((e) => e.name === 'jobs.progress')
      .map((e) => e.payload as { partialImages: number });
    // Previews arrive on the way, in order; one that lands in the last 100 ms before the image is superseded by it
    // (the worker drops a pending tick at the end), so on a busy machine the second may never be sent.
    const counts = progress.map((p) => p.partialImages);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  }, 40_000);
});
