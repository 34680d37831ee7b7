import sharp from 'sharp';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors.js';
import type { EncodedImage } from '../providers/types.js';
import { ensureDir } from './atomic-write.js';
import { nodeMediaFs, type MediaFs } from './media-fs.js';
import { absolute, PREVIEWS_DIR } from './media-paths.js';
import { toStorageError } from './storage-error.js';

export interface PreviewFile {
  /** Absolute path of the preview file. */
  path: string;
  mime: string;
}

export interface PreviewRegistry {
  /** Stores a partial image as a small WebP under previews/<jobId>/<n>.webp; resolves to its preview id. */
  addPreview(jobId: string, image: EncodedImage): Promise<string>;
  resolvePreview(previewId: string): PreviewFile | null;
  /** Removes the job's previews (the whole folder) once it ends; waits for writes still in flight. */
  clearJob(jobId: string): Promise<void>;
}

export interface PreviewOptions {
  fs?: MediaFs;
  /** Previews are re-encoded no larger than this on their long edge. */
  maxLongEdge?: number;
}

interface JobPreviews {
  next: number;
  ids: string[];
  pending: Set<Promise<unknown>>;
}

const SAFE_JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function createPreviewRegistry(dataDir: string, options: PreviewOptions = {}): PreviewRegistry {
  const fs = options.fs ?? nodeMediaFs;
  const maxLongEdge = options.maxLongEdge ?? 512;
  const jobs = new Map<string, JobPreviews>();
  const files = new Map<string, PreviewFile & { jobId: string }>();

  async function encode(image: EncodedImage): Promise<Buffer> {
    try {
      return await sharp(image.data)
        .resize({ width: maxLongEdge, height: maxLongEdge, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
    } catch (error) {
      throw new AppError('provider_error', 'The provider sent a preview that is not a readable image.', {
        retryable: false,
        cause: error,
      });
    }
  }

  async function write(jobId: string, n: number, bytes: Buffer): Promise<string> {
    const rel = `${PREVIEWS_DIR}/${jobId}/${n}.webp`;
    try {
      await ensureDir(dataDir, `${PREVIEWS_DIR}/${jobId}`, fs);
      // Previews are throwaway: no fsync, a crash just leaves a folder the start-up orphan collection removes.
      const handle = await fs.open(absolute(dataDir, rel), 'w', 0o644);
      try {
        await handle.writeFile(bytes);
      } finally {
        await handle.close();
      }
    } catch (error) {
      await fs.unlink(absolute(dataDir, rel)).catch(() => undefined);
      throw toStorageError(error, dataDir, 'save a preview');
    }
    return absolute(dataDir, rel);
  }

  return {
    async addPreview(jobId, image) {
      if (!SAFE_JOB_ID.test(jobId)) throw new AppError('invalid_request', 'That job id cannot name a preview folder.');
      let job = jobs.get(jobId);
      if (job === undefined) {
        job = { next: 0, ids: [], pending: new Set() };
        jobs.set(jobId, job);
      }
      const n = job.next;
      job.next += 1;
      const work = encode(image).then((bytes) => write(jobId, n, bytes));
      job.pending.add(work);
      try {
        const path = await work;
        const id = randomUUID();
        if (jobs.get(jobId) === job) {
          job.ids.push(id);
          files.set(id, { path, mime: 'image/webp', jobId });
        }
        return id;
      } finally {
        job.pending.delete(work);
      }
    },
    resolvePreview(previewId) {
      const file = files.get(previewId);
      return file === undefined ? null : { path: file.path, mime: file.mime };
    },
    async clearJob(jobId) {
      if (!SAFE_JOB_ID.test(jobId)) return;
      const job = jobs.get(jobId);
      jobs.delete(jobId);
      if (job !== undefined) {
        await Promise.allSettled([...job.pending]);
        for (const id of job.ids) files.delete(id);
      }
      await fs
        .rm(absolute(dataDir, `${PREVIEWS_DIR}/${jobId}`), { recursive: true, force: true })
        .catch(() => undefined);
    },
  };
}
