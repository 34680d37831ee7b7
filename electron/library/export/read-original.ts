/** An export's one way to an original's bytes: the guarded read, hash checked; refused or gone is `null` (missing). */
import { Readable } from 'node:stream';
import type { OriginalReader, ReadFile } from '../originals/original-reader.js';
import { RefusedRead } from '../originals/guarded-open.js';
import type { PlannedFile } from './plan.js';

export type ExportReader = Pick<OriginalReader, 'use'>;

/**
 * Hands the verified bytes to `write` and holds them against the read budget until it is done; `onRefused` hears
 * why a file was left out (a link out of its folder, a pipe, a changed file), and the file counts as missing.
 */
export async function withOriginal(
  reader: ExportReader,
  file: PlannedFile,
  write: (original: ReadFile) => Promise<void>,
  onRefused: (file: PlannedFile, why: string) => void,
): Promise<'written' | 'missing'> {
  if (file.source === null) return 'missing';
  let reached = false;
  try {
    await reader.use(file.source, async (original) => {
      reached = true;
      await write(original);
    });
    return 'written';
  } catch (error) {
    // A fault while writing is the export's own (a full disk): only a refused read is a missing original.
    if (reached || !(error instanceof RefusedRead)) throw error;
    onRefused(file, error.message);
    return 'missing';
  }
}

const CHUNK = 1024 * 1024;

/** The bytes as a stream of 1 MB chunks: the archive's CRC and the socket take them a piece at a time. */
export function chunked(bytes: Uint8Array): Readable {
  function* pieces(): Generator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, Math.min(bytes.length, at + CHUNK));
  }
  return Readable.from(pieces(), { objectMode: false });
}
