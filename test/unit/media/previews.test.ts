import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { type AppError } from '../../../shared/errors.js';
import { createPreviewRegistry } from '../../../electron/media/previews.js';
import { faultFs } from './fault-fs.js';
import { makePng, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const JOB = '0190a6e2-0000-7000-8000-000000000001';

describe('partial previews', () => {
  it('stores small WebP files per job, resolvable by id, removed with the job', async () => {
    const previews = createPreviewRegistry(dir, { maxLongEdge: 256 });
    const a = await previews.addPreview(JOB, { data: await makePng(1024, 512), mime: 'image/png' });
    const b = await previews.addPreview(JOB, { data: await makePng(64, 64), mime: 'image/png' });
    expect(a).not.toBe(b);
    const fileA = previews.resolvePreview(a);
    expect(fileA).toEqual({ path: join(dir, 'previews', JOB, '0.webp'), mime: 'image/webp' });
    expect(previews.resolvePreview(b)?.path).toBe(join(dir, 'previews', JOB, '1.webp'));
    const meta = await sharp(fileA!.path).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 128]);

    await previews.clearJob(JOB);
    expect(previews.resolvePreview(a)).toBeNull();
    await expect(stat(join(dir, 'previews', JOB))).rejects.toThrow();
  });

  it('clearJob waits for a preview still being written, so nothing is left behind', async () => {
    const previews = createPreviewRegistry(dir);
    const adding = previews.addPreview(JOB, { data: await makePng(512, 512), mime: 'image/png' });
    await previews.clearJob(JOB);
    const id = await adding;
    expect(previews.resolvePreview(id)).toBeNull();
    expect(await readdir(join(dir, 'previews'))).toEqual([]);
  });

  it('rejects a job id that could escape the previews folder, and unknown ids resolve to null', async () => {
    const previews = createPreviewRegistry(dir);
    await expect(previews.addPreview('../library', { data: await makePng(), mime: 'image/png' })).rejects.toMatchObject(
      { code: 'invalid_request' },
    );
    expect(previews.resolvePreview('nope')).toBeNull();
  });

  it('reports a preview that is not an image as provider_error and a full disk as storage', async () => {
    const previews = createPreviewRegistry(dir);
    const bad = await previews
      .addPreview(JOB, { data: Uint8Array.of(1, 2, 3), mime: 'image/png' })
      .catch((e: unknown) => e);
    expect((bad as AppError).code).toBe('provider_error');
    const full = createPreviewRegistry(dir, { fs: faultFs({ op: 'write', code: 'ENOSPC' }) });
    const error = await full.addPreview(JOB, { data: await makePng(), mime: 'image/png' }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('storage');
    expect(await readdir(join(dir, 'previews', JOB))).toEqual([]);
  });
});
