import { AppError } from '../../../shared/errors.js';
import type { SourceImage } from '../types.js';

/** What an endpoint accepts as its `image` (Stability's API reference, as open-source clients mirror it). */
interface Limits {
  minSide: number;
  maxSide?: number;
  minPixels: number;
  maxPixels: number;
  /** The long side over the short side, at most. */
  maxAspect?: number;
}

const EDIT: Limits = { minSide: 64, minPixels: 4096, maxPixels: 9_437_184, maxAspect: 2.5 };
const LIMITS: Record<string, Limits> = {
  'edit/inpaint': EDIT,
  'edit/erase': EDIT,
  'generate/sd3': { minSide: 64, minPixels: 4096, maxPixels: 9_437_184, maxAspect: 2.5 },
  'generate/ultra': { minSide: 64, minPixels: 4096, maxPixels: 9_437_184, maxAspect: 2.5 },
  'upscale/fast': { minSide: 32, maxSide: 1536, minPixels: 1024, maxPixels: 1_048_576 },
  'upscale/conservative': { minSide: 64, minPixels: 4096, maxPixels: 9_437_184, maxAspect: 2.5 },
  'upscale/creative': { minSide: 64, minPixels: 4096, maxPixels: 1_048_576, maxAspect: 2.5 },
};

function megapixels(pixels: number): string {
  return `${Math.round((pixels / 1_048_576) * 10) / 10} MP`;
}

/** Refuses a source image the endpoint would refuse, before anything is sent (the message says what fits). */
export function checkSourceSize(path: string, image: SourceImage): void {
  const key = path.split('/').slice(-2).join('/');
  const limits = LIMITS[key];
  if (limits === undefined) return;
  const { width, height } = image;
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  const pixels = width * height;
  const problems: string[] = [];
  if (short < limits.minSide) problems.push(`sides of at least ${limits.minSide} pixels`);
  if (limits.maxSide !== undefined && long > limits.maxSide) problems.push(`sides of at most ${limits.maxSide} pixels`);
  if (pixels < limits.minPixels) problems.push(`at least ${limits.minPixels.toLocaleString('en-US')} pixels`);
  if (pixels > limits.maxPixels) problems.push(`at most ${megapixels(limits.maxPixels)}`);
  if (limits.maxAspect !== undefined && long / short > limits.maxAspect)
    problems.push(`an aspect ratio within 1:${limits.maxAspect} and ${limits.maxAspect}:1`);
  if (problems.length === 0) return;
  throw new AppError(
    'invalid_request',
    `Stability AI's ${key} takes images with ${problems.join(' and ')}; this one is ${width}x${height}. Nothing was ` +
      `sent.`,
    { details: { field: key.startsWith('upscale') ? 'upscale' : 'inputImage', phase: 'before_accept' } },
  );
}
