import type { GenerateRequest } from '../../shared/contract.js';
import type { NewImage } from '../db/types.js';
import type { EncodedImage, GeneratedImage } from '../providers/types.js';
import type { Seed } from '../../shared/seed.js';

/** What the worker needs from electron/media: durable originals and throwaway previews. */
export interface JobMedia {
  /** Embeds the settings, writes original + thumbnail (temp, fsync, rename); returns the row to record. */
  storeImage(input: {
    imageId: string;
    jobId: string;
    index: number;
    image: GeneratedImage;
    request: GenerateRequest;
    seed?: Seed;
    batchIndex?: number;
    createdAt: number;
  }): Promise<NewImage>;
  /** Keeps a partial preview as a small temporary file; returns its id for `/preview/<id>`. */
  addPreview(jobId: string, image: EncodedImage): Promise<string>;
  /** Removes a job's previews once it ends. */
  clearPreviews(jobId: string): Promise<void>;
}
