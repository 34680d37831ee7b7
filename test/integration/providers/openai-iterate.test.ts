import fc from 'fast-check';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildMultipart } from '../../../electron/providers/http/multipart.js';
import { openAIMask } from '../../../electron/providers/openai/edits.js';
import { createOpenAIProvider } from '../../../electron/providers/openai/index.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig, SourceImage } from '../../../electron/providers/types.js';
import { parseMultipart } from '../../fakes/multipart.js';
import { type FakeOpenAI, openAIErrors, startFakeOpenAI } from '../../fakes/openai.js';
import { config, grayMask, recordingContext, rejectsWith, request, sourcePng, visible } from './helpers.js';

const KEY = 'sk-test-fake-key-0123456789';
const provider = createOpenAIProvider();
/** As the engine holds it: behind the redacting boundary, which also hands the inputs through. */
const guarded = redactingProvider(provider);
let fake: FakeOpenAI;
let cfg: ProviderConfig;
let source: SourceImage;
const edit = (overrides: Parameters<typeof request>[0] = {}) =>
  request({ inputImage: { imageId: 'img_src' }, ...overrides });
const withInputs = (inputs: { image?: SourceImage; mask?: SourceImage }) =>
  Object.assign(recordingContext(), { inputs });

/** Each pixel's alpha of a PNG, row by row. */
async function alphaOf(png: Buffer): Promise<{ alpha: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alpha = Buffer.alloc(info.width * info.height);
  for (let i = 0; i < alpha.length; i += 1) alpha[i] = data[i * info.channels + 3]!;
  return { alpha, width: info.width, height: info.height };
}

beforeEach(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY, model: 'gpt-image-1' });
  source = sourcePng(40, 30);
});
afterEach(async () => {
  await fake.close();
});

