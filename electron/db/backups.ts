import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './connection.js';

export const BACKUPS_DIR = 'backups';
/** Quit backups kept; older ones are removed (migration backups are never pruned). */
export const QUIT_BACKUPS_KEPT = 5;
/** A quit waits at most this long for its backup; a slower one is abandoned (the previous ones stay). */
export const QUIT_BACKUP_MAX_MS = 3_000;

const QUIT_BACKUP = /^atelier-quit-\d{8}T\d{9}Z\.db$/;

function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:.]/g, '');
}

export interface BackupFile {
  /** Relative to the data dir, e.g. backups/atelier-quit-20260102T030405000Z.db */
  path: string;
  mtimeMs: number;
}

/** The most recent backup in <dataDir>/backups (quit or migration), or null. */
export function newestBackup(dataDir: string): BackupFile | null {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, BACKUPS_DIR));
  } catch {
    return null;
  }
  let best: BackupFile | null = null;
  for (const name of names) {
    if (!name.startsWith('atelier-') || !name.endsWith('.db')) continue;
    try {
      const s = statSync(join(dataDir, BACKUPS_DIR, name));
      if (s.isFile() && s.size > 0 && (best === null || s.mtimeMs > best.mtimeMs)) {
        best = { path: `${BACKUPS_DIR}/${name}`, mtimeMs: s.mtimeMs };
      }
    } catch {
      // Vanished while listing: not a candidate.
    }
  }
  return best;
}

/**
 * A consistent copy of the open database through SQLite's online backup API (in steps, so the event loop keeps
 * running), written under a temporary name and renamed into place; then only the newest QUIT_BACKUPS_KEPT remain.
 */
export async function backupDatabase(
  db: Db,
  dataDir: string,
  now: number,
  maxMs = QUIT_BACKUP_MAX_MS,
): Promise<string> {
  const dir = join(dataDir, BACKUPS_DIR);
  mkdirSync(dir, { recursive: true });
  const name = `atelier-quit-${stamp(now)}.db`;
  const part = join(dir, `.${name}.part`);
  const deadline = Date.now() + maxMs;
  try {
    await db.backup(part, {
      progress: () => {
        if (Date.now() > deadline) throw new Error(`backup took longer than ${maxMs} ms`);
        return 256;
      },
    });
    renameSync(part, join(dir, name));
  } catch (error) {
    rmSync(part, { force: true });
    throw error;
  }
  pruneQuitBackups(dir);
  return `${BACKUPS_DIR}/${name}`;
}

function pruneQuitBackups(dir: string): void {
  const quits = readdirSync(dir)
    .filter((n) => QUIT_BACKUP.test(n))
    .sort();
  for (const name of quits.slice(0, Math.max(0, quits.length - QUIT_BACKUPS_KEPT)))
    rmSync(join(dir, name), { force: true });
}
