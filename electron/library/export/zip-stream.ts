/** A ZIP of an export's originals, streamed: one file at a time, stored (never re-encoded), memory bounded. */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { ManifestFields, PlannedFile } from './plan.js';
import { manifestChunks, type ManifestRow } from './manifest.js';
import { withOriginal, type ExportReader, type FileOutcome } from './read-original.js';

export type { FileOutcome };

export interface ZipOptions {
  manifest: 'none' | 'json' | 'csv';
  now(): number;
  signal: AbortSignal;
  onFile(file: PlannedFile, outcome: FileOutcome): void;
  /** The manifest's settings for a file, read when the manifest is written. */
  fields(file: PlannedFile): ManifestFields;
  /** The guarded read every original comes through. */
  reader: ExportReader;
  /** A file left out because its read was refused, and why (logged; it counts as missing). */
  onRefused(file: PlannedFile, why: string): void;
}

/** What became of each planned file: the name it was written under, or missing. */
export type Written = Array<{ file: PlannedFile; name: string; missing: boolean }>;

/** One file's outcome, kept for the manifest and told to the export's counters. */
export function recordFile(
  written: Written,
  options: Pick<ZipOptions, 'onFile'>,
  file: PlannedFile,
  outcome: FileOutcome,
): void {
  written.push({ file, name: outcome.missing ? file.name : outcome.name, missing: outcome.missing });
  options.onFile(file, outcome);
}

export function manifestStream(
  kind: 'json' | 'csv',
  written: Written,
  options: Pick<ZipOptions, 'fields' | 'now'>,
): Readable {
  function* rows(): Generator<ManifestRow> {
    for (const w of written)
      yield { ...options.fields(w.file), file: w.name, status: w.missing ? 'missing' : 'exported' };
  }
  return Readable.from(manifestChunks(kind, rows(), options.now()));
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
      const outcome = await withOriginal(
        options.reader,
        file,
        async (original) => {
          const input = original.stream();
          const stop = (): void => void input.destroy();
          signal.addEventListener('abort', stop, { once: true });
          // yazl keeps each entry's stream getter for the archive's life: it hands the stream over once and forgets it.
          let pending: Readable | null = input;
          zip.addReadStreamLazy(
            file.name,
            { compress: false, size: original.size, mtime: new Date(original.mtimeMs) },
            (give) => {
              const stream = pending!;
              pending = null;
              give(null, stream);
            },
          );
          // The next file is read only once this one has gone into the archive: one file's bytes, backpressure from the reader.
          await once(input, 'close');
          signal.removeEventListener('abort', stop);
          return file.name;
        },
        options.onRefused,
      );
      if (signal.aborted) return;
      recordFile(written, options, file, outcome);
    }
    if (options.manifest !== 'none')
      zip.addReadStream(manifestStream(options.manifest, written, options), `manifest.${options.manifest}`);
    zip.end();
  };
  fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  signal.addEventListener('abort', () => out.destroy(), { once: true });
  return out;
}
