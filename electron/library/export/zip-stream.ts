/** A ZIP of an export's originals, streamed: one file open at a time, stored (never re-encoded), memory bounded. */
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { PlannedFile } from './plan.js';
import { manifestText, type ManifestRow } from './manifest.js';

export type FileOutcome = { missing: true } | { missing: false; bytes: number; name: string };

export interface ZipOptions {
  manifest: 'none' | 'json' | 'csv';
  now(): number;
  signal: AbortSignal;
  onFile(file: PlannedFile, outcome: FileOutcome): void;
}

/** Opens an original for reading (never writing); null when it is gone or unreadable. */
export async function openOriginal(path: string | null) {
  if (path === null) return null;
  return open(path, 'r').catch(() => null);
}

export function zipExport(plan: readonly PlannedFile[], options: ZipOptions): Readable {
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  const rows: ManifestRow[] = [];
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
        rows.push({ ...file.row, file: file.name, status: 'missing' });
        options.onFile(file, { missing: true });
        continue;
      }
      const stat = await handle.stat();
      const input = handle.createReadStream();
      const stop = (): void => void input.destroy();
      signal.addEventListener('abort', stop, { once: true });
      zip.addReadStream(input, file.name, { compress: false, size: stat.size, mtime: stat.mtime });
      // The next file opens only once this one has been read through: one descriptor, backpressure from the reader.
      await once(input, 'close');
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return;
      rows.push({ ...file.row, file: file.name, status: 'exported' });
      options.onFile(file, { missing: false, bytes: stat.size, name: file.name });
    }
    if (options.manifest !== 'none') zip.addBuffer(Buffer.from(manifestText(options.manifest, rows, options.now())), `manifest.${options.manifest}`);
    zip.end();
  };
  fill().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  signal.addEventListener('abort', () => out.destroy(), { once: true });
  return out;
}
