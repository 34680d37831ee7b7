import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface Holder {
  pid: number;
  host: string;
  file: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Who may hold atelier.lock: each process records itself in `<lock>.holders/` before it tries the lock and removes
 * the record when it lets go, so a lock whose every recorded holder on this machine is dead is provably stale
 * (a lock file damaged, or held by a network file system that never released it after a crash).
 */
export function createHolderRecords(lockPath: string) {
  const dir = `${lockPath}.holders`;
  const host = hostname();
  const read = (): Holder[] => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const holders: Holder[] = [];
    for (const name of names) {
      try {
        const parsed = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid?: unknown; host?: unknown };
        if (typeof parsed.pid === 'number' && typeof parsed.host === 'string')
          holders.push({ pid: parsed.pid, host: parsed.host, file: name });
      } catch {
        // Half-written by a process that died mid-write: it holds nothing.
      }
    }
    return holders;
  };
  return {
    /** Records this process; returns the record's name. */
    announce(): string {
      // Not recursive: Node reports a recursive mkdir on a read-only disk as ENOENT.
      try {
        mkdirSync(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const file = `${process.pid}-${randomBytes(4).toString('hex')}.json`;
      writeFileSync(join(dir, file), JSON.stringify({ pid: process.pid, host, since: new Date().toISOString() }));
      return file;
    },
    withdraw(file: string): void {
      rmSync(join(dir, file), { force: true });
    },
    /** Records other than `own` that may still hold the lock: alive here, or on another machine (unknowable). */
    live(own: string): Holder[] {
      return read().filter((h) => h.file !== own && (h.host !== host || alive(h.pid)));
    },
    /** Whether any record other than `own` exists at all (none: a lock from before records, never taken over). */
    others(own: string): number {
      return read().filter((h) => h.file !== own).length;
    },
    /** Removes records of processes on this machine that no longer exist. */
    pruneDead(own: string): void {
      for (const h of read())
        if (h.file !== own && h.host === host && !alive(h.pid)) rmSync(join(dir, h.file), { force: true });
    },
  };
}
