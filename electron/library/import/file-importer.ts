import { writeFileAtomic } from '../../media/atomic-write.js';
import { LIBRARY_DIR, shardedPath } from '../../media/media-paths.js';
import type { FileOutcome, ImportStore } from '../../db/import-types.js';
import type { ImportMode } from '../../../shared/contract.js';
import { fileStat, probeFile, readHere, type FileReader } from './probe-file.js';
import { EXTENSION, toImportedImage } from './to-imported.js';
import { readMetadataOffThread } from '../readers/off-thread.js';
import type { ReadImageOptions } from '../readers/read-image.js';

export interface FileToImport {
  seq: number;
  path: string;
  folderId: string | null;
  /** The imported folder (or file) it was found under: its real path must stay inside. */
  root?: string;
}

/**
 * What one file becomes: unchanged (a known location with the same size and time: not even read), a duplicate
 * (content the library has), a new image, or skipped/failed with a reason. Copy mode writes the file into
 * library/ (content-addressed, atomically) before the row that names it is committed.
 */
export async function importOneFile(
  dataDir: string,
  store: Pick<ImportStore, 'location' | 'imageBySha'>,
  file: FileToImport,
  mode: ImportMode,
  reader: FileReader = readHere,
  readOptions: ReadImageOptions = {},
): Promise<FileOutcome> {
  const { seq, path, folderId } = file;
  const info = await fileStat(path);
  if ('reason' in info) return { kind: 'failed', seq, path, reason: info.reason };
  const known = store.location(path);
  if (
    known !== null &&
    !known.missing &&
    known.bytes === info.size &&
    Math.trunc(known.mtimeMs) === Math.trunc(info.mtimeMs)
  ) {
    return { kind: 'unchanged', seq };
  }
  const probe = await probeFile(path, info, reader, file.root ?? path, readMetadataOffThread, readOptions);
  if (probe.kind !== 'image') return { kind: probe.kind, seq, path, reason: probe.reason };
  const base = { seq, path, folderId, bytes: probe.size, mtimeMs: probe.mtimeMs };
  const existing = store.imageBySha(probe.sha256);
  if (existing !== null) return { kind: 'duplicate', ...base, imageId: existing.imageId };
  let storedPath = path;
  if (mode === 'copy') {
    storedPath = shardedPath(LIBRARY_DIR, probe.sha256, EXTENSION[probe.format]);
    await writeFileAtomic(dataDir, storedPath, probe.bytes);
  }
  const image = toImportedImage({
    path,
    sha256: probe.sha256,
    size: probe.size,
    mtimeMs: probe.mtimeMs,
    format: probe.format,
    width: probe.width,
    height: probe.height,
    read: probe.read,
    mode,
    storedPath,
  });
  return { kind: 'imported', ...base, image };
}
