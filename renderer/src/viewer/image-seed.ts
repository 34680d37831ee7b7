import type { ImageSummary } from '../../../shared/contract';
import { formatSeed, type Seed } from '../../../shared/seed';

/** What the seed is read from: a job's images, and its request and result once its detail is loaded. */
export interface SeedSource {
  images: ImageSummary[];
  request?: { seed?: Seed | undefined } | undefined;
  result?: { seed?: Seed | undefined } | undefined;
}

export interface ImageSeed {
  seed: Seed;
  /** Set when the batch shares the seed (ComfyUI): the image comes back at this place with the same count. */
  batchIndex?: number;
}

/**
 * The seed of the image on screen: its own where the provider said, else the job's when that is the same thing (one
 * image, or no image yet). For a batch whose images have no seed of their own, the job's seed is the batch's.
 */
export function seedOfImage(job: SeedSource, imageId: string | undefined): ImageSeed | undefined {
  const image = job.images.find((i) => i.id === imageId);
  if (image?.seed !== undefined)
    return image.batchIndex === undefined ? { seed: image.seed } : { seed: image.seed, batchIndex: image.batchIndex };
  const jobSeed = job.result?.seed ?? job.request?.seed;
  if (jobSeed === undefined) return undefined;
  if (image === undefined || job.images.length <= 1) return { seed: jobSeed };
  return { seed: jobSeed, batchIndex: image.index };
}

/** "424244", or "777 (shared by the batch: image 3 of 3)"; every digit of a 64-bit seed. */
export function describeSeed(seed: ImageSeed | undefined, count: number): string | undefined {
  if (seed === undefined) return undefined;
  if (seed.batchIndex === undefined) return formatSeed(seed.seed);
  return `${formatSeed(seed.seed)} (shared by the batch: image ${seed.batchIndex + 1} of ${count})`;
}
