import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { errnoOf, nodeMediaFs, type MediaFileHandle, type MediaFs } from './media-fs.js';
import { absolute, THUMBS_DIR, TMP_DIR } from './media-paths.js';
import { toStorageError } from './storage-error.js';

export interface WriteOptions {
  fs?: MediaFs;
}

/**
 * Creates `relDir` under dataDir one segment at a time. The data dir itself is never created: if it is gone
 * (an unplugged drive) this fails with ENOENT instead of quietly writing into the empty mount point.
 */
export async function ensureDir(dataDir: string, relDir: string, fs: MediaFs = nodeMediaFs): Promise<void> {
  let current = '';
  for (const segment of relDir.split('/')) {
    current = current === '' ? segment : `${current}/${segment}`;
    try {
      await fs.mkdir(absolute(dataDir, current));
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
  }
}

async function fsyncDir(fs: MediaFs, dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS makes the rename durable through its journal instead.
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(fs: MediaFs, path: string): Promise<number | undefined> {
  try {
    const stat = await fs.stat(path);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes bytes to `relPath` (relative to dataDir) so that a crash at any point leaves either no file or the whole
 * file: temp file under tmp/ → fsync → rename → fsync of the directory. A file already there with the same size
 * is kept (content-addressed callers: same name, same bytes). Returns whether a new file was written.
 * Storage failures become AppError('storage'); the temp file is removed.
 */
export async function writeFileAtomic(
  dataDir: string,
  relPath: string,
  bytes: Uint8Array,
  options: WriteOptions = {},
): Promise<{ created: boolean }> {
  const fs = options.fs ?? nodeMediaFs;
  const target = absolute(dataDir, relPath);
  if ((await sizeOf(fs, target)) === bytes.length) return { created: false };
  const tmpRel = `${TMP_DIR}/${randomBytes(8).toString('hex')}.part`;
  const tmp = absolute(dataDir, tmpRel);
  let handle: MediaFileHandle | undefined;
  let tmpCreated = false;
  try {
    await ensureDir(dataDir, TMP_DIR, fs);
    handle = await fs.open(tmp, 'wx', 0o644);
    tmpCreated = true;
    await handle.writeFile(bytes);
    await handle.sync();
    await handle.close();
    handle = undefined;
    const relDir = relPath.split('/').slice(0, -1).join('/');
    if (relDir !== '') await ensureDir(dataDir, relDir, fs);
    await fs.rename(tmp, target);
    tmpCreated = false;
    await fsyncDir(fs, dirname(target));
    return { created: true };
  } catch (error) {
    if (handle !== undefined) await handle.close().catch(() => undefined);
    if (tmpCreated) await fs.unlink(tmp).catch(() => undefined);
    throw toStorageError(
      error,
      dataDir,
      relPath.startsWith(`${THUMBS_DIR}/`) ? 'save the thumbnail' : 'save the image',
    );
  }
}
