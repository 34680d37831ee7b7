import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { storeProviderImage, type StoreImageInput } from '../../../electron/media/store-image.js';
import { readPngMetadata } from '../../../electron/media/png/read-metadata.js';
import { faultFs } from './fault-fs.js';
import { makeJpeg, makePng, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const request: GenerateRequest = {
  provider: 'openai',
  model: 'gpt-image-1',
  prompt: 'a teal whale',
  width: 1024,
  height: 1024,
  count: 1,
};

function input(image: Uint8Array, mime: string, overrides: Partial<StoreImageInput> = {}): StoreImageInput {
  return {
    dataDir: dir,
    id: '0190a6e2-0000-7000-8000-0000000000aa',
    index: 0,
    image: { data: image, mime },
    jobId: '0190a6e2-0000-7000-8000-000000000001',
    request,
    provider: 'openai',
    model: 'gpt-image-1',
    createdAt: 1_700_000_000_000,
    appVersion: '0.1.0',
    ...overrides,
  };
}

describe('storing one provider image', () => {
  it('embeds settings, writes original and thumbnail, and returns the row to record', async () => {
    const png = await makePng(800, 600);
    const row = await storeProviderImage(input(png, 'image/png', { seed: 77 }));
    const original = await readFile(join(dir, row.path));
    expect(row).toMatchObject({
      id: input(png, '').id,
      index: 0,
      width: 800,
      height: 600,
      mime: 'image/png',
      bytes: original.length,
    });
    expect(row.sha256).toBe(createHash('sha256').update(original).digest('hex'));
    expect(row.path).toBe(`library/${row.sha256.slice(0, 2)}/${row.sha256.slice(2)}.png`);
    const meta = readPngMetadata(original);
    expect(meta.atelier).toMatchObject({
      jobId: input(png, '').jobId,
      seed: 77,
      provider: 'openai',
      model: 'gpt-image-1',
    });
    expect(meta.a1111).toMatchObject({
      prompt: 'a teal whale',
      seed: 77,
      width: 800,
      height: 600,
      model: 'gpt-image-1',
    });

    expect(row.thumbPath).toMatch(/^thumbs\/[0-9a-f]{2}\/[0-9a-f]{62}\.webp$/);
    const thumb = await sharp(join(dir, row.thumbPath!)).metadata();
    expect(thumb.format).toBe('webp');
    expect([thumb.width, thumb.height]).toEqual([384, 288]);
  });

  it('never upscales a small image for its thumbnail', async () => {
    const row = await storeProviderImage(input(await makePng(100, 64), 'image/png'));
    const thumb = await sharp(join(dir, row.thumbPath!)).metadata();
    expect([thumb.width, thumb.height]).toEqual([100, 64]);
  });

  it('converts a JPEG output to PNG so its settings are embedded too', async () => {
    const row = await storeProviderImage(input(await makeJpeg(40, 30), 'image/jpeg'));
    const original = await readFile(join(dir, row.path));
    expect((await sharp(original).metadata()).format).toBe('png');
    expect(row.mime).toBe('image/png');
    expect([row.width, row.height]).toEqual([40, 30]);
    expect(readPngMetadata(original).atelier?.request.prompt).toBe('a teal whale');
  });

  it('rejects bytes that are not an image with provider_error and writes nothing', async () => {
    const error = await storeProviderImage(input(new TextEncoder().encode('<html>oops</html>'), 'image/png')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('provider_error');
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails with storage (disk full) and leaves no partial file behind', async () => {
    const error = await storeProviderImage(
      input(await makePng(), 'image/png', { fs: faultFs({ op: 'write', code: 'ENOSPC' }) }),
    ).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('storage');
    expect((error as AppError).message).toMatch(/disk is full/);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    expect(await readdir(join(dir, 'library')).catch(() => [])).toEqual([]);
  });
});