describe('openai image-to-image (/v1/images/edits)', () => {
  it('sends a multipart form: the source bytes in image[], every scalar as a string part', async () => {
    const ctx = withInputs({ image: source });
    const out = await provider.generate(edit({ count: 2, quality: 'high', outputFormat: 'png' }), cfg, ctx);
    expect(out.images).toHaveLength(2);
    expect(fake.generationRequests()).toHaveLength(0);
    const [got] = fake.edits;
    expect(got!.images).toHaveLength(1);
    expect(got!.images[0]).toMatchObject({ name: 'image[]', filename: 'image.png', contentType: 'image/png' });
    expect(got!.images[0]!.data.equals(source.data)).toBe(true);
    expect(got!.mask).toBeUndefined();
    expect(got!.fields).toEqual({
      model: 'gpt-image-1',
      prompt: 'a red fox in snow',
      n: '2',
      size: '1024x1024',
      quality: 'high',
      output_format: 'png',
    });
    const sent = fake.requests.find((r) => r.path === '/v1/images/edits')!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(ctx.accepted).toBe(1);
  });

  it('a JPEG source goes as its own bytes, named as a JPEG', async () => {
    const jpeg = await sharp(source.data).jpeg().toBuffer();
    await provider.generate(edit(), cfg, withInputs({ image: { ...source, data: jpeg, mime: 'image/jpeg' } }));
    expect(fake.edits[0]!.images[0]).toMatchObject({ filename: 'image.jpg', contentType: 'image/jpeg' });
    expect(fake.edits[0]!.images[0]!.data.equals(jpeg)).toBe(true);
  });

  it('streams image_edit partials when previews are asked for', async () => {
    const ctx = withInputs({ image: source });
    const out = await provider.generate(edit({ partialImages: 2 }), cfg, ctx);
    expect(fake.edits[0]!.fields).toMatchObject({ stream: 'true', partial_images: '2' });
    expect(ctx.partials).toHaveLength(2);
    expect(out.images).toHaveLength(1);
    expect(ctx.traces.some((t) => t.kind === 'stream')).toBe(false);
  });

  it('names the strength it could not send, never dropping it silently', async () => {
    const ctx = withInputs({ image: source });
    await provider.generate(edit({ inputImage: { imageId: 'img_src', strength: 0.3 } }), cfg, ctx);
    expect(
      ctx.traces.some((t) => t.kind === 'warning' && /no strength setting: 0.3 was not sent/.test(t.message)),
    ).toBe(true);
    expect(Object.keys(fake.edits[0]!.fields)).not.toContain('strength');
  });

  it('an edit refused by a server that echoes the key keeps the key out of the error', async () => {
    await fake.close();
    fake = await startFakeOpenAI({ apiKey: KEY, echoCredentials: true, scenario: openAIErrors.badValue('image') });
    const error = await rejectsWith(
      guarded.generate(edit(), { ...cfg, baseUrl: fake.url }, withInputs({ image: source })),
      'provider_rejected',
    );
    expect(error.message).toMatch(/rejected the value of "image/);
    expect(visible(error)).not.toContain(KEY);
  });

  it('without the source image read, nothing is sent', async () => {
    await rejectsWith(provider.generate(edit(), cfg, recordingContext()), 'internal');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('openai masked edit', () => {
  it('sends a mask PNG transparent exactly where the gray mask is white, at the image size', async () => {
    const painted = (x: number, y: number) => x >= 10 && x < 25 && y >= 5 && y < 20;
    const mask = await grayMask(40, 30, painted);
    await provider.generate(edit({ mask: { imageId: 'img_mask' } }), cfg, withInputs({ image: source, mask }));
    const [got] = fake.edits;
    expect(got!.images[0]!.data.equals(source.data)).toBe(true);
    expect(got!.mask).toMatchObject({ name: 'mask', contentType: 'image/png' });
    const { alpha, width, height } = await alphaOf(got!.mask!.data);
    expect([width, height]).toEqual([40, 30]);
    for (let y = 0; y < 30; y += 1)
      for (let x = 0; x < 40; x += 1) expect(alpha[y * 40 + x]).toBe(painted(x, y) ? 0 : 255);
  });

  it('alpha is 255 minus gray for any gray value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 12, maxLength: 12 }), async (grays) => {
        const mask = {
          data: await sharp(Buffer.from(grays), { raw: { width: 4, height: 3, channels: 1 } })
            .png()
            .toBuffer(),
          mime: 'image/png',
          width: 4,
          height: 3,
        };
        const { alpha } = await alphaOf(await openAIMask(mask, sourcePng(4, 3)));
        expect([...alpha]).toEqual([...grays].map((g) => 255 - g));
      }),
      { numRuns: 40 },
    );
  });

  it('DALL·E 2 takes a masked edit of a square PNG under the plain image name, asking for b64_json', async () => {
    const square = sourcePng(32, 32);
    const mask = await grayMask(32, 32, (x) => x < 16);
    await provider.generate(
      edit({ model: 'dall-e-2', width: 512, height: 512, mask: { imageId: 'img_mask' } }),
      cfg,
      withInputs({ image: square, mask }),
    );
    const [got] = fake.edits;
    expect(got!.images[0]!.name).toBe('image');
    expect(got!.images[0]!.data.equals(square.data)).toBe(true);
    expect(got!.fields).toMatchObject({ model: 'dall-e-2', size: '512x512', response_format: 'b64_json' });
  });

  it('a mask file that is not an image is named as such, before sending', async () => {
    const broken: SourceImage = { data: Buffer.from('not a png'), mime: 'image/png', width: 40, height: 30 };
    const error = await rejectsWith(
      provider.generate(edit({ mask: { imageId: 'img_mask' } }), cfg, withInputs({ image: source, mask: broken })),
      'invalid_request',
    );
    expect(error.message).toBe('The mask could not be read as an image, so nothing was sent to OpenAI.');
    expect(error.details).toMatchObject({ field: 'mask', phase: 'before_accept' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a mask of another size than its image is refused before sending', async () => {
    const mask = await grayMask(20, 30, () => true);
    const error = await rejectsWith(
      provider.generate(edit({ mask: { imageId: 'img_mask' } }), cfg, withInputs({ image: source, mask })),
      'invalid_request',
    );
    expect(error.message).toMatch(/mask is 20x30 but its image is 40x30/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('openai capabilities and validate', () => {
  it('rejects a mask without its image before any request', async () => {
    const req = request({ mask: { imageId: 'img_mask' } });
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

  it('tells per model what it can do from an image, and why not', () => {
    const ops = (model: string) => provider.capabilities({ ...cfg, model }).operations;
    expect(ops('gpt-image-1')).toMatchObject({
      img2img: { supported: true },
      inpaint: { supported: true },
      upscale: { supported: false },
    });
    expect(ops('gpt-image-2')).toMatchObject({ img2img: { supported: true }, inpaint: { supported: true } });
    expect(ops('dall-e-2')).toMatchObject({
      img2img: { supported: false, reason: expect.stringMatching(/only where a mask says/) },
      inpaint: { supported: true },
    });
    expect(ops('dall-e-3')).toMatchObject({
      img2img: { supported: false, reason: expect.stringMatching(/cannot take an image/) },
      inpaint: { supported: false },
    });
    expect(ops('gpt-image-1').upscale.reason).toBe(
      'OpenAI cannot upscale: its image API only makes and edits images. Upscale with AUTOMATIC1111, ComfyUI or the built-in provider.',
    );
  });

  it.each([
    ['an upscale', request({ upscale: { imageId: 'img_src', factor: 2 } }), 'gpt-image-1', 'upscale', /cannot upscale/],
    [
      'image-to-image on DALL·E 3',
      edit({ width: 1024, height: 1024 }),
      'dall-e-3',
      'inputImage',
      /DALL·E 3 makes images from text only/,
    ],
    [
      'a masked edit on DALL·E 3',
      edit({ mask: { imageId: 'img_mask' } }),
      'dall-e-3',
      'inputImage',
      /cannot take an image/,
    ],
    [
      'image-to-image without a mask on DALL·E 2',
      edit({ width: 512, height: 512 }),
      'dall-e-2',
      'inputImage',
      /only where a mask says/,
    ],
  ])('rejects %s with its reason, before any request', async (_label, req, model, field, message) => {
    const modelCfg = { ...cfg, model };
    expect(() => provider.validate(req, modelCfg)).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(message), details: { field } }),
    );
    await rejectsWith(provider.generate(req, modelCfg, withInputs({ image: source })), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('DALL·E 2 refuses a source that is not square, before sending', async () => {
    const mask = await grayMask(40, 30, () => true);
    const error = await rejectsWith(
      provider.generate(
        edit({ model: 'dall-e-2', width: 512, height: 512, mask: { imageId: 'img_mask' } }),
        cfg,
        withInputs({ image: source, mask }),
      ),
      'invalid_request',
    );
    expect(error.message).toMatch(/square images only; this one is 40x30/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('openai fake: edits form', () => {
  it('accepts image as well as image[], and answers a form without an image with OpenAI’s 400', async () => {
    const post = (form: FormData) =>
      fetch(`${fake.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('image', new Blob([source.data], { type: 'image/png' }), 'a.png');
    expect((await post(form)).status).toBe(200);
    expect(fake.edits[0]!.images[0]!.data.equals(source.data)).toBe(true);
    const none = new FormData();
    none.append('prompt', 'x');
    const refused = await post(none);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { param: 'image', code: 'missing_required_parameter' } });
  });

  it('streams edits as image_edit.* events and refuses a count that is not a decimal string', async () => {
    const post = (form: FormData) =>
      fetch(`${fake.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    const form = new FormData();
    form.append('prompt', 'x');
    form.append('stream', 'true');
    form.append('partial_images', '1');
    form.append('image[]', new Blob([source.data], { type: 'image/png' }), 'a.png');
    const text = await (await post(form)).text();
    expect(text.match(/^event: .*$/gm)).toEqual(['event: image_edit.partial_image', 'event: image_edit.completed']);
    const badCount = new FormData();
    badCount.append('prompt', 'x');
    badCount.append('n', '2.0');
    badCount.append('image[]', new Blob([source.data], { type: 'image/png' }), 'a.png');
    const refused = await post(badCount);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { param: 'n' } });
  });
});

describe('multipart builder', () => {
  it('round-trips any text fields and binary files; quotes and line breaks cannot break out of a header', () => {
    const field = fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), value: fc.string({ maxLength: 40 }) });
    const file = fc.record({
      name: fc.string({ minLength: 1, maxLength: 12 }),
      filename: fc.string({ minLength: 1, maxLength: 12 }),
      data: fc.uint8Array({ maxLength: 200 }),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(field, file), { maxLength: 6 }), (parts) => {
        const built = buildMultipart(parts.map((p) => ('data' in p ? { ...p, contentType: 'image/png' } : p)));
        const parsed = parseMultipart(built.contentType, built.bytes)!;
        const encode = (t: string) => t.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
        expect(parsed.map((p) => p.name)).toEqual(parts.map((p) => encode(p.name)));
        parts.forEach((p, i) => {
          if ('data' in p) expect(parsed[i]!.data.equals(Buffer.from(p.data))).toBe(true);
          else expect(parsed[i]!.data.toString('utf8')).toBe(p.value);
        });
      }),
    );
  });
});
