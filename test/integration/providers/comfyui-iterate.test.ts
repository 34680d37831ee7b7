import fc from 'fast-check';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadImageName } from '../../../electron/providers/comfyui/upload.js';
import { Deadline } from '../../../electron/providers/http/deadline.js';
import { AppError } from '../../../shared/errors.js';
import { createComfyUIProvider, defaultWorkflow } from '../../../electron/providers/comfyui/index.js';
import type { ProviderConfig, SourceImage } from '../../../electron/providers/types.js';
import { type FakeComfy, type FakeComfyOptions, startFakeComfyUI } from '../../fakes/comfyui.js';
import { config, recordingContext, rejectsWith, request } from './helpers.js';

const IMAGE_ID = '0190a6e2-0000-7000-8000-000000000001';
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

let provider = createComfyUIProvider({ cancelGraceMs: 500, historyWaitMs: 300 });
let fake: FakeComfy;
let cfg: ProviderConfig;
let source: SourceImage;
let mask: SourceImage;

const sentGraph = (i = 0) => (fake.promptRequests()[i]!.json as { prompt: Graph }).prompt;
const nodesOf = (graph: Graph, type: string) => Object.entries(graph).filter(([, n]) => n.class_type === type);
const only = (graph: Graph, type: string) => {
  const found = nodesOf(graph, type);
  expect(found, `one ${type} node`).toHaveLength(1);
  return found[0]!;
};
const ctxWith = (inputs: { image?: SourceImage; mask?: SourceImage }) => Object.assign(recordingContext(), { inputs });
const img2img = (strength?: number, overrides: Parameters<typeof request>[0] = {}) =>
  request({
    width: 512,
    height: 512,
    inputImage: { imageId: IMAGE_ID, ...(strength === undefined ? {} : { strength }) },
    ...overrides,
  });
const inpaint = (strength?: number) => img2img(strength, { mask: { imageId: IMAGE_ID } });
const upscale = (factor: 2 | 4, upscaler?: string) =>
  request({
    width: 512,
    height: 512,
    upscale: { imageId: IMAGE_ID, factor, ...(upscaler === undefined ? {} : { upscaler }) },
  });

async function start(options: FakeComfyOptions = {}): Promise<void> {
  await fake?.close();
  fake = await startFakeComfyUI(options);
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly.safetensors' });
  provider = createComfyUIProvider({ cancelGraceMs: 500, historyWaitMs: 300 });
}

beforeEach(async () => {
  // A source with structure (a gradient), 68×52: neither side a multiple of 8, as imported photos often are.
  const pixels = Buffer.alloc(68 * 52 * 3);
  for (let i = 0; i < 68 * 52; i += 1) pixels.set([(i % 68) * 3, (i / 68) * 4, 90], i * 3);
  source = {
    data: await sharp(pixels, { raw: { width: 68, height: 52, channels: 3 } })
      .png()
      .toBuffer(),
    mime: 'image/png',
    width: 68,
    height: 52,
  };
  const maskPixels = Buffer.alloc(68 * 52);
  for (let i = 0; i < maskPixels.length; i += 1) maskPixels[i] = i % 68 < 34 ? 255 : 0;
  mask = {
    data: await sharp(maskPixels, { raw: { width: 68, height: 52, channels: 1 } })
      .png()
      .toBuffer(),
    mime: 'image/png',
    width: 68,
    height: 52,
  };
  await start();
});
afterEach(async () => {
  await fake.close();
});

