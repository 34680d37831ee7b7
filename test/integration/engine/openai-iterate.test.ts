import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../fakes/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const KEY = 'sk-engine-edits';
const text = {
  provider: 'openai',
  model: 'gpt-image-1',
  prompt: 'a tin robot',
  width: 1024,
  height: 1024,
  count: 1,
} as const;
const inside = (x: number, y: number) => x >= 2 && x < 6 && y >= 1 && y < 5;

/** The viewer's brush output: white where painted, transparent elsewhere. */
async function painted(w: number, h: number): Promise<string> {
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y += 1)
    for (let x = 0; x < w; x += 1) if (inside(x, y)) rgba.fill(255, (y * w + x) * 4, (y * w + x) * 4 + 4);
  return (
    await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer()
  ).toString('base64');
}

describe('engine: a masked edit on OpenAI', () => {
  let h: Harness | undefined;
  let openai: FakeOpenAI | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await openai?.close();
    h = openai = undefined;
  });

  it("sends the stored image's file bytes and a mask transparent exactly where the person painted", async () => {
    openai = await startFakeOpenAI({ apiKey: KEY });
    h = await startHarness({ providers: defaultProviders() });
    const engine: Engine = h.engine;
    await engine.handlers['settings.update']({ providers: { openai: { apiKey: KEY, baseUrl: openai.url } } });
    const first = await waitForStatus(engine, (await engine.handlers['jobs.submit'](text)).job.id, [
      'succeeded',
      'failed',
    ]);
    expect(first.status).toBe('succeeded');
    const image = first.images[0]!;

    const saved = await engine.handlers['images.saveMask']({
      imageId: image.id,
      png: await painted(image.width, image.height),
    });
    const { job } = await engine.handlers['jobs.submit']({
      ...text,
      prompt: 'the robot in red',
      inputImage: { imageId: image.id },
      mask: { imageId: saved.maskId },
    });
    const done = await waitForStatus(engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done).toMatchObject({ operation: 'inpaint', parentImageId: image.id });

    const [got] = openai.edits;
    expect(got!.images[0]!.data.equals(readFileSync(engine.resolveMedia('image', image.id)!.path))).toBe(true);
    const { data, info } = await sharp(got!.mask!.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([image.width, image.height]);
    for (let y = 0; y < info.height; y += 1) {
      for (let x = 0; x < info.width; x += 1)
        expect(data[(y * info.width + x) * info.channels + 3]).toBe(inside(x, y) ? 0 : 255);
    }
  });

  it("judges an operation by the request's own model, not the one set as default in Settings", async () => {
    openai = await startFakeOpenAI({ apiKey: KEY });
    h = await startHarness({ providers: defaultProviders() });
    const engine: Engine = h.engine;
    await engine.handlers['settings.update']({
      providers: { openai: { apiKey: KEY, baseUrl: openai.url, model: 'dall-e-3' } },
    });
    const first = await waitForStatus(engine, (await engine.handlers['jobs.submit'](text)).job.id, [
      'succeeded',
      'failed',
    ]);
    const imageId = first.images[0]!.id;
    const { job } = await engine.handlers['jobs.submit']({
      ...text,
      prompt: 'the robot in snow',
      inputImage: { imageId },
    });
    expect((await waitForStatus(engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const refused = await engine.handlers['jobs.submit']({
      ...text,
      model: 'dall-e-3',
      prompt: 'the robot at sea',
      inputImage: { imageId },
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'invalid_request' });
    // The list says so per model, so the viewer's buttons can follow the composer's model.
    const listed = (await engine.handlers['providers.list']({})).providers.find((p) => p.id === 'openai')!;
    expect(listed.capabilities.operations.img2img.supported).toBe(false);
    expect(listed.operationsByModel?.['gpt-image-1']?.img2img.supported).toBe(true);
    expect(listed.operationsByModel?.['dall-e-3']).toBeUndefined();
  });
});
