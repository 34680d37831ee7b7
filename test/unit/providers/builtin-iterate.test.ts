import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltinProvider, createBuiltinProvider } from '../../../electron/providers/builtin/index.js';
import type { SourceImage } from '../../../electron/providers/types.js';
import { AppError } from '../../../shared/errors.js';
import { config, recordingContext, request } from './builtin-helpers.js';

const IMAGE_ID = '0190a6e2-0000-7000-8000-000000000002';
let provider: BuiltinProvider;
let source: SourceImage;
let sourceRgb: Buffer;

beforeAll(async () => {
  provider = createBuiltinProvider({ size: 1 });
  // A real picture with structure: a text-to-image render, 100×76 (not multiples of 8, like an imported photo).
  const made = await provider.generate(
    request({ prompt: 'a blue ocean with waves under a pink sky', width: 104, height: 80, seed: 42 }),
    config,
    recordingContext().context,
  );
  const data = await sharp(made.images[0]!.data).extract({ left: 2, top: 2, width: 100, height: 76 }).png().toBuffer();
  source = { data, mime: 'image/png', width: 100, height: 76 };
  sourceRgb = await rgb(data);
});
afterAll(async () => {
  await provider.close();
});

async function rgb(data: Uint8Array): Promise<Buffer> {
  return sharp(data).removeAlpha().raw().toBuffer();
}