describe('comfyui image-to-image', () => {
  it('uploads the source bytes as multipart, then runs LoadImage → VAEEncode → KSampler with denoise = strength', async () => {
    const ctx = ctxWith({ image: source });
    const out = await provider.generate(img2img(0.35, { seed: 7, scheduler: 'karras' }), cfg, ctx);
    expect(fake.uploads).toHaveLength(1);
    const upload = fake.uploads[0]!;
    expect(upload.bytes.equals(Buffer.from(source.data))).toBe(true);
    expect(upload.fields).toEqual({ type: 'input', overwrite: 'true' });
    expect(upload.contentType).toBe('image/png');
    const graph = sentGraph();
    const [loadId, load] = only(graph, 'LoadImage');
    expect(load.inputs.image).toBe(upload.name);
    const [encodeId, encode] = only(graph, 'VAEEncode');
    expect(encode.inputs).toEqual({ pixels: [loadId, 0], vae: [only(graph, 'CheckpointLoaderSimple')[0], 2] });
    const [, sampler] = only(graph, 'KSampler');
    expect(sampler.inputs).toMatchObject({ denoise: 0.35, seed: 7, scheduler: 'karras', latent_image: [encodeId, 0] });
    expect(nodesOf(graph, 'EmptyLatentImage')).toHaveLength(0);
    // The fake's VAEEncode trims to a multiple of 8, as ComfyUI does.
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[64, 48]]);
    expect(out.seed).toBe(7);
    expect(ctx.accepted).toBe(1);
    // Uploaded before the prompt was queued.
    expect(fake.requests.findIndex((r) => r.path === '/upload/image')).toBeLessThan(
      fake.requests.findIndex((r) => r.path === '/prompt'),
    );
  });

  it('uses denoise 0.75 when the request gives no strength, and repeats the latent for a batch', async () => {
    const out = await provider.generate(img2img(undefined, { count: 3 }), cfg, ctxWith({ image: source }));
    const graph = sentGraph();
    const [repeatId, repeat] = only(graph, 'RepeatLatentBatch');
    expect(repeat.inputs).toEqual({ samples: [only(graph, 'VAEEncode')[0], 0], amount: 3 });
    expect(only(graph, 'KSampler')[1].inputs).toMatchObject({ denoise: 0.75, latent_image: [repeatId, 0] });
    expect(out.images).toHaveLength(3);
  });

  it('uses the name the server answered when it renamed the upload ("x (1).png")', async () => {
    await start({ ignoreOverwrite: true });
    await provider.generate(img2img(0.5), cfg, ctxWith({ image: source }));
    const first = fake.uploads[0]!.name;
    // Someone else's different file now sits under that name: an older server renames ours.
    fake.seedInput(first, Buffer.from(mask.data));
    await provider.generate(img2img(0.5), cfg, ctxWith({ image: source }));
    const renamed = fake.uploads[1]!.name;
    expect(renamed).toBe(first.replace(/\.png$/, ' (1).png'));
    expect(only(sentGraph(1), 'LoadImage')[1].inputs.image).toBe(renamed);
  });

  it("fills a person's workflow through {{input_image}} and {{denoise}}", async () => {
    const workflow = JSON.stringify({
      ...defaultWorkflow(),
      '5': { class_type: 'VAEEncode', inputs: { pixels: ['10', 0], vae: ['4', 2] } },
      '10': { class_type: 'LoadImage', inputs: { image: '{{input_image}}' } },
      '3': { ...defaultWorkflow()['3'], inputs: { ...defaultWorkflow()['3']!.inputs, denoise: '{{denoise}}' } },
    });
    await provider.generate(img2img(0.2), { ...cfg, workflow }, ctxWith({ image: source }));
    const graph = sentGraph();
    expect(graph['10']!.inputs.image).toBe(fake.uploads[0]!.name);
    expect(graph['3']!.inputs.denoise).toBe(0.2);
  });

  it('a workflow without {{input_image}} cannot work from an image: invalid_request before any network call', async () => {
    const workflow = JSON.stringify(defaultWorkflow());
    expect(() => provider.validate(img2img(0.5), { ...cfg, workflow })).toThrow(/no \{\{input_image\}\} placeholder/);
    await rejectsWith(
      provider.generate(img2img(0.5), { ...cfg, workflow }, ctxWith({ image: source })),
      'invalid_request',
    );
    expect(fake.requests).toHaveLength(0);
    const caps = provider.capabilities({ ...cfg, workflow }).operations;
    expect(caps.img2img).toMatchObject({ supported: false, reason: expect.stringContaining('{{input_image}}') });
    expect(caps.inpaint.supported).toBe(false);
    // And a workflow that loads an image cannot run from text alone.
    const imageWorkflow = JSON.stringify({
      ...defaultWorkflow(),
      '10': { class_type: 'LoadImage', inputs: { image: '{{input_image}}' } },
    });
    expect(() => provider.validate(request({ width: 512, height: 512 }), { ...cfg, workflow: imageWorkflow })).toThrow(
      /start it from an image/,
    );
    // A scheduler needs {{scheduler}} in a person's workflow, like the sampler.
    const noScheduler = JSON.stringify({
      ...defaultWorkflow(),
      '3': { ...defaultWorkflow()['3']!, inputs: { ...defaultWorkflow()['3']!.inputs, scheduler: 'normal' } },
    });
    expect(() =>
      provider.validate(request({ width: 512, height: 512, scheduler: 'karras' }), { ...cfg, workflow: noScheduler }),
    ).toThrow(/no \{\{scheduler\}\} placeholder/);
  });

  it('the default graph says it can do all three operations', () => {
    const caps = provider.capabilities(cfg).operations;
    expect([caps.img2img.supported, caps.inpaint.supported, caps.upscale.supported]).toEqual([true, true, true]);
  });
});

