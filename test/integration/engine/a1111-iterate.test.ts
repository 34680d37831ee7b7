import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startFakeA1111, type FakeA1111 } from '../../fakes/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const fileBytes = (engine: Engine, imageId: string): Buffer =>
  readFileSync(engine.resolveMedia('image', imageId)!.path);
const text = {
  provider: 'a1111',
  prompt: 'a red kite over dunes',
  width: 512,
  height: 512,
  count: 1,
  steps: 4,
} as const;

describe('engine: working from a stored image on A1111', () => {
  let h: Harness | undefined;
  let a1111: FakeA1111 | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await a1111?.close();
    h = a1111 = undefined;
  });

  async function engineOnFake(): Promise<Engine> {
    a1111 = await startFakeA1111();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a1111.url } } });
    return h.engine;
  }

  it("an img2img job sends A1111 the stored image's file bytes and records its lineage", async () => {
    const engine = await engineOnFake();
    const first = await waitForStatus(engine, (await engine.handlers['jobs.submit'](text)).job.id, [
      'succeeded',
      'failed',
    ]);
    expect(first.status).toBe('succeeded');
    const imageId = first.images[0]!.id;

    const { job } = await engine.handlers['jobs.submit']({
      ...text,
      prompt: 'the kite at night',
      inputImage: { imageId, strength: 0.45 },
    });
    const done = await waitForStatus(engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done).toMatchObject({ status: 'succeeded', operation: 'img2img', parentImageId: imageId });
    const [got] = a1111!.received;
    expect(got!.route).toBe('img2img');
    expect(got!.images[0]!.equals(fileBytes(engine, imageId))).toBe(true);
    expect(got!.body).toMatchObject({ denoising_strength: 0.45, prompt: 'the kite at night' });
  });

  it('a connection test lists the upscalers, kept across a restart like the models, and an upscale uses the best', async () => {
    const engine = await engineOnFake();
    expect((await engine.handlers['providers.test']({ id: 'a1111' })).ok).toBe(true);
    const listed = async (e: Engine) =>
      (await e.handlers['providers.list']({})).providers.find((p) => p.id === 'a1111')!.capabilities.operations.upscale;
    const expected = ['Lanczos', 'Nearest', 'ESRGAN_4x', 'R-ESRGAN 4x+ Anime6B', 'R-ESRGAN 4x+'];
    expect(await listed(engine)).toEqual({ supported: true, upscalers: expected });
    await engine.close({ graceMs: 0 });
    const reopened = await h!.open();
    expect(await listed(reopened)).toEqual({ supported: true, upscalers: expected });

    const first = await waitForStatus(reopened, (await reopened.handlers['jobs.submit'](text)).job.id, ['succeeded']);
    const imageId = first.images[0]!.id;
    const { job } = await reopened.handlers['jobs.submit']({ ...text, upscale: { imageId, factor: 2 } });
    const done = await waitForStatus(reopened, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done).toMatchObject({ operation: 'upscale', parentImageId: imageId });
    expect(done.images[0]).toMatchObject({ width: first.images[0]!.width * 2, height: first.images[0]!.height * 2 });
    const got = a1111!.received.find((r) => r.route === 'extra-single-image')!;
    expect(got.images[0]!.equals(fileBytes(reopened, imageId))).toBe(true);
    expect(got.body).toMatchObject({ upscaler_1: 'R-ESRGAN 4x+', upscaling_resize: 2 });
  });
});
