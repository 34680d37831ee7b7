import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { type Seed, offsetSeed } from '../../../shared/seed.js';
import type { ProviderHooks } from '../skeleton/run-job.js';
import type { GeneratedImage, ProviderContext } from '../types.js';
import { BUILTIN_CAPABILITIES, BUILTIN_MODEL, DEFAULT_STEPS, DEFAULT_STRENGTH } from './capabilities.js';
import { buildScene, type Scene } from './scene.js';
import { type DecodedSource, decodeSource, sourceAt } from './source.js';
import { cancelledError, type RenderBase, type RenderPool } from './worker-pool.js';

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

/** One render job's settings, fixed once the work is accepted, and its progress bookkeeping. */
interface Plan {
  source: DecodedSource | undefined;
  strength: number;
  width: number;
  height: number;
  seed: Seed;
  steps: number;
  previews: Array<{ width: number; height: number }>;
  report(stage: string, extra: number): void;
  /** Pixels rendered so far, previews included. */
  done: number;
}

/**
 * Generate, image-to-image and masked edit on the provider skeleton (skeleton/run-job.ts): connect decodes the
 * source, submit fixes the settings, await renders on the pool (previews first), collect shapes the output. No cancel
 * hook: renders reject with `cancelled` once the job's signal aborts, and the checks between steps do the rest.
 */
export function renderHooks(
  request: GenerateRequest,
  context: ProviderContext,
  pool: RenderPool,
  randomSeed: () => number,
  op: 'generate' | 'img2img' | 'inpaint' | 'variation',
): ProviderHooks<DecodedSource | undefined, Plan, GeneratedImage[]> {
  const fromImage = op === 'img2img' || op === 'inpaint';
  return {
    async connect() {
      const source: DecodedSource | undefined = fromImage
        ? await decodeSource(context.inputs, op === 'inpaint', BUILTIN_CAPABILITIES.sizes.max)
        : undefined;
      if (context.signal.aborted) throw cancelledError();
      return source;
    },

    async submit(source) {
      context.onAccepted();
      if (source?.scaledFrom !== undefined) {
        context.trace(
          'warning',
          `The ${source.scaledFrom.width}×${source.scaledFrom.height} source was scaled to ` +
            `${source.width}×${source.height}, the largest the built-in generator renders.`,
        );
      }
      // From an image, the result has the source's size.
      const width = source?.width ?? request.width;
      const height = source?.height ?? request.height;
      const steps = request.steps ?? DEFAULT_STEPS;
      const previews = previewSizes(width, height, request.partialImages ?? DEFAULT_PARTIAL_IMAGES);
      const total = previews.reduce((sum, p) => sum + p.width * p.height, 0) + width * height * request.count;
      const started = Date.now();
      const plan: Plan = {
        source,
        strength: request.inputImage?.strength ?? DEFAULT_STRENGTH,
        width,
        height,
        seed: request.seed ?? randomSeed(),
        steps,
        previews,
        done: 0,
        report: (stage, extra) => {
          const fraction = Math.min(1, (plan.done + extra) / total);
          const elapsed = Date.now() - started;
          context.onProgress({
            stage,
            fraction,
            step: Math.min(steps, Math.floor(fraction * steps)),
            steps,
            ...(fraction > 0.02 ? { etaMs: Math.round((elapsed / fraction) * (1 - fraction)) } : {}),
          });
        },
      };
      return plan;
    },

    await: (plan) => renderAll(request, context, pool, plan),

    async collect(images, plan) {
      plan.report('done', 0);
      const info = { model: BUILTIN_MODEL, steps: plan.steps, ...(fromImage ? { strength: plan.strength } : {}) };
      return { images, seed: plan.seed, info };
    },
  };
}

/** Every image of the request, the first one's previews (coarse to fine) shown before it. */
async function renderAll(
  request: GenerateRequest,
  context: ProviderContext,
  pool: RenderPool,
  plan: Plan,
): Promise<GeneratedImage[]> {
  const { source, width, height, steps, seed } = plan;
  const baseOf = async (w: number, h: number): Promise<RenderBase | undefined> => {
    if (source === undefined) return undefined;
    const at = w === source.width && h === source.height ? source : await sourceAt(source, w, h);
    return { pixels: at.pixels, strength: plan.strength, ...(at.mask === undefined ? {} : { mask: at.mask }) };
  };
  const renderAt = async (scene: Scene, width: number, height: number, stage: string): Promise<Uint8Array> => {
    const base = await baseOf(width, height);
    const pixels = await pool.render(
      { width, height, scene, ...(base === undefined ? {} : { base }) },
      { signal: context.signal, onRows: (rows) => plan.report(stage, rows * width) },
    );
    plan.done += width * height;
    return pixels;
  };

  plan.report('rendering', 0);
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
      for (const size of plan.previews) {
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
  return images;
}