describe('comfyui masked edit', () => {
  it('uploads the mask too and wires LoadImageMask → SetLatentNoiseMask(VAEEncode) → KSampler, composited over the source', async () => {
    const out = await provider.generate(inpaint(0.9), cfg, ctxWith({ image: source, mask }));
    expect(fake.uploads).toHaveLength(2);
    expect(fake.uploads[0]!.bytes.equals(Buffer.from(source.data))).toBe(true);
    expect(fake.uploads[1]!.bytes.equals(Buffer.from(mask.data))).toBe(true);
    const graph = sentGraph();
    const [loadId] = only(graph, 'LoadImage');
    const [maskId, maskNode] = only(graph, 'LoadImageMask');
    expect(maskNode.inputs).toEqual({ image: fake.uploads[1]!.name, channel: 'red' });
    const [encodeId] = only(graph, 'VAEEncode');
    const [noiseId, noise] = only(graph, 'SetLatentNoiseMask');
    expect(noise.inputs).toEqual({ samples: [encodeId, 0], mask: [maskId, 0] });
    expect(only(graph, 'KSampler')[1].inputs).toMatchObject({ denoise: 0.9, latent_image: [noiseId, 0] });
    const [compositeId, composite] = only(graph, 'ImageCompositeMasked');
    expect(composite.inputs).toMatchObject({
      destination: [loadId, 0],
      source: [only(graph, 'VAEDecode')[0], 0],
      mask: [maskId, 0],
    });
    expect(only(graph, 'SaveImage')[1].inputs.images).toEqual([compositeId, 0]);
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[68, 52]]);
  });

  it('a batch repeats the latent and the source, so every image of it is composited', async () => {
    const out = await provider.generate(inpaint(0.5), cfg, ctxWith({ image: source, mask }));
    expect(out.images).toHaveLength(1);
    const batch = await provider.generate({ ...inpaint(0.5), count: 2 }, cfg, ctxWith({ image: source, mask }));
    const graph = sentGraph(1);
    const [repeatId, repeat] = only(graph, 'RepeatImageBatch');
    expect(repeat.inputs).toEqual({ image: [only(graph, 'LoadImage')[0], 0], amount: 2 });
    expect(only(graph, 'ImageCompositeMasked')[1].inputs.destination).toEqual([repeatId, 0]);
    expect(only(graph, 'RepeatLatentBatch')[1].inputs.samples).toEqual([only(graph, 'SetLatentNoiseMask')[0], 0]);
    expect(batch.images.map((i) => [i.width, i.height])).toEqual([
      [68, 52],
      [68, 52],
    ]);
  });

  it('a workflow with {{input_image}} but no {{mask}} cannot edit with a mask; with it, the mask name fills in', async () => {
    const base: Graph = {
      ...defaultWorkflow(),
      '5': { class_type: 'VAEEncode', inputs: { pixels: ['10', 0], vae: ['4', 2] } },
      '10': { class_type: 'LoadImage', inputs: { image: '{{input_image}}' } },
    };
    expect(() => provider.validate(inpaint(), { ...cfg, workflow: JSON.stringify(base) })).toThrow(
      /no \{\{mask\}\} placeholder/,
    );
    expect(provider.capabilities({ ...cfg, workflow: JSON.stringify(base) }).operations.inpaint.supported).toBe(false);
    const withMask: Graph = {
      ...base,
      '12': { class_type: 'LoadImageMask', inputs: { image: '{{mask}}', channel: 'red' } },
      '13': { class_type: 'SetLatentNoiseMask', inputs: { samples: ['5', 0], mask: ['12', 0] } },
    };
    withMask['3'] = { ...base['3']!, inputs: { ...base['3']!.inputs, latent_image: ['13', 0] } };
    await provider.generate(
      inpaint(),
      { ...cfg, workflow: JSON.stringify(withMask) },
      ctxWith({ image: source, mask }),
    );
    expect(sentGraph()['12']!.inputs.image).toBe(fake.uploads[1]!.name);
  });

  it('a mask of another size is refused before anything is sent', async () => {
    const small = { ...mask, width: 34 };
    await rejectsWith(provider.generate(inpaint(), cfg, ctxWith({ image: source, mask: small })), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('comfyui upscale', () => {
  it.each([2, 4] as const)(
    'without an upscale model: LoadImage → ImageScaleBy(lanczos, %i) → SaveImage, result exactly source × factor',
    async (factor) => {
      const out = await provider.generate(upscale(factor), cfg, ctxWith({ image: source }));
      expect(fake.uploads[0]!.bytes.equals(Buffer.from(source.data))).toBe(true);
      const graph = sentGraph();
      const [loadId] = only(graph, 'LoadImage');
      const [scaleId, scale] = only(graph, 'ImageScaleBy');
      expect(scale.inputs).toEqual({ image: [loadId, 0], upscale_method: 'lanczos', scale_by: factor });
      expect(only(graph, 'SaveImage')[1].inputs.images).toEqual([scaleId, 0]);
      expect(nodesOf(graph, 'CheckpointLoaderSimple')).toHaveLength(0);
      expect(out.images.map((i) => [i.width, i.height])).toEqual([[68 * factor, 52 * factor]]);
      expect(out.info?.upscaler).toBe('lanczos');
    },
  );

  it('a camera JPEG on its side is upscaled at the size LoadImage sees (EXIF orientation applied)', async () => {
    await start({ upscaleModels: ['4x-UltraSharp.pth'] });
    const jpeg = await sharp({ create: { width: 68, height: 52, channels: 3, background: '#369' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const out = await provider.generate(
      upscale(2),
      cfg,
      ctxWith({ image: { data: jpeg, mime: 'image/jpeg', width: 68, height: 52 } }),
    );
    expect(fake.uploads[0]!.filename).toMatch(/\.jpg$/);
    expect(only(sentGraph(), 'ImageScale')[1].inputs).toMatchObject({ width: 104, height: 136 });
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[104, 136]]);
  });

  it('with upscale models: picks the one for the factor, ImageUpscaleWithModel then ImageScale to the exact size', async () => {
    await start({ upscaleModels: ['RealESRGAN_x2plus.pth', '4x-UltraSharp.pth'] });
    const out = await provider.generate(upscale(4), cfg, ctxWith({ image: source }));
    const graph = sentGraph();
    const [loaderId, loader] = only(graph, 'UpscaleModelLoader');
    expect(loader.inputs).toEqual({ model_name: '4x-UltraSharp.pth' });
    const [modelId, model] = only(graph, 'ImageUpscaleWithModel');
    expect(model.inputs).toEqual({ upscale_model: [loaderId, 0], image: [only(graph, 'LoadImage')[0], 0] });
    expect(only(graph, 'ImageScale')[1].inputs).toMatchObject({ image: [modelId, 0], width: 272, height: 208 });
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[272, 208]]);
    // A ×4 model asked for ×2: ImageScale brings it to exactly twice the source.
    const two = await provider.generate(upscale(2, '4x-UltraSharp.pth'), cfg, ctxWith({ image: source }));
    expect(two.images.map((i) => [i.width, i.height])).toEqual([[136, 104]]);
  });

  it.each([false, true])(
    'test() lists the upscale models for capabilities (COMBO shape: %s); an unknown one is refused offline',
    async (comboSpec) => {
      await start({ upscaleModels: ['4x-UltraSharp.pth'], comboSpec });
      expect(provider.capabilities(cfg).operations.upscale.upscalers).toBeUndefined();
      const result = await provider.test(cfg, AbortSignal.timeout(5000));
      expect(result.message).toContain('1 upscale model');
      expect(result.upscalers).toEqual(['4x-UltraSharp.pth']);
      expect(provider.capabilities(cfg).operations.upscale).toMatchObject({
        supported: true,
        upscalers: ['4x-UltraSharp.pth'],
      });
      const before = fake.requests.length;
      expect(() => provider.validate(upscale(2, 'R-ESRGAN 4x+'), cfg)).toThrow(/no upscale model "R-ESRGAN 4x\+"/);
      expect(fake.requests).toHaveLength(before);
      // The engine may hand the list in through the config instead.
      expect(provider.capabilities({ ...cfg, upscalers: ['2x-Other.pth'] }).operations.upscale.upscalers).toEqual([
        '2x-Other.pth',
      ]);
    },
  );

  it('an unknown upscaler found only at run time is invalid_request, and nothing is queued', async () => {
    await rejectsWith(provider.generate(upscale(2, 'missing.pth'), cfg, ctxWith({ image: source })), 'invalid_request');
    expect(fake.promptRequests()).toHaveLength(0);
    expect(fake.uploads).toHaveLength(0);
  });
});

describe('comfyui: untrusted answers', () => {
  it('an upload answer without a name is a provider_error, and no prompt is queued', async () => {
    await start({ uploadAnswer: { status: 200, body: { subfolder: '', type: 'input' } } });
    const error = await rejectsWith(provider.generate(img2img(0.5), cfg, ctxWith({ image: source })), 'provider_error');
    expect(error.message).toMatch(/upload answer without a usable file name/);
    expect(fake.promptRequests()).toHaveLength(0);
  });

  it('an upload answer naming a path outside input/ is refused', async () => {
    await start({ uploadAnswer: { status: 200, body: { name: '../../etc/passwd', subfolder: '', type: 'input' } } });
    await rejectsWith(provider.generate(img2img(0.5), cfg, ctxWith({ image: source })), 'provider_error');
    expect(fake.promptRequests()).toHaveLength(0);
  });

  it('an upload refused with HTTP 500 is a provider_error naming the upload', async () => {
    await start({ uploadAnswer: { status: 500, body: { error: 'disk full' } } });
    const error = await rejectsWith(provider.generate(upscale(2), cfg, ctxWith({ image: source })), 'provider_error');
    expect(error.message).toMatch(/refused the source image upload/);
  });

  it('an upscale result of the wrong size is a provider_error, not a silently wrong image', async () => {
    fake.setScenario({ kind: 'success', outputSize: { width: 68, height: 52 } });
    const error = await rejectsWith(provider.generate(upscale(2), cfg, ctxWith({ image: source })), 'provider_error');
    expect(error.message).toMatch(/68×52 image where 136×104 was expected/);
  });

  it('a job without its source image read fails clearly, without calling the server', async () => {
    await rejectsWith(provider.generate(img2img(0.5), cfg, recordingContext()), 'internal');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('comfyui: any upload answer', () => {
  it('gives a plain input file name or a provider_error, never a path out of input/ or a crash', () => {
    const deadline = new Deadline(new AbortController().signal, 10_000);
    const scope = { provider: 'ComfyUI', deadline, secrets: [] };
    const part = fc.oneof(fc.string(), fc.constantFrom('..', '.', '', 'a/b', 'x\\y', 'ok.png'));
    const answer = fc.oneof(
      fc.anything(),
      fc.record(
        { name: fc.oneof(part, fc.anything()), subfolder: fc.oneof(part, fc.anything()), type: fc.string() },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(answer, (value) => {
        let name: string;
        try {
          name = loadImageName(value, scope);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe('provider_error');
          return;
        }
        const parts = name.split('/');
        expect(parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\\') && !p.includes('\0'))).toBe(
          true,
        );
        expect(parts.at(-1)).toBe((value as { name: string }).name);
      }),
      { numRuns: 500 },
    );
    deadline.dispose();
  });
});

describe('the fake checks graphs like ComfyUI', () => {
  it('rejects a LoadImage of a file never uploaded, and an ImageScaleBy method it does not have', async () => {
    const graph = {
      '10': { class_type: 'LoadImage', inputs: { image: 'nope.png' } },
      '21': { class_type: 'ImageScaleBy', inputs: { image: ['10', 0], upscale_method: 'sinc', scale_by: 2 } },
      '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'x', images: ['21', 0] } },
    };
    const res = await fetch(`${fake.url}/prompt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: graph, client_id: 'c' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { node_errors: Record<string, { errors: { type: string }[] }> };
    // LoadImage checks its own file (VALIDATE_INPUTS), as the real server does: not a combo error.
    expect(body.node_errors['10']!.errors[0]).toMatchObject({
      type: 'custom_validation_failed',
      details: 'image - Invalid image file: nope.png',
    });
    expect(body.node_errors['21']!.errors[0]!.type).toBe('value_not_in_list');
  });
});
