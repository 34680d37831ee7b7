import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { AppError } from '../../../shared/errors.js';
import { createBuiltinProvider, type BuiltinProvider } from '../../../electron/providers/builtin/index.js';
import { config, recordingContext, request } from './builtin-helpers.js';

let provider: BuiltinProvider;
beforeAll(() => {
  provider = createBuiltinProvider();
});
afterAll(async () => {
  await provider.close();
});

async function generate(overrides: Parameters<typeof request>[0] = {}) {
  const rec = recordingContext();
  const output = await provider.generate(request(overrides), config, rec.context);
  return { output, rec };
}

async function raw(data: Uint8Array): Promise<Buffer> {
  return sharp(data).raw().toBuffer();
}

async function channelMeans(data: Uint8Array): Promise<{ r: number; g: number; b: number }> {
  const stats = await sharp(data).stats();
  return { r: stats.channels[0]!.mean, g: stats.channels[1]!.mean, b: stats.channels[2]!.mean };
}

describe('builtin provider: identity and setup', () => {
  it('needs no setup and answers test() at once', async () => {
    expect(provider.id).toBe('builtin');
    expect(provider.name).toBe('Built-in (offline)');
    expect(provider.isConfigured(config)).toBe(true);
    expect(provider.knownModels(config)).toEqual(['atelier-builtin-1']);
    const caps = provider.capabilities(config);
    expect(caps).toMatchObject({
      maxCount: 10,
      seed: true,
      negativePrompt: true,
      maxPartialImages: 3,
      outputFormats: ['png'],
    });
    expect(caps.sizes).toMatchObject({ min: 64, max: 2048, multipleOf: 8 });
    const result = await provider.test(config, new AbortController().signal);
    expect(result).toMatchObject({ ok: true, reachable: true, models: ['atelier-builtin-1'] });
  });
});

describe('builtin provider: determinism', () => {
  it('gives byte-identical PNGs for the same request', async () => {
    const a = await generate({ steps: 12, guidance: 5 });
    const b = await generate({ steps: 12, guidance: 5 });
    expect(Buffer.from(a.output.images[0]!.data).equals(Buffer.from(b.output.images[0]!.data))).toBe(true);
    expect(a.output.images[0]!.mime).toBe('image/png');
  });

  it('changes the pixels with the prompt, the seed, the steps and the guidance', async () => {
    const base = await raw((await generate()).output.images[0]!.data);
    for (const change of [{ prompt: 'a green forest' }, { seed: 1235 }, { steps: 40 }, { guidance: 15 }]) {
      const other = await raw((await generate(change)).output.images[0]!.data);
      expect(other.equals(base), JSON.stringify(change)).toBe(false);
    }
  });

  it('reports a random seed when none is given, and that seed reproduces the image', async () => {
    const first = await generate({ seed: undefined });
    const seed = first.output.seed!;
    expect(Number.isInteger(seed)).toBe(true);
    expect(first.output.images[0]!.seed).toBe(seed);
    const again = await generate({ seed });
    expect(Buffer.from(again.output.images[0]!.data).equals(Buffer.from(first.output.images[0]!.data))).toBe(true);
  });

  it('makes N different images with seeds seed, seed+1, …', async () => {
    const { output } = await generate({ count: 3, seed: 99 });
    expect(output.images.map((i) => i.seed)).toEqual([99, 100, 101]);
    expect(output.seed).toBe(99);
    const hashes = new Set(output.images.map((i) => Buffer.from(i.data).toString('base64')));
    expect(hashes.size).toBe(3);
    const single = await generate({ seed: 100 });
    expect(Buffer.from(single.output.images[0]!.data).equals(Buffer.from(output.images[1]!.data))).toBe(true);
  });
});

