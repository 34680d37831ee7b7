import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA1111Provider } from '../../../electron/providers/a1111/index.js';
import { chooseUpscaler } from '../../../electron/providers/a1111/operations.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig, SourceImage } from '../../../electron/providers/types.js';
import { type FakeA1111, startFakeA1111 } from '../../fakes/a1111.js';
import { config, grayMask, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const provider = createA1111Provider({ pollIntervalMs: 25, cancelGraceMs: 1000 });
/** As the engine holds it: behind the redacting boundary, which also hands the inputs through. */
const guarded = redactingProvider(provider);
let fake: FakeA1111;
let cfg: ProviderConfig;
let source: SourceImage;
const img2img = (overrides: Parameters<typeof request>[0] = {}) =>
  request({ width: 512, height: 512, inputImage: { imageId: 'img_src' }, ...overrides });
const upscale = (factor: 2 | 4, upscaler?: string) =>
  request({
    width: 512,
    height: 512,
    upscale: { imageId: 'img_src', factor, ...(upscaler === undefined ? {} : { upscaler }) },
  });
const withInputs = (inputs: { image?: SourceImage; mask?: SourceImage }) =>
  Object.assign(recordingContext(), { inputs });

beforeEach(async () => {
  fake = await startFakeA1111();
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly' });
  source = sourcePng(64, 48);
});
afterEach(async () => {
  await fake.close();
});

describe('a1111 img2img', () => {
  it('sends the source image bytes as init_images with the strength and the usual txt2img fields', async () => {
    const ctx = withInputs({ image: source });
    const out = await provider.generate(
      img2img({
        count: 2,
        seed: 9,
        steps: 14,
        sampler: 'DPM++ 2M',
        inputImage: { imageId: 'img_src', strength: 0.35 },
      }),
      cfg,
      ctx,
    );
    expect(out.images.map((i) => i.seed)).toEqual([9, 10]);
    expect(fake.requests.some((r) => r.path === '/sdapi/v1/txt2img')).toBe(false);
    const [got] = fake.received;
    expect(got!.route).toBe('img2img');
    expect(got!.images).toHaveLength(1);
    expect(got!.images[0]!.equals(source.data)).toBe(true);
    expect(got!.mask).toBeUndefined();
    expect(got!.body).toMatchObject({
      denoising_strength: 0.35,
      prompt: 'a red fox in snow',
      steps: 14,
      sampler_name: 'DPM++ 2M',
      scheduler: 'Automatic',
      batch_size: 2,
      seed: 9,
      width: 512,
      height: 512,
      send_images: true,
      save_images: false,
      override_settings: { sd_model_checkpoint: 'v1-5-pruned-emaonly' },
    });
    expect(
      Object.keys(got!.body).filter(
        (k) => k.startsWith('hr_') || k === 'enable_hr' || k.startsWith('inpaint') || k === 'mask',
      ),
    ).toEqual([]);
    expect(ctx.accepted).toBe(1);
  });

  it('uses A1111’s own default strength, 0.75, when the request has none', async () => {
    await provider.generate(img2img(), cfg, withInputs({ image: source }));
    expect(fake.received[0]!.body.denoising_strength).toBe(0.75);
  });

  it('reports progress and live previews by task id, as txt2img does', async () => {
    fake.setScenario({ kind: 'success', stepMs: 20, previewEvery: 5 });
    const ctx = withInputs({ image: source });
    await provider.generate(img2img({ steps: 30 }), cfg, ctx);
    expect(ctx.progress.some((p) => p.stage === 'sampling' && p.steps === 30 && (p.step ?? 0) > 0)).toBe(true);
    expect(ctx.partials.length).toBeGreaterThan(0);
    const polls = fake.requests
      .filter((r) => r.path === '/internal/progress')
      .map((r) => (r.json as { id_task: string }).id_task);
    expect(new Set(polls)).toEqual(new Set([fake.received[0]!.body.force_task_id]));
  });

  it('a cancel interrupts the running img2img task and ends cancelled', async () => {
    fake.setScenario({ kind: 'success', stepMs: 50 });
    const ctx = withInputs({ image: source });
    const pending = provider.generate(img2img({ steps: 100 }), cfg, ctx);
    await waitFor(() => ctx.progress.some((p) => p.stage === 'sampling' && (p.step ?? 0) > 1));
    ctx.controller.abort();
    await rejectsWith(pending, 'cancelled');
    expect(fake.interruptRequests()).toHaveLength(1);
  });

  it('a source file A1111 cannot decode ends in its "Invalid encoded image", quoted', async () => {
    const broken: SourceImage = { data: Buffer.from('not an image at all'), mime: 'image/png', width: 64, height: 48 };
    const error = await rejectsWith(provider.generate(img2img(), cfg, withInputs({ image: broken })), 'provider_error');
    expect(error.message).toMatch(/Invalid encoded image/);
    expect(error.retryable).toBe(false);
  });

  it('without the source image read, nothing is sent', async () => {
    const error = await rejectsWith(provider.generate(img2img(), cfg, recordingContext()), 'internal');
    expect(error.message).toMatch(/source image was not read/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('a1111 masked edit', () => {
  it('sends the mask bytes (white = repaint) with the inpaint settings', async () => {
    const mask = await grayMask(64, 48, (x) => x >= 32);
    await provider.generate(
      img2img({ mask: { imageId: 'img_mask' }, inputImage: { imageId: 'img_src', strength: 0.9 } }),
      cfg,
      withInputs({ image: source, mask }),
    );
    const [got] = fake.received;
    expect(got!.images[0]!.equals(source.data)).toBe(true);
    expect(got!.mask!.equals(mask.data)).toBe(true);
    expect(got!.body).toMatchObject({
      denoising_strength: 0.9,
      inpainting_fill: 1,
      inpaint_full_res: true,
      mask_blur: 4,
      inpainting_mask_invert: 0,
    });
  });

  it('without the mask read, nothing is sent', async () => {
    const error = await rejectsWith(
      provider.generate(img2img({ mask: { imageId: 'img_mask' } }), cfg, withInputs({ image: source })),
      'internal',
    );
    expect(error.message).toMatch(/mask was not read/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('a1111 upscale', () => {
  it('sends the source bytes to extra-single-image with the factor and the best listed upscaler', async () => {
    const listed = await provider.test(cfg, new AbortController().signal);
    expect(listed.upscalers).toEqual([
      'None',
      'Lanczos',
      'Nearest',
      'ESRGAN_4x',
      'R-ESRGAN 4x+ Anime6B',
      'R-ESRGAN 4x+',
    ]);
    const ctx = withInputs({ image: source });
    const out = await provider.generate(upscale(4), { ...cfg, upscalers: listed.upscalers! }, ctx);
    const [got] = fake.received;
    expect(got!.route).toBe('extra-single-image');
    expect(got!.images[0]!.equals(source.data)).toBe(true);
    expect(got!.body).toMatchObject({ resize_mode: 0, upscaling_resize: 4, upscaler_1: 'R-ESRGAN 4x+' });
    expect(out.images).toHaveLength(1);
    expect(out.images[0]).toMatchObject({ mime: 'image/png', width: 256, height: 192 });
    expect(out.info).toMatchObject({ upscaler: 'R-ESRGAN 4x+', factor: 4 });
    expect(ctx.accepted).toBe(1);
  });

  it('sends the upscaler the person named; Lanczos when the server list is unknown', async () => {
    await provider.generate(
      upscale(2, 'ESRGAN_4x'),
      { ...cfg, upscalers: ['Lanczos', 'ESRGAN_4x'] },
      withInputs({ image: source }),
    );
    await provider.generate(upscale(2), cfg, withInputs({ image: source }));
    expect(fake.received.map((r) => r.body.upscaler_1)).toEqual(['ESRGAN_4x', 'Lanczos']);
    expect(fake.received.map((r) => r.body.upscaling_resize)).toEqual([2, 2]);
  });

  it('the choice prefers a Real-ESRGAN photo model, then any ESRGAN, else Lanczos, whatever the order', () => {
    const others = fc.array(fc.constantFrom('None', 'Nearest', 'LDSR', 'ScuNET', 'SwinIR 4x', 'Lanczos'), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(
        others,
        fc.subarray(['R-ESRGAN 4x+', 'R-ESRGAN 4x+ Anime6B', 'ESRGAN_4x']),
        fc.nat(),
        (rest, esrgan, seed) => {
          const names = [...rest, ...esrgan];
          const shuffled = names
            .map((n, i) => ({ n, k: (seed * 31 + i * 17) % 97 }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.n);
          const expected = esrgan.includes('R-ESRGAN 4x+')
            ? 'R-ESRGAN 4x+'
            : esrgan.includes('R-ESRGAN 4x+ Anime6B')
              ? 'R-ESRGAN 4x+ Anime6B'
              : esrgan.includes('ESRGAN_4x')
                ? 'ESRGAN_4x'
                : 'Lanczos';
          expect(chooseUpscaler(shuffled)).toBe(expected);
        },
      ),
    );
  });

  it('accepts the size A1111 rounds down to a multiple of 8, and reports it', async () => {
    const out = await provider.generate(upscale(2), cfg, withInputs({ image: sourcePng(30, 21) }));
    expect(out.images[0]).toMatchObject({ width: 56, height: 40 });
  });

  it('an answer that is not an image is a clear provider_error', async () => {
    fake.setUpscaleScenario({ kind: 'not_image' });
    const error = await rejectsWith(
      provider.generate(upscale(2), cfg, withInputs({ image: source })),
      'provider_error',
    );
    expect(error.message).toBe('A1111 sent an upscaled image that is not a PNG, JPEG, WebP or GIF image.');
  });

  it('an image of the wrong size is a clear provider_error naming both sizes', async () => {
    fake.setUpscaleScenario({ kind: 'wrong_size' });
    const error = await rejectsWith(
      provider.generate(upscale(2), cfg, withInputs({ image: source })),
      'provider_error',
    );
    expect(error.message).toBe('A1111 sent an upscaled image of 64x48, not the 128x96 asked for.');
    expect(error.details).toMatchObject({ received: { width: 64, height: 48 }, expected: { width: 128, height: 96 } });
  });

  it('a server that echoes the credentials in its upscale error never gets them into the error', async () => {
    await fake.close();
    fake = await startFakeA1111({ auth: { username: 'artist', password: 'hunter2-secret' }, echoCredentials: true });
    fake.setUpscaleScenario({
      kind: 'error',
      status: 500,
      body: { error: 'RuntimeError', detail: 'upscaler failed', body: '', errors: 'upscaler failed' },
    });
    const error = await rejectsWith(
      guarded.generate(
        upscale(2),
        { ...cfg, baseUrl: fake.url, username: 'artist', password: 'hunter2-secret' },
        withInputs({ image: source }),
      ),
      'provider_error',
    );
    expect(error.message).toMatch(/upscaler failed/);
    expect(visible(error)).not.toContain('hunter2-secret');
    expect(visible(error)).not.toContain(Buffer.from('artist:hunter2-secret').toString('base64'));
  });

  it('a server error while upscaling is a provider_error quoting A1111', async () => {
    fake.setUpscaleScenario({
      kind: 'error',
      status: 500,
      body: { error: 'RuntimeError', detail: '', body: '', errors: 'upscaler model missing' },
    });
    const error = await rejectsWith(
      provider.generate(upscale(2), cfg, withInputs({ image: source })),
      'provider_error',
    );
    expect(error.message).toMatch(/RuntimeError/);
  });
});

describe('a1111 fake: img2img and upscale as A1111 answers them', () => {
  const post = (path: string, body: unknown) =>
    fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('img2img without init_images is 404 "Init image not found"; bad base64 is 500 "Invalid encoded image"', async () => {
    const missing = await post('/sdapi/v1/img2img', { prompt: 'x' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ detail: 'Init image not found' });
    const bad = await post('/sdapi/v1/img2img', { prompt: 'x', init_images: ['iVBOR%%%'] });
    expect(bad.status).toBe(500);
    expect(await bad.json()).toMatchObject({ detail: 'Invalid encoded image' });
    const badUpscale = await post('/sdapi/v1/extra-single-image', { image: 'not base64!' });
    expect(badUpscale.status).toBe(500);
    expect(fake.received).toHaveLength(0);
  });

  it('accepts a data: URI and records the bytes it decoded', async () => {
    const ok = await post('/sdapi/v1/img2img', {
      prompt: 'x',
      steps: 1,
      init_images: [`data:image/png;base64,${Buffer.from(source.data).toString('base64')}`],
    });
    expect(ok.status).toBe(200);
    expect(fake.received[0]!.images[0]!.equals(source.data)).toBe(true);
  });
});

describe('a1111 upscale: a server that never answers', () => {
  it('times out, not retryable, without a crash', async () => {
    fake.setUpscaleScenario({ kind: 'hang' });
    const error = await rejectsWith(
      provider.generate(upscale(2), { ...cfg, timeoutMs: 300 }, withInputs({ image: source })),
      'timeout',
    );
    expect(error.retryable).toBe(false);
  });
});

describe('a1111 capabilities and validate', () => {
  it('rejects a mask without its image before any request', async () => {
    const req = request({ width: 512, height: 512, mask: { imageId: 'img_mask' } });
    expect(() => provider.validate(req, cfg)).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: 'A mask needs the image it paints over: add inputImage.',
        details: { field: 'mask' },
      }),
    );
    await rejectsWith(provider.generate(req, cfg, withInputs({ image: source })), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('every operation is supported; the upscalers listed are the server’s (without None)', () => {
    const ops = provider.capabilities({ ...cfg, upscalers: ['None', 'Lanczos', 'R-ESRGAN 4x+'] }).operations;
    expect(ops).toEqual({
      img2img: { supported: true },
      inpaint: { supported: true },
      upscale: { supported: true, upscalers: ['Lanczos', 'R-ESRGAN 4x+'] },
    });
    expect(provider.capabilities(cfg).operations.upscale.upscalers).toBeUndefined();
  });

  it.each([
    [
      'an upscaler the server does not have',
      upscale(2, 'SwinIR 4x'),
      /no upscaler called "SwinIR 4x".*Lanczos, R-ESRGAN 4x\+/,
    ],
    ['"None" as the upscaler', upscale(2, 'None'), /"None" does not upscale/],
  ])('rejects %s before any request, under the upscale field', async (_label, req, message) => {
    const listedCfg = { ...cfg, upscalers: ['None', 'Lanczos', 'R-ESRGAN 4x+'] };
    expect(() => provider.validate(req, listedCfg)).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: expect.stringMatching(message),
        details: { field: 'upscale' },
      }),
    );
    await rejectsWith(provider.generate(req, listedCfg, withInputs({ image: source })), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('an upscale is not held to the generation size limits (its size is the source’s times the factor)', () => {
    expect(() =>
      provider.validate(request({ width: 4096, height: 4096, upscale: { imageId: 'img_src', factor: 2 } }), cfg),
    ).not.toThrow();
  });
});
