import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import type { Engine } from '../../../electron/engine/types.js';
import { type FakeComfy, startFakeComfyUI } from '../../fakes/comfyui.js';
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
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

let h: Harness | undefined;
let comfy: FakeComfy | undefined;
afterEach(async () => {
  await h?.cleanup();
  await comfy?.close();
  h = comfy = undefined;
});

async function run(engine: Engine, request: Parameters<Engine['handlers']['jobs.submit']>[0]) {
  const { job } = await engine.handlers['jobs.submit'](request);
  const done = await waitForStatus(engine, job.id, ['succeeded', 'failed'], 30_000);
  expect(done.errorDetail ?? null).toBeNull();
  return done;
}

describe('ComfyUI works from a stored image, through the engine', () => {
  it('uploads the stored bytes and the saved mask, runs the masked edit, then upscales with the server model', async () => {
    comfy = await startFakeComfyUI({ upscaleModels: ['4x-UltraSharp.pth'] });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: comfy.url, model: 'v1-5-pruned-emaonly.safetensors' } },
    });
    const source = await run(h.engine, base);
    const imageId = source.images[0]!.id;
    const stored = readFileSync(h.engine.resolveMedia('image', imageId)!.path);

    const rgba = Buffer.alloc(160 * 120 * 4);
    for (let p = 0; p < 160 * 120; p += 1) if (p % 160 < 80) rgba.fill(255, p * 4, p * 4 + 4);
    const { maskId } = await h.engine.handlers['images.saveMask']({
      imageId,
      png: (
        await sharp(rgba, { raw: { width: 160, height: 120, channels: 4 } })
          .png()
          .toBuffer()
      ).toString('base64'),
    });
    const edit = await run(h.engine, {
      ...base,
      provider: 'comfyui',
      inputImage: { imageId, strength: 0.6 },
      mask: { imageId: maskId },
    });
    expect(edit).toMatchObject({ operation: 'inpaint', parentImageId: imageId });
    expect(comfy.uploads[0]!.bytes.equals(stored)).toBe(true);
    // The mask ComfyUI got is the one the engine saved: 8-bit gray, white on the left half.
    expect(await sharp(comfy.uploads[1]!.bytes).metadata()).toMatchObject({ width: 160, height: 120, channels: 1 });
    const mask = await sharp(comfy.uploads[1]!.bytes).toColourspace('b-w').raw().toBuffer();
    expect([mask[10], mask[150]]).toEqual([255, 0]);
    const graph = (comfy.promptRequests()[0]!.json as { prompt: Graph }).prompt;
    const sampler = Object.values(graph).find((n) => n.class_type === 'KSampler')!;
    expect(sampler.inputs.denoise).toBe(0.6);
    expect(edit.images.map((i) => [i.width, i.height])).toEqual([[160, 120]]);

    // Test connection lists the server's upscale models; the engine keeps them and Settings shows them.
    await h.engine.handlers['providers.test']({ id: 'comfyui' });
    const listed = (await h.engine.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui')!;
    expect(listed.capabilities.operations.upscale).toMatchObject({ supported: true, upscalers: ['4x-UltraSharp.pth'] });
    const up = await run(h.engine, { ...base, provider: 'comfyui', upscale: { imageId, factor: 4 } });
    expect(up).toMatchObject({ operation: 'upscale', parentImageId: imageId });
    // An upscale runs no checkpoint, so none is recorded (the first listed would otherwise be filled in).
    expect(up.model).toBeUndefined();
    expect(up.images.map((i) => [i.width, i.height])).toEqual([[640, 480]]);
    const upGraph = (comfy.promptRequests()[1]!.json as { prompt: Graph }).prompt;
    expect(Object.values(upGraph).find((n) => n.class_type === 'UpscaleModelLoader')?.inputs.model_name).toBe(
      '4x-UltraSharp.pth',
    );
    // The source went up once: the same bytes under the same content-derived name.
    expect(comfy.uploads.at(-1)!.name).toBe(comfy.uploads[0]!.name);

    // After a restart (a fresh provider, no listing since) Settings still knows the upscale models.
    await h.engine.close({ graceMs: 0 });
    const listings = () => comfy!.requests.filter((r) => r.path === '/object_info/UpscaleModelLoader').length;
    const listedBefore = listings();
    const again = await h.open({ providers: defaultProviders() });
    const relisted = (await again.handlers['providers.list']({})).providers.find((p) => p.id === 'comfyui')!;
    expect(relisted.capabilities.operations.upscale.upscalers).toEqual(['4x-UltraSharp.pth']);
    expect(listings()).toBe(listedBefore);
  }, 60_000);
});