describe('builtin provider: shaped by the prompt', () => {
  it('a red prompt is dominated by red, a blue prompt by blue', async () => {
    const red = await channelMeans((await generate({ prompt: 'red' })).output.images[0]!.data);
    const blue = await channelMeans((await generate({ prompt: 'blue' })).output.images[0]!.data);
    expect(red.r).toBeGreaterThan(red.b * 1.3);
    expect(blue.b).toBeGreaterThan(blue.r * 1.3);
  });

  it('a negative prompt removes a colour', async () => {
    const both = await channelMeans((await generate({ prompt: 'red crimson sky' })).output.images[0]!.data);
    const withoutRed = await channelMeans(
      (await generate({ prompt: 'red crimson sky', negativePrompt: 'red, crimson' })).output.images[0]!.data,
    );
    expect(both.r).toBeGreaterThan(both.b);
    expect(withoutRed.r / withoutRed.b).toBeLessThan(both.r / both.b);
  });
});

describe('builtin provider: sizes', () => {
  it.each([
    [64, 64],
    [1016, 72],
    [72, 640],
  ])('renders %ix%i exactly', async (width, height) => {
    const { output } = await generate({ width, height });
    const meta = await sharp(output.images[0]!.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height]);
    expect([output.images[0]!.width, output.images[0]!.height]).toEqual([width, height]);
  });

  it('renders 2048×2048', async () => {
    const { output } = await generate({ width: 2048, height: 2048 });
    const meta = await sharp(output.images[0]!.data).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 2048]);
  }, 60_000);

  it.each([
    [{ width: 2056 }, /up to 2048×2048/],
    [{ height: 4096 }, /up to 2048×2048/],
    [{ width: 100 }, /multiples of 8/],
    [{ outputFormat: 'jpeg' as const }, /PNG images only/],
    [{ sampler: 'Euler a' }, /no samplers/],
    [{ model: 'dall-e-3' }, /one model/],
    [{ background: 'transparent' as const }, /transparent/],
    [{ quality: 'hd' as const }, /no quality/],
  ])('rejects %j with invalid_request before any work', async (overrides, message) => {
    expect(() => provider.validate(request(overrides), config)).toThrow(message);
    const rec = recordingContext();
    const error = await provider.generate(request(overrides), config, rec.context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
    expect((error as AppError).message).toMatch(message);
    expect(rec.accepted).toBe(0);
    expect(rec.progress).toEqual([]);
  });
});

describe('builtin provider: progress and previews', () => {
  it.each([0, 1, 2, 3])('emits exactly %i coarse-to-fine previews', async (partialImages) => {
    const { rec } = await generate({ width: 512, height: 384, partialImages });
    expect(rec.partials).toHaveLength(partialImages);
    const widths: number[] = [];
    for (const p of rec.partials) {
      const meta = await sharp(p.data).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width! / meta.height!).toBeCloseTo(512 / 384, 1);
      widths.push(meta.width!);
    }
    expect([...widths].sort((a, b) => a - b)).toEqual(widths);
    expect(new Set(widths).size).toBe(widths.length);
    if (partialImages === 3) expect(widths).toEqual([64, 128, 256]);
  });

  it('shows three previews by default, smaller than the image', async () => {
    const { rec } = await generate({ width: 2048, height: 1024, partialImages: undefined });
    expect(rec.partials.map((p) => [p.width, p.height])).toEqual([
      [64, 32],
      [128, 64],
      [256, 128],
    ]);
  }, 60_000);

  it('calls onAccepted first, then reports monotonic progress with step/steps and an ETA, ending at 1', async () => {
    const { rec } = await generate({ width: 512, height: 512, count: 2, steps: 30, partialImages: 2 });
    expect(rec.accepted).toBe(1);
    expect(rec.calls[0]).toBe('accepted');
    const fractions = rec.progress.map((p) => p.fraction!);
    expect(fractions.length).toBeGreaterThan(5);
    for (let i = 1; i < fractions.length; i += 1) expect(fractions[i]!).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(fractions.at(-1)).toBe(1);
    expect(rec.progress.every((p) => p.steps === 30 && p.step! >= 0 && p.step! <= 30)).toBe(true);
    expect(rec.progress.some((p) => p.etaMs !== undefined)).toBe(true);
    // Previews arrive before the final image is done.
    expect(rec.calls.indexOf('partial')).toBeLessThan(rec.calls.lastIndexOf('progress'));
    expect(rec.traces.filter((t) => t.kind === 'render')).toHaveLength(2);
  });
});
