import { randomInt } from 'node:crypto';
import sharp from 'sharp';
import type { GenerateRequest, ProviderTestResult } from '../../../shared/contract.js';
import { offsetSeed } from '../../../shared/seed.js';
import { AppError } from '../../../shared/errors.js';
import type { GeneratedImage, Provider, ProviderContext, ProviderOutput } from '../types.js';
import {
  BUILTIN_CAPABILITIES,
  BUILTIN_MODEL,
  DEFAULT_STEPS,
  DEFAULT_STRENGTH,
  builtinOperation,
  validateBuiltinRequest,
} from './capabilities.js';
import { buildScene, type Scene } from './scene.js';
import { type DecodedSource, decodeSource, sourceAt } from './source.js';
import { upscaleImage } from './upscale.js';
import { cancelledError, type RenderBase, RenderPool, type RenderPoolOptions } from './worker-pool.js';

export interface BuiltinProvider extends Provider {
  /** Terminates the render workers; the engine calls this on quit. Pending renders reject with `cancelled`. */
  close(): Promise<void>;
}

export type BuiltinProviderOptions = RenderPoolOptions & {
  /** Seed for requests without one (tests); defaults to a random 32-bit seed, reported in the output. */
  randomSeed?: () => number;
};

/** With no partialImages in the request, show all three: previews are cheap here and make the wait visible. */
const DEFAULT_PARTIAL_IMAGES = BUILTIN_CAPABILITIES.maxPartialImages;

/**
 * Preview sizes, coarse to fine: 1/8, 1/4, 1/2 of the image, each capped (64, 128, 256 px long edge) so
 * previews stay cheap even at 2048².
 */
export function previewSizes(width: number, height: number, count: number): Array<{ width: number; height: number }> {
  const all = [0, 1, 2].map((i) => {
    const scale = Math.min(2 ** i / 8, (64 * 2 ** i) / Math.max(width, height));
    return { width: Math.max(8, Math.round(width * scale)), height: Math.max(8, Math.round(height * scale)) };
  });
  return all.slice(3 - count);
}

