/** An export into a folder: each original copied byte for byte under a name no existing file has. */
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PlannedFile } from './plan.js';
import { numbered } from './names.js';
import { manifestStream, recordFile, type Written, type ZipOptions } from './zip-stream.js';
import { withOriginal } from './read-original.js';

const MAX_TRIES = 10_000;

/** Creates `name` in `folder`, or `name (2)`, `name (3)`…: an existing file is never opened for writing. */
export async function createExclusive(
  folder: string,
  name: string,
): Promise<{ handle: FileHandle; name: string; path: string }> {
  for (let n = 1; n <= MAX_TRIES; n += 1) {
    const candidate = n === 1 ? name : numbered(name, n);
    const path = join(folder, candidate);
    try {
      return { handle: await open(path, 'wx'), name: candidate, path };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`Every name like ${name} is taken in ${folder}.`);
}

export type FolderOptions = ZipOptions;

export async function exportToFolder(
  folder: string,
  plan: readonly PlannedFile[],
  options: FolderOptions,
): Promise<void> {
  const written: Written = [];
  for (const file of plan) {
    if (options.signal.aborted) return;
    const outcome = await withOriginal(
      options.reader,
      file,
      async (original) => {
        const target = await createExclusive(folder, file.name);
        try {
          await pipeline(original.stream(), target.handle.createWriteStream(), { signal: options.signal });
        } catch (error) {
          // Only the half-written copy this export created is removed; the original is never touched.
          await unlink(target.path).catch(() => undefined);
          if (!options.signal.aborted) throw error;
        }
        return target.name;
      },
      options.onRefused,
    );
    if (options.signal.aborted) return;
    recordFile(written, options, file, outcome);
  }
  if (options.manifest === 'none') return;
  const manifest = await createExclusive(folder, `manifest.${options.manifest}`);
  await pipeline(manifestStream(options.manifest, written, options), manifest.handle.createWriteStream());
}
