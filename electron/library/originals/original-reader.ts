/**
 * Reads whole files Atelier did not write: the guarded open (./guarded-open.ts), then the bytes and their SHA-256 on
 * a worker thread (./read-pool.ts), within the process's memory budget (./read-budget.ts), and for an
 * original the recorded hash checked before a byte is handed on.
 */
import { createHash } from 'node:crypto';
import { createReadPool, type ReadPool } from './read-pool.js';
import { openGuarded, refusalOf, refusals, type GuardedFile, type GuardedTarget } from './guarded-open.js';
import { processReadBudget, type ReadBudget } from './read-budget.js';

export interface ReadTarget extends GuardedTarget {
  /** The hash recorded when it was stored: other bytes are refused as `changed`. */
  sha256?: string;
}

export interface ReadFile {
  bytes: Uint8Array;
  sha256: string;
  size: number;
  mtimeMs: number;
}

/** Reads whose bytes stay counted against the budget until `release` (an import holds them while it stores them). */
export interface ReadScope {
  read(target: ReadTarget): Promise<ReadFile>;
  release(): void;
}

export interface OriginalReader {
  scope(): ReadScope;
  /** Reads the file and hands it to `use`, holding its bytes against the budget until `use` is done. */
  use<T>(target: ReadTarget, use: (file: ReadFile) => Promise<T> | T): Promise<T>;
  /** Reads the file; the budget is freed as soon as the bytes are the caller's. */
  read(target: ReadTarget): Promise<ReadFile>;
  /** Only the guarded open, for a caller that streams a file it need not verify by hash (the caller closes it). */
  open(target: GuardedTarget): Promise<GuardedFile>;
  budget: ReadBudget;
  close(): Promise<void>;
}

export function createOriginalReader(options: { pool?: ReadPool; budget?: ReadBudget } = {}): OriginalReader {
  const pool = options.pool ?? createReadPool();
  const budget = options.budget ?? processReadBudget();

  async function held(target: ReadTarget): Promise<{ file: ReadFile; release(): void }> {
    const opened = await openGuarded(target);
    let release: (() => void) | undefined;
    try {
      release = await budget.acquire(opened.size);
      let read;
      try {
        read = await pool.read(opened.handle.fd, opened.size);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw code === 'EGREW' || code === 'ESHRUNK' ? refusals.replaced() : refusalOf(error);
      }
      if (target.sha256 !== undefined && read.sha256 !== target.sha256) throw refusals.changed();
      return { file: { bytes: read.bytes, sha256: read.sha256, size: opened.size, mtimeMs: opened.mtimeMs }, release };
    } catch (error) {
      release?.();
      throw error;
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  }

  return {
    budget,
    scope() {
      const releases: Array<() => void> = [];
      return {
        async read(target) {
          const { file, release } = await held(target);
          releases.push(release);
          return file;
        },
        release() {
          for (const release of releases.splice(0)) release();
        },
      };
    },
    async use(target, use) {
      const { file, release } = await held(target);
      try {
        return await use(file);
      } finally {
        release();
      }
    },
    async read(target) {
      const { file, release } = await held(target);
      release();
      return file;
    },
    open: openGuarded,
    close: () => pool.close(),
  };
}

/**
 * The same guarded read on the calling thread, for small files (a sidecar's text) and tools that read one file
 * at a time; no budget, so keep `maxBytes` small.
 */
export async function readGuardedHere(target: ReadTarget): Promise<ReadFile> {
  const opened = await openGuarded(target);
  try {
    const bytes = new Uint8Array(opened.size);
    let at = 0;
    while (at < opened.size) {
      const { bytesRead } = await opened.handle.read(bytes, at, opened.size - at, at);
      if (bytesRead === 0) throw refusals.replaced();
      at += bytesRead;
    }
    if ((await opened.handle.read(new Uint8Array(1), 0, 1, opened.size)).bytesRead !== 0) throw refusals.replaced();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (target.sha256 !== undefined && sha256 !== target.sha256) throw refusals.changed();
    return { bytes, sha256, size: opened.size, mtimeMs: opened.mtimeMs };
  } catch (error) {
    throw refusalOf(error);
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