/** Mean absolute difference per channel value, 0..255. */
function meanDiff(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Rec. 709 luminance per pixel, rounded to a byte. */
function luminance(rgbBytes: Buffer): Buffer {
  const out = Buffer.alloc(rgbBytes.length / 3);
  for (let p = 0; p < out.length; p += 1)
    out[p] = Math.round(0.2126 * rgbBytes[p * 3]! + 0.7152 * rgbBytes[p * 3 + 1]! + 0.0722 * rgbBytes[p * 3 + 2]!);
  return out;
}

async function run(
  overrides: Parameters<typeof request>[0],
  inputs: { image?: SourceImage; mask?: SourceImage } = { image: source },
) {
  const rec = recordingContext();
  rec.context.inputs = inputs;
  const output = await provider.generate(
    request({ prompt: 'a field of red flowers', seed: 7, ...overrides }),
    config,
    rec.context,
  );
  return { output, rec };
}

const img2img = (strength: number | undefined, extra: Parameters<typeof request>[0] = {}) => ({
  inputImage: { imageId: IMAGE_ID, ...(strength === undefined ? {} : { strength }) },
  ...extra,
});

describe('builtin image-to-image', () => {
  it('is deterministic for the same request and input bytes; the seed and the input both change it', async () => {
    const a = await run(img2img(0.5));
    const b = await run(img2img(0.5));
    expect(Buffer.from(a.output.images[0]!.data).equals(Buffer.from(b.output.images[0]!.data))).toBe(true);
    const otherSeed = await run(img2img(0.5, { seed: 8 }));
    expect(Buffer.from(otherSeed.output.images[0]!.data).equals(Buffer.from(a.output.images[0]!.data))).toBe(false);
    const flipped = await sharp(source.data).flop().png().toBuffer();
    const otherInput = await run(img2img(0.5), { image: { ...source, data: flipped } });
    expect(Buffer.from(otherInput.output.images[0]!.data).equals(Buffer.from(a.output.images[0]!.data))).toBe(false);
  });

  it('keeps the source size (whatever the request width and height) and says the strength', async () => {
    const { output, rec } = await run(img2img(0.4, { width: 512, height: 512 }));
    expect(output.images.map((i) => [i.width, i.height])).toEqual([[100, 76]]);
    expect((await sharp(output.images[0]!.data).metadata()).width).toBe(100);
    expect(output.info).toMatchObject({ strength: 0.4 });
    expect(rec.accepted).toBe(1);
  });

  it('stays close to the input at low strength and moves toward its own scene at high strength', async () => {
    const at = async (strength: number) => rgb((await run(img2img(strength))).output.images[0]!.data);
    // Strength 1 is the prompt's own scene, free of the source.
    const scene = await at(1);
    const apart = meanDiff(sourceRgb, scene);
    expect(apart).toBeGreaterThan(20);
    const low = await at(0.15);
    const high = await at(0.9);
    expect(meanDiff(low, sourceRgb)).toBeLessThan(apart * 0.25);
    expect(meanDiff(high, sourceRgb)).toBeGreaterThan(apart * 0.75);
    expect(meanDiff(high, scene)).toBeLessThan(meanDiff(high, sourceRgb));
    // Light and shapes (luminance) are the last to go: kept at a middle strength, the scene's own at 1.
    const lumApart = meanDiff(luminance(scene), luminance(sourceRgb));
    expect(lumApart).toBeGreaterThan(10);
    expect(meanDiff(luminance(await at(0.4)), luminance(sourceRgb))).toBeLessThan(lumApart * 0.3);
    // No strength: 0.75.
    expect(meanDiff(await at(0.75), await rgb((await run(img2img(undefined))).output.images[0]!.data))).toBe(0);
  });

  it('makes a batch of different images from one source, each derived from it', async () => {
    const { output } = await run(img2img(0.3, { count: 3 }));
    const images = await Promise.all(output.images.map((i) => rgb(i.data)));
    expect(new Set(output.images.map((i) => Buffer.from(i.data).toString('base64'))).size).toBe(3);
    const free = await rgb((await run(img2img(1))).output.images[0]!.data);
    for (const image of images) expect(meanDiff(image, sourceRgb)).toBeLessThan(meanDiff(free, sourceRgb) * 0.4);
  });

  it('shows previews derived from the source at preview sizes', async () => {
    const { rec } = await run(img2img(0.2, { partialImages: 2 }));
    expect(rec.partials).toHaveLength(2);
    const smallest = rec.partials[0]!;
    const down = await sharp(source.data)
      .resize(smallest.width, smallest.height, { fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(meanDiff(await rgb(smallest.data), down)).toBeLessThan(20);
  });
});

describe('builtin image-to-image: cancel', () => {
  it('a cancel mid-render ends cancelled, and the worker takes the next job', async () => {
    const big = await sharp({
      create: {
        width: 1536,
        height: 1536,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const rec = recordingContext();
    rec.context.inputs = { image: { data: big, mime: 'image/png', width: 1536, height: 1536 } };
    const running = provider.generate(request({ ...img2img(0.5), seed: 3 }), config, rec.context);
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if ((rec.progress.at(-1)?.fraction ?? 0) > 0.02) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    rec.controller.abort();
    const error = await running.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('cancelled');
    expect((await run(img2img(0.5))).output.images).toHaveLength(1);
  }, 60_000);
});

describe('builtin masked edit', () => {
  it('repaints the white area and keeps every other pixel byte for byte', async () => {
    // White (repaint) on the left 40 columns, black elsewhere.
    const plane = Buffer.alloc(100 * 76);
    for (let i = 0; i < plane.length; i += 1) plane[i] = i % 100 < 40 ? 255 : 0;
    const mask: SourceImage = {
      data: await sharp(plane, { raw: { width: 100, height: 76, channels: 1 } })
        .png()
        .toBuffer(),
      mime: 'image/png',
      width: 100,
      height: 76,
    };
    const { output } = await run(img2img(1, { mask: { imageId: IMAGE_ID } }), { image: source, mask });
    const out = await rgb(output.images[0]!.data);
    let changedInside = 0;
    let changedOutside = 0;
    for (let p = 0; p < 100 * 76; p += 1) {
      const differs =
        out[p * 3] !== sourceRgb[p * 3] ||
        out[p * 3 + 1] !== sourceRgb[p * 3 + 1] ||
        out[p * 3 + 2] !== sourceRgb[p * 3 + 2];
      if (p % 100 < 40) changedInside += differs ? 1 : 0;
      else changedOutside += differs ? 1 : 0;
    }
    expect(changedOutside).toBe(0);
    expect(changedInside).toBeGreaterThan(40 * 76 * 0.8);
  });

  it('needs its mask: a job without it fails clearly instead of repainting everything', async () => {
    const error = await run(img2img(0.5, { mask: { imageId: IMAGE_ID } }), { image: source }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('internal');
  });
});

describe('builtin upscale', () => {
  it.each([2, 4] as const)('×%i is exactly source × factor, Lanczos, and deterministic', async (factor) => {
    const upscale = { upscale: { imageId: IMAGE_ID, factor } };
    const a = await run(upscale);
    const b = await run(upscale);
    const image = a.output.images[0]!;
    expect([image.width, image.height]).toEqual([100 * factor, 76 * factor]);
    const meta = await sharp(image.data).metadata();
    expect([meta.width, meta.height]).toEqual([100 * factor, 76 * factor]);
    expect(Buffer.from(image.data).equals(Buffer.from(b.output.images[0]!.data))).toBe(true);
    const lanczos = await sharp(source.data)
      .resize(100 * factor, 76 * factor, { kernel: 'lanczos3' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const got = await rgb(image.data);
    expect(meanDiff(got, lanczos)).toBe(0);
    // libvips upsizes alike with its cubic-family kernels, so what a test can tell apart is nearest and linear.
    for (const kernel of ['nearest', 'linear'] as const) {
      expect(
        meanDiff(
          got,
          await sharp(source.data)
            .resize(100 * factor, 76 * factor, { kernel })
            .removeAlpha()
            .raw()
            .toBuffer(),
        ),
      ).toBeGreaterThan(0);
    }
    expect(a.output.info).toMatchObject({ upscaler: 'lanczos', factor });
  });

  it('refuses an upscale past 8192 pixels on a side, and unreadable bytes, as invalid_request', async () => {
    const big = await sharp({ create: { width: 2100, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const error = await run(
      { upscale: { imageId: IMAGE_ID, factor: 4 } },
      { image: { data: big, mime: 'image/png', width: 2100, height: 16 } },
    ).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('invalid_request');
    expect((error as AppError).message).toMatch(/8400×64/);
    const junk = await run(img2img(0.5), {
      image: { data: Buffer.from('<html>not an image</html>'), mime: 'image/png', width: 10, height: 10 },
    }).catch((e: unknown) => e);
    expect((junk as AppError).code).toBe('invalid_request');
  });
});

describe('builtin capabilities and validation', () => {
  it('says it can do all three operations, upscaling with Lanczos', () => {
    const ops = provider.capabilities(config).operations;
    expect([ops.img2img.supported, ops.inpaint.supported, ops.upscale.supported]).toEqual([true, true, true]);
    expect(ops.upscale.upscalers).toEqual(['lanczos']);
    expect(ops.img2img.reason).toContain('0.75');
  });

  it('refuses what it cannot do before starting: another upscaler, a scheduler, conflicting parts', () => {
    const refuse = (overrides: Parameters<typeof request>[0], pattern: RegExp) => {
      let caught: unknown;
      try {
        provider.validate(request(overrides), config);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('invalid_request');
      expect((caught as AppError).message).toMatch(pattern);
    };
    refuse({ upscale: { imageId: IMAGE_ID, factor: 2, upscaler: 'R-ESRGAN 4x+' } }, /Lanczos only/);
    refuse({ scheduler: 'karras' }, /no schedulers/);
    refuse(
      { upscale: { imageId: IMAGE_ID, factor: 2 }, inputImage: { imageId: IMAGE_ID } },
      /upscale works on its own image/,
    );
    refuse({ mask: { imageId: IMAGE_ID } }, /mask needs the image/);
    // From an image the request size does not matter (an imported 1000×667 photo), from text it does.
    expect(() => provider.validate(request({ width: 1000, height: 667, ...img2img(0.5) }), config)).not.toThrow();
    refuse({ width: 1000, height: 667 }, /multiples of 8/);
  });
});
