import { stat } from 'node:fs/promises';
import { dirname, extname, join, basename } from 'node:path';
import { MetadataReadFailed, type MetadataReader } from '../readers/metadata-pool.js';
import { readMetadataOffThread } from '../readers/off-thread.js';
import { sniffImage } from '../readers/sniff.js';
import type { ReadImageOptions } from '../readers/read-image.js';
import type { ImageFormat, ImageRead } from '../readers/types.js';
import { truncation } from './truncation.js';
import { RefusedRead } from '../originals/guarded-open.js';
import { MAX_ORIGINAL_BYTES } from '../originals/image-source.js';
import { readGuardedHere } from '../originals/original-reader.js';

/** Larger files are not images any of these tools write: listed, never read into memory. */
export const MAX_IMPORT_BYTES = MAX_ORIGINAL_BYTES;
const SIDECAR_MAX_BYTES = 1024 * 1024;

export type Probe =
  | {
      kind: 'image';
      bytes: Uint8Array;
      size: number;
      mtimeMs: number;
      sha256: string;
      format: ImageFormat;
      width: number;
      height: number;
      read: ImageRead;
    }
  | { kind: 'skipped' | 'failed'; reason: string };

/** The file's size and modification time, or why it cannot be looked at. */
export async function fileStat(path: string): Promise<{ size: number; mtimeMs: number } | { reason: string }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { reason: 'It is not a regular file.' };
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch (error) {
    return { reason: describeReadError(error) };
  }
}

export function describeReadError(error: unknown): string {
  if (error instanceof RefusedRead) return error.message;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return 'The file is gone (moved or deleted before it was read).';
  if (code === 'EACCES' || code === 'EPERM') return 'Atelier is not allowed to read this file.';
  if (code === 'EIO' || code === 'ENXIO' || code === 'ENODEV')
    return 'The drive could not be read (was it unplugged?).';
  return `The file could not be read${code === undefined ? '' : ` (${code})`}.`;
}

/** Reads a whole file and its SHA-256 through the guarded open: the importer's reads it on worker threads. */
export type FileReader = (path: string) => Promise<{ bytes: Uint8Array; sha256: string }>;

/** The guarded read on this thread, with the file itself as its root: it must sit exactly there, not be a link. */
export const readHere: FileReader = (path) => readGuardedHere({ path, root: path, maxBytes: MAX_IMPORT_BYTES });

/** An A1111 `.txt` beside the image, read through the same guarded open: inside the imported root, small, regular. */
export async function sidecarOf(path: string, root: string): Promise<string | undefined> {
  const sidecar = join(dirname(path), `${basename(path, extname(path))}.txt`);
  try {
    const { bytes } = await readGuardedHere({
      path: sidecar,
      root: root === path ? sidecar : root,
      maxBytes: SIDECAR_MAX_BYTES,
    });
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads one file: is it an image (by its bytes, never its name), its hash, size and every setting it carries. The
 * settings are read on a worker thread within a time limit (readers/metadata-pool.ts), never on this event loop.
 */
export async function probeFile(
  path: string,
  known?: { size: number; mtimeMs: number },
  reader: FileReader = readHere,
  root: string = path,
  metadata: MetadataReader = readMetadataOffThread,
  readOptions: ReadImageOptions = {},
): Promise<Probe> {
  const info = known ?? (await fileStat(path));
  if ('reason' in info) return { kind: 'failed', reason: info.reason };
  // An empty file (a Python package's __init__.py, a placeholder) holds no picture: nothing went wrong reading it.
  if (info.size === 0) return { kind: 'skipped', reason: 'The file is empty: there is no image in it.' };
  if (info.size > MAX_IMPORT_BYTES)
    return { kind: 'skipped', reason: 'The file is larger than 512 MB: not an image Atelier imports.' };
  let bytes: Uint8Array;
  let sha256: string;
  try {
    ({ bytes, sha256 } = await reader(path));
  } catch (error) {
    return { kind: 'failed', reason: describeReadError(error) };
  }
  const sniffed = sniffImage(bytes);
  if (sniffed.format === null)
    return { kind: 'skipped', reason: 'Not a PNG, JPEG, WebP or AVIF image (judged by its content, not its name).' };
  const cut = truncation(bytes, sniffed.format);
  if (cut !== null) return { kind: 'failed', reason: cut };
  if (sniffed.width === undefined || sniffed.height === undefined) {
    return { kind: 'failed', reason: 'The image header is damaged: its size cannot be read.' };
  }
  const sidecarText = await sidecarOf(path, root);
  let read: ImageRead;
  try {
    ({ read, bytes } = await metadata(
      bytes,
      sidecarText === undefined ? readOptions : { ...readOptions, sidecarText },
    ));
  } catch (error) {
    return {
      kind: 'failed',
      reason: error instanceof MetadataReadFailed ? error.message : `Its settings could not be read: ${String(error)}`,
    };
  }
  return {
    kind: 'image',
    bytes,
    size: bytes.length,
    mtimeMs: info.mtimeMs,
    sha256,
    format: sniffed.format,
    width: sniffed.width,
    height: sniffed.height,
    read,
  };
}
