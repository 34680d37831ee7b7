import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createEngine } from '../../../electron/engine/create-engine.js';
import type { Logger } from '../../../electron/base/logger.js';
import type { Engine } from '../../../electron/engine/types.js';
import { createLibraryHost, type LibraryHost, type LibraryHostOptions } from '../../../electron/host/library-host.js';
import { memoryKeyring, waitForStatus } from '../engine/harness.js';

export const quietLog: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export const openEngine = (dataDir: string): Promise<Engine> =>
  createEngine({ dataDir, keyring: memoryKeyring() }, { housekeepingDelayMs: 60_000, maintenanceIntervalMs: 0 });

/** A scratch folder holding the library (`lib`), the app's userData and room for targets; removed by `cleanup`. */
export async function scratch(): Promise<{ root: string; lib: string; userData: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'atelier-move-'));
  return {
    root,
    lib: join(root, 'lib'),
    userData: join(root, 'userData'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export async function startHost(options: Partial<LibraryHostOptions> & { dataDir: string }): Promise<LibraryHost> {
  return createLibraryHost({
    open: openEngine,
    remembered: false,
    defaultDir: options.dataDir,
    pointerFile: null,
    log: quietLog,
    graceMs: 0,
    ...options,
  });
}

/** Two built-in jobs of two images each: originals, thumbnails and database rows to carry over. */
export async function generate(host: Engine): Promise<string[]> {
  const ids: string[] = [];
  for (const seed of [11, 12]) {
    const { job } = await host.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: `a lighthouse ${seed}`,
      width: 256,
      height: 192,
      count: 2,
      seed,
      steps: 4,
    });
    const done = await waitForStatus(host, job.id, ['succeeded', 'failed'], 30_000);
    if (done.status !== 'succeeded') throw new Error(`job ${job.id} ${done.status}`);
    ids.push(...done.images.map((image) => image.id));
  }
  // Thumbnails are made in the background: wait until each one is on disk.
  for (
    let i = 0;
    i < 500 &&
    !ids.every((id) => host.resolveMedia('thumb', id) !== null && existsSync(host.resolveMedia('thumb', id)!.path));
    i += 1
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return ids;
}

/** Every file under `dir`, relative, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  // A job's preview folder may vanish mid-walk: look again.
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() =>
    readdir(dir, { recursive: true, withFileTypes: true }),
  );
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}
