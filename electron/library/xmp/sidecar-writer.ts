import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { JobStore } from '../../db/types.js';
import type { Logger } from '../../engine/types.js';
import { sidecarPath, xmpPacket } from './xmp-packet.js';

export interface SidecarWriterDeps {
  store: JobStore;
  log: Logger;
  /** The setting, read at each write (off by default). */
  enabled(): boolean;
}

export interface SidecarOutcome {
  written: number;
  /** A sidecar that is not Atelier's (or was changed since Atelier wrote it): left exactly as it is. */
  keptForeign: number;
  failed: number;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function readIfThere(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes ratings and tags to `<original>.xmp` beside linked originals, one at a time in the background. A sidecar
 * is created only where none exists, and rewritten only while it is byte for byte what Atelier last wrote: a file
 * another tool made or touched is never changed.
 */
export function createSidecarWriter(deps: SidecarWriterDeps) {
  const { store, log } = deps;
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  const totals: SidecarOutcome = { written: 0, keptForeign: 0, failed: 0 };

  async function one(imageId: string): Promise<void> {
    const target = store.xmp.target(imageId);
    if (target === null) return;
    const path = sidecarPath(target.original);
    const text = xmpPacket(target.rating, target.tags);
    const current = await readIfThere(path);
    const ours = store.xmp.written(path);
    if (current !== null && (ours === null || sha(current) !== ours)) {
      totals.keptForeign += 1;
      log.info('kept an XMP sidecar Atelier did not write', { path });
      return;
    }
    if (current === text) return;
    // A temporary name beside it, then a rename: a reader never sees half a sidecar.
    const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { flag: 'wx' });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    store.xmp.record(path, imageId, sha(text));
    totals.written += 1;
  }

  async function drain(): Promise<void> {
    while (pending.size > 0) {
      const imageId = pending.values().next().value!;
      pending.delete(imageId);
      try {
        await one(imageId);
      } catch (error) {
        totals.failed += 1;
        log.warn('could not write an XMP sidecar', { imageId, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  function kick(): void {
    if (running !== null) return;
    // Images queued while the last one finished would otherwise wait for the next action.
    running = drain().finally(() => {
      running = null;
      if (pending.size > 0) kick();
    });
  }

  return {
    /** Queues the images' sidecars (a no-op while the setting is off or for images Atelier made itself). */
    queue(imageIds: readonly string[]): void {
      if (!deps.enabled()) return;
      for (const id of imageIds) pending.add(id);
      kick();
    },
    /** Resolves once every queued sidecar is written (tests and a clean quit). */
    async idle(): Promise<void> {
      while (running !== null) await running;
    },
    outcome: (): SidecarOutcome => ({ ...totals }),
  };
}

export type SidecarWriter = ReturnType<typeof createSidecarWriter>;