async function encodePng(pixels: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  // Fixed encoder settings: the same pixels always give the same bytes.
  const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

export function createBuiltinProvider(options: BuiltinProviderOptions = {}): BuiltinProvider {
  const pool = new RenderPool(options);
  const randomSeed = options.randomSeed ?? (() => randomInt(0, 2 ** 32));

  /** Upscale: no scene, no seed; sharp does the work on its own threads. */
  async function upscale(request: GenerateRequest, context: ProviderContext): Promise<ProviderOutput> {
    const image = context.inputs?.image;
    if (image === undefined)
      throw new AppError('internal', 'The image to upscale was not read, so the built-in generator did not start.', {
        retryable: false,
      });
    context.onAccepted();
    context.onProgress({ stage: 'upscaling', fraction: 0 });
    const factor = request.upscale!.factor;
    const out = await upscaleImage(image, factor);
    if (context.signal.aborted) throw cancelledError();
    context.trace(
      'render',
      `Upscaled ${out.width! / factor}×${out.height! / factor} to ${out.width}×${out.height} with Lanczos.`,
      { factor },
    );
    context.onProgress({ stage: 'done', fraction: 1 });
    return { images: [out], info: { model: BUILTIN_MODEL, upscaler: 'lanczos', factor } };
  }

  async function generate(request: GenerateRequest, context: ProviderContext): Promise<ProviderOutput> {
    validateBuiltinRequest(request);
    if (context.signal.aborted) throw cancelledError();
    const op = builtinOperation(request);
    if (op === 'upscale') return upscale(request, context);
    const fromImage = op === 'img2img' || op === 'inpaint';
    const source: DecodedSource | undefined = fromImage
      ? await decodeSource(context.inputs, op === 'inpaint', BUILTIN_CAPABILITIES.sizes.max)
      : undefined;
    if (context.signal.aborted) throw cancelledError();
    context.onAccepted();
    if (source?.scaledFrom !== undefined) {
      context.trace(
        'warning',
        `The ${source.scaledFrom.width}×${source.scaledFrom.height} source was scaled to ${source.width}×${source.height}, the largest the built-in generator renders.`,
      );
    }
    const strength = request.inputImage?.strength ?? DEFAULT_STRENGTH;
    // From an image, the result has the source's size.
    const width = source?.width ?? request.width;
    const height = source?.height ?? request.height;
    const seed = request.seed ?? randomSeed();
    const steps = request.steps ?? DEFAULT_STEPS;
    const previews = previewSizes(width, height, request.partialImages ?? DEFAULT_PARTIAL_IMAGES);
    const fullPixels = width * height;
    const total = previews.reduce((sum, p) => sum + p.width * p.height, 0) + fullPixels * request.count;
    let done = 0;
    const started = Date.now();

    const report = (stage: string, extra: number) => {
      const fraction = Math.min(1, (done + extra) / total);
      const elapsed = Date.now() - started;
      context.onProgress({
        stage,
        fraction,
        step: Math.min(steps, Math.floor(fraction * steps)),
        steps,
        ...(fraction > 0.02 ? { etaMs: Math.round((elapsed / fraction) * (1 - fraction)) } : {}),
      });
    };

    const baseOf = async (w: number, h: number): Promise<RenderBase | undefined> => {
      if (source === undefined) return undefined;
      const at = w === source.width && h === source.height ? source : await sourceAt(source, w, h);
      return { pixels: at.pixels, strength, ...(at.mask === undefined ? {} : { mask: at.mask }) };
    };

    const renderAt = async (scene: Scene, width: number, height: number, stage: string): Promise<Uint8Array> => {
      const base = await baseOf(width, height);
      const pixels = await pool.render(
        { width, height, scene, ...(base === undefined ? {} : { base }) },
        { signal: context.signal, onRows: (rows) => report(stage, rows * width) },
      );
      done += width * height;
      return pixels;
    };

    report('rendering', 0);
    const images: GeneratedImage[] = [];
    for (let index = 0; index < request.count; index += 1) {
      const imageSeed = offsetSeed(seed, index);
      const scene = buildScene({
        prompt: request.prompt,
        seed: imageSeed,
        steps,
        ...(request.negativePrompt !== undefined ? { negativePrompt: request.negativePrompt } : {}),
        ...(request.guidance !== undefined ? { guidance: request.guidance } : {}),
      });
      if (index === 0) {
        for (const size of previews) {
          const pixels = await renderAt(scene, size.width, size.height, 'rendering');
          const data = await encodePng(pixels, size.width, size.height);
          if (context.signal.aborted) throw cancelledError();
          context.onPartialImage({ data, mime: 'image/png', width: size.width, height: size.height });
        }
      }
      const renderStarted = Date.now();
      const pixels = await renderAt(scene, width, height, 'rendering');
      const data = await encodePng(pixels, width, height);
      if (context.signal.aborted) throw cancelledError();
      context.trace('render', `Rendered image ${index + 1} of ${request.count} (seed ${imageSeed}).`, {
        seed: imageSeed,
        ms: Date.now() - renderStarted,
      });
      images.push({ data, mime: 'image/png', width, height, seed: imageSeed });
    }
    report('done', 0);
    return { images, seed, info: { model: BUILTIN_MODEL, steps, ...(fromImage ? { strength } : {}) } };
  }

  return {
    id: 'builtin',
    name: 'Built-in (offline)',
    capabilities: () => BUILTIN_CAPABILITIES,
    knownModels: () => [BUILTIN_MODEL],
    isConfigured: () => true,
    validate: (request) => validateBuiltinRequest(request),
    generate: (request, _config, context) => generate(request, context),
    async test(): Promise<ProviderTestResult> {
      return {
        ok: true,
        reachable: true,
        models: [BUILTIN_MODEL],
        latencyMs: 0,
        message: 'The built-in generator is ready: it works offline.',
      };
    },
    close: () => pool.close(),
  };
}
