import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { AppError } from '../../../shared/errors.js';
import { writeFileAtomic } from '../../../electron/media/atomic-write.js';
import { writeContentAddressed } from '../../../electron/media/content-store.js';
import { faultFs } from './fault-fs.js';
import { tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const bytes = new TextEncoder().encode('hello pixels');
const sha = createHash('sha256').update(bytes).digest('hex');

async function leftovers(): Promise<string[]> {
  return readdir(join(dir, 'tmp')).catch(() => []);
}

describe('content-addressed writes', () => {
  it('writes library/ab/cdef….png named by sha256 and returns its relative path', async () => {
    const stored = await writeContentAddressed(dir, 'library', bytes, 'png');
    expect(stored).toEqual({
      path: `library/${sha.slice(0, 2)}/${sha.slice(2)}.png`,
      sha256: sha,
      bytes: bytes.length,
    });
    expect(await readFile(join(dir, stored.path), 'utf8')).toBe('hello pixels');
    expect(await leftovers()).toEqual([]);
  });

  it('keeps an existing file with the same content instead of rewriting it', async () => {
    const first = await writeContentAddressed(dir, 'library', bytes, 'png');
    const before = await stat(join(dir, first.path));
    const again = await writeFileAtomic(dir, first.path, bytes);
    expect(again.created).toBe(false);
    expect((await stat(join(dir, first.path))).ino).toBe(before.ino);
  });

  it('replaces a truncated file left at the target path', async () => {
    const rel = `library/${sha.slice(0, 2)}/${sha.slice(2)}.png`;
    await mkdir(join(dir, 'library', sha.slice(0, 2)), { recursive: true });
    await writeFile(join(dir, rel), 'hel');
    await writeContentAddressed(dir, 'library', bytes, 'png');
    expect(await readFile(join(dir, rel), 'utf8')).toBe('hello pixels');
  });
});

describe('storage failures', () => {
  const cases: Array<{ op: 'write' | 'sync' | 'rename' | 'mkdir' | 'open'; code: string; message: RegExp }> = [
    { op: 'write', code: 'ENOSPC', message: /disk is full.*free some space/ },
    { op: 'sync', code: 'EDQUOT', message: /quota/ },
    { op: 'open', code: 'EACCES', message: /not allowed to write/ },
    { op: 'rename', code: 'EPERM', message: /not allowed to write/ },
    { op: 'mkdir', code: 'EROFS', message: /read-only/ },
    { op: 'write', code: 'EIO', message: /could not save/ },
  ];
  for (const { op, code, message } of cases) {
    it(`${code} during ${op} becomes AppError('storage') and leaves no temp file or target`, async () => {
      const fs = faultFs({ op, code });
      const error = await writeContentAddressed(dir, 'library', bytes, 'png', { fs }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).toBe('storage');
      expect(appError.retryable).toBe(false);
      expect(appError.details?.['errno']).toBe(code);
      expect(appError.message).toMatch(message);
      expect(await leftovers()).toEqual([]);
      const shard = await readdir(join(dir, 'library', sha.slice(0, 2))).catch(() => []);
      expect(shard).toEqual([]);
    });
  }

  it('a missing data dir is reported, never silently re-created', async () => {
    await rm(dir, { recursive: true });
    const error = await writeContentAddressed(dir, 'library', bytes, 'png').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('storage');
    expect((error as AppError).details?.['errno']).toBe('ENOENT');
    expect((error as AppError).message).toMatch(/library folder .* is missing/);
    await expect(stat(dir)).rejects.toThrow();
  });
});
