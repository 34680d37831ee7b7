import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { JobStore } from '../../db/types.js';
import type { Logger } from '../../base/logger.js';
import { sidecarPath, xmpPacket } from './xmp-packet.js';

/** The file operations the writer uses; tests wrap one to act between Atelier's check and its write. */
export type SidecarFs = Pick<
  typeof fsp,
  'lstat' | 'open' | 'writeFile' | 'link' | 'rename' | 'unlink' | 'readlink' | 'symlink'
>;

export interface SidecarWriterDeps {
  store: JobStore;
  log: Logger;
  /** The setting, read at each write (off by default). */
  enabled(): boolean;
  fs?: SidecarFs;
  /** Tests only: runs after the check of what is at a sidecar's path, before anything is written (another tool's moment). */
  afterCheck?: (path: string) => Promise<void> | void;
}

export interface SidecarOutcome {
  written: number;
  /** A sidecar that is not Atelier's (or was changed since Atelier wrote it): left exactly as it is. */
  keptForeign: number;
  failed: number;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;
/** Atelier's packets are a few KB: anything far larger is another tool's, and is not read. */
const MAX_SIDECAR_BYTES = 4 * 1024 * 1024;
/** Where hard links are not supported (FAT, some network shares): an exclusive open is the create-exclusive left. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);
// O_NOFOLLOW: a symlink swapped in after the lstat is never read through; O_NONBLOCK: a FIFO never blocks the open.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What is at a sidecar's path: nothing, a regular file's text, or something never touched (a symlink, a folder, a FIFO, a huge file). */
type Found = { kind: 'absent' } | { kind: 'file'; text: string } | { kind: 'other' };

async function inspect(fs: SidecarFs, path: string): Promise<Found> {
  try {
    if (!(await fs.lstat(path)).isFile()) return { kind: 'other' };
    const handle = await fs.open(path, READ_FLAGS);
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_SIDECAR_BYTES) return { kind: 'other' };
      return { kind: 'file', text: await handle.readFile('utf8') };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { kind: 'absent' };
    if (codeOf(error) === 'ELOOP') return { kind: 'other' };
    throw error;
  }
}

/**
 * Creates `path` holding `text` only if nothing is there (not even a dangling symlink): written whole under a temporary
 * name, then hard-linked into place, which fails rather than replace. false: something else is there now.
 */
async function createExclusive(fs: SidecarFs, path: string, text: string): Promise<boolean> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, text, { flag: 'wx' });
  try {
    await fs.link(temp, path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    if (!NO_LINKS.has(codeOf(error) ?? '')) throw error;
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
  try {
    await fs.writeFile(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  }
}

/** Puts back what was moved aside without replacing anything that appeared since; false: it stays at `from`. */
async function putBack(fs: SidecarFs, from: string, to: string): Promise<boolean> {
  try {
    const stat = await fs.lstat(from);
    if (stat.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
    else if (stat.isFile()) await fs.link(from, to);
    else {
      // A folder cannot be hard-linked: renamed back only while nothing is at its name.
      const there = await fs.lstat(to).then(
        () => true,
        (error: unknown) => codeOf(error) !== 'ENOENT',
      );
      if (there) return false;
      await fs.rename(from, to);
      return true;
    }
    await fs.unlink(from);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Writes ratings and tags to `<original>.xmp` beside linked originals, one at a time in the background. A sidecar
 * is created only where nothing exists (create-exclusive: a file or symlink another tool makes meanwhile wins), and
 * rewritten only while it is a regular file byte for byte what Atelier last wrote (recorded by path and SHA-256 in
 * xmp_sidecars): a file another tool made or touched, and any symlink, is never changed, replaced or followed.
 */
export function createSidecarWriter(deps: SidecarWriterDeps) {
  const { store, log } = deps;
  const fs: SidecarFs = deps.fs ?? fsp;
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  const totals: SidecarOutcome = { written: 0, keptForeign: 0, failed: 0 };

  const kept = (path: string) => {
    totals.keptForeign += 1;
    log.info('kept an XMP sidecar Atelier did not write', { path });
  };

  /** Replaces Atelier's own sidecar: moved aside first, so what is checked is exactly what gets replaced. */
  async function replaceOwn(path: string, text: string, ours: string): Promise<boolean> {
    const aside = `${path}.${randomBytes(4).toString('hex')}.old`;
    try {
      await fs.rename(path, aside);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return createExclusive(fs, path, text);
      throw error;
    }
    const moved = await inspect(fs, aside);
    if (moved.kind !== 'file' || sha(moved.text) !== ours) {
      // Swapped for another tool's file between the check and the move: it goes back untouched.
      if (!(await putBack(fs, aside, path)))
        log.warn('another tool wrote an XMP sidecar twice at once: one is kept aside', { path, aside });
      return false;
    }
    try {
      return await createExclusive(fs, path, text);
    } finally {
      await fs.unlink(aside).catch(() => undefined);
    }
  }

  async function one(imageId: string): Promise<void> {
    const target = store.xmp.target(imageId);
    if (target === null) return;
    const path = sidecarPath(target.original);
    const text = xmpPacket(target.rating, target.tags, target.note);
    const found = await inspect(fs, path);
    const ours = store.xmp.written(path);
    await deps.afterCheck?.(path);
    let created: boolean;
    if (found.kind === 'absent') {
      created = await createExclusive(fs, path, text);
    } else if (found.kind === 'other' || ours === null || sha(found.text) !== ours) {
      created = false;
    } else if (found.text === text) {
      return;
    } else {
      created = await replaceOwn(path, text, ours);
    }
    if (!created) {
      kept(path);
      return;
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
        log.warn('could not write an XMP sidecar', {
          imageId,
          error: error instanceof Error ? error.message : String(error),
        });
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
