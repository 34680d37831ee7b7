/** An export's one way to an original's bytes: the guarded read; refused or gone counts as missing. */
import { Readable } from 'node:stream';
import type { OriginalReader } from '../originals/original-reader.js';
import { RefusedRead } from '../originals/guarded-open.js';
import type { PlannedFile } from './plan.js';

export type ExportReader = Pick<OriginalReader, 'use' | 'open'>;

/** What became of one planned file: written under a name, or missing. */
export type FileOutcome = { missing: true } | { missing: false; bytes: number; name: string };

/** One original, ready to be written once. */
export interface ExportSource {
  size: number;
  mtimeMs: number;
  stream(): Readable;
}

/**
 * Hands the original to `write`: an imported original as bytes already checked against its recorded hash (held
 * against the read budget until written), Atelier's own file streamed from its guarded descriptor, never past the
 * size it had when opened. `onRefused` hears why a file was left out; it then counts as missing.
 */
export async function withOriginal(
  reader: ExportReader,
  file: PlannedFile,
  /** Writes the original; answers the name it was written under. */
  write: (original: ExportSource) => Promise<string>,
  onRefused: (file: PlannedFile, why: string) => void,
): Promise<FileOutcome> {
  const source = file.source;
  if (source === null) return { missing: true };
  let reached = false;
  try {
    if (source.sha256 !== undefined) {
      return await reader.use(source, async (original) => {
        reached = true;
        const name = await write({
          size: original.size,
          mtimeMs: original.mtimeMs,
          stream: () => chunked(original.bytes),
        });
        return { missing: false, bytes: original.size, name };
      });
    }
    const opened = await reader.open(source);
    reached = true;
    try {
      const { size, handle } = opened;
      // The stream closes the handle when it ends ('close' is what the writers wait for); the finally covers a stream never made.
      const stream = () => (size === 0 ? Readable.from([]) : handle.createReadStream({ start: 0, end: size - 1 }));
      return { missing: false, bytes: size, name: await write({ size, mtimeMs: opened.mtimeMs, stream }) };
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  } catch (error) {
    // A fault while writing is the export's own (a full disk): only a refused read is a missing original.
    if (reached || !(error instanceof RefusedRead)) throw error;
    onRefused(file, error.message);
    return { missing: true };
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
