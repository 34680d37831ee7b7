/** A ZIP of an export's originals, streamed: one file open at a time, stored (never re-encoded), memory bounded. */
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ManifestFields, PlannedFile } from './plan.js';
import { manifestChunks, type ManifestRow } from './manifest.js';

export type FileOutcome = { missing: true } | { missing: false; bytes: number; name: string };

export interface ZipOptions {
  manifest: 'none' | 'json' | 'csv';
  now(): number;
  signal: AbortSignal;
  onFile(file: PlannedFile, outcome: FileOutcome): void;
  /** The manifest's settings for a file, read when the manifest is written. */
  fields(file: PlannedFile): ManifestFields;
}

/** What became of each planned file: the name it was written under, or missing. */
export type Written = Array<{ file: PlannedFile; name: string; missing: boolean }>;

export function manifestStream(kind: 'json' | 'csv', written: Written, options: Pick<ZipOptions, 'fields' | 'now'>): Readable {
  function* rows(): Generator<ManifestRow> {
    for (const w of written) yield { ...options.fields(w.file), file: w.name, status: w.missing ? 'missing' : 'exported' };
  }
  return Readable.from(manifestChunks(kind, rows(), options.now()));
}

/** Opens an original for reading (never writing); null when it is gone or unreadable. */
export async function openOriginal(path: string | null) {
  if (path === null) return null;
  return open(path, 'r').catch(() => null);
}

export function zipExport(plan: readonly PlannedFile[], options: ZipOptions): Readable {
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  const written: Written = [];
  // Cancelled, or the reader went away (a download closed): stop opening files.
  const stopped = new AbortController();
  const signal = stopped.signal;
  options.signal.addEventListener('abort', () => stopped.abort(), { once: true });
  out.once('close', () => stopped.abort());
  const fill = async (): Promise<void> => {
    for (const file of plan) {
      if (signal.aborted) return;
      const handle = await openOriginal(file.path);
      if (handle === null) {
        written.push({ file, name: file.name, missing: true });
        options.onFile(file, { missing: true });
        continue;
      }
      const stat = await handle.stat();
      const input = handle.createReadStream();
      const stop = (): void => void input.destroy();
      signal.addEventListener('abort', stop, { once: true });
      // yazl keeps each entry's stream getter for the archive's life: it hands the stream over once and forgets it.
      let pending: Readable | null = input;
      zip.addReadStreamLazy(file.name, { compress: false, size: stat.size, mtime: stat.mtime }, (give) => {
        const stream = pending!;
        pending = null;
        give(null, stream);
      });
      // The next file opens only once this one has been read through: one descriptor, backpressure from the reader.
      await once(input, 'close');
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return;
      written.push({ file, name: file.name, missing: false });
      options.onFile(file, { missing: false, bytes: stat.size, name: file.name });
    }
    if (options.manifest !== 'none') zip.addReadStream(manifestStream(options.manifest, written, options), `manifest.${options.manifest}`);
    zip.end();
  };
  fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  signal.addEventListener('abort', () => out.destroy(), { once: true });
  return out;
}
