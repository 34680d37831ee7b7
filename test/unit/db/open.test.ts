import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { CLEAN_CLOSE_FILE } from '../../../electron/db/clean-close.js';
import { openStore } from '../../../electron/db/store.js';
import { LATEST_VERSION } from '../../../electron/db/migrations/index.js';
import { finished, open, req, tempDir } from './helpers.js';

const HOLDER = fileURLToPath(new URL('../../fixtures/db/hold-store.ts', import.meta.url));

function storageError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('storage');
    return error as AppError;
  }
  throw new Error('expected a storage error');
}

describe('opening the library', () => {
  it('uses WAL, foreign keys, a busy timeout and NORMAL sync, and lays out the data dir', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    const db = new Database(join(dir, 'atelier.db'), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = db.prepare("SELECT name, strict FROM pragma_table_list WHERE schema = 'main'").all() as Array<{
        name: string;
        strict: number;
      }>;
      for (const name of ['jobs', 'images', 'job_events', 'settings', 'schema_migrations', 'store_totals']) {
        expect(tables.find((t) => t.name === name)?.strict, name).toBe(1);
      }
    } finally {
      db.close();
    }
    expect(statSync(join(dir, 'atelier.lock')).isFile()).toBe(true);
    expect(store.info.schemaVersion).toBe(LATEST_VERSION);
    expect(store.info.migratedFrom).toBe(0);
    expect(store.info.backupPath).toBeNull();
  });

  it('enforces foreign keys on the connection it uses', () => {
    const store = open();
    const id = finished(store);
    // An event for a job that does not exist is refused, not dangling.
    expect(() => store.appendEvent('018bcfe5-6800-7000-8000-0000000000ff', 'note', 'x')).toThrow(/no job/);
    store.appendEvent(id, 'warning', 'degraded to png', { from: 'webp' });
    expect(store.get(id).events.at(-1)).toMatchObject({ kind: 'warning', data: { from: 'webp' } });
  });

  it('refuses a database path that is a symlink', () => {
    const dir = tempDir();
    const target = join(dir, 'elsewhere.db');
    writeFileSync(target, '');
    symlinkSync(target, join(dir, 'atelier.db'));
    const error = storageError(() => openStore({ dataDir: dir }));
    expect(error.message).toMatch(/symbolic link/);
  });

  it('refuses a database path that is a directory', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'atelier.db'));
    expect(storageError(() => openStore({ dataDir: dir })).message).toMatch(/not a regular file/);
  });

  it('refuses a damaged database before writing to it', () => {
    const dir = tempDir();
    const store = openStore({ dataDir: dir });
    for (let i = 0; i < 50; i += 1) finished(store, `prompt number ${i} `.repeat(20));
    store.close();
    const db = new Database(join(dir, 'atelier.db'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const root = (
      db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'jobs_created'").get() as { rootpage: number }
    ).rootpage;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = openSync(join(dir, 'atelier.db'), 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    const before = readFileSync(join(dir, 'atelier.db'));
    expect(storageError(() => openStore({ dataDir: dir })).message).toMatch(/damaged/);
    expect(readFileSync(join(dir, 'atelier.db')).equals(before)).toBe(true);
  });

  it('checks the file on open unless the last close was clean and nothing touched the file since', () => {
    const dir = tempDir();
    const marker = join(dir, CLEAN_CLOSE_FILE);
    const first = openStore({ dataDir: dir });
    expect(first.info.integrityChecked).toBe(true);
    finished(first, 'a fox');
    first.close();
    expect(existsSync(marker)).toBe(true);

    const second = openStore({ dataDir: dir });
    expect(second.info.integrityChecked).toBe(false);
    // While open there is no marker: a crash now leaves none, and the next open checks.
    expect(existsSync(marker)).toBe(false);
    finished(second, 'a hare');
    second.close();

    // Written by something else after the clean close: checked again.
    const db = new Database(join(dir, 'atelier.db'));
    db.prepare("UPDATE jobs SET prompt = 'edited' WHERE prompt = 'a fox'").run();
    db.close();
    const third = openStore({ dataDir: dir });
    expect(third.info.integrityChecked).toBe(true);
    expect(
      third
        .list({ limit: 10, view: 'active' })
        .items.map((j) => j.prompt)
        .sort(),
    ).toEqual(['a hare', 'edited']);
    third.close();

    // A marker that does not parse is no proof either.
    writeFileSync(marker, '{not json');
    const fourth = openStore({ dataDir: dir });
    expect(fourth.info.integrityChecked).toBe(true);
    fourth.close();
  });

  it('lets only one store hold a library at a time, and frees it on close', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir });
    const error = storageError(() => openStore({ dataDir: dir }));
    expect(error.message).toMatch(/Another Atelier is already using the library/);
    expect(error.details).toMatchObject({ reason: 'library_locked' });
    first.close();
    openStore({ dataDir: dir }).close();
  });

  it('locks out a second process, and a killed holder leaves no stale lock', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('open')) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
      });
      expect(storageError(() => openStore({ dataDir: dir })).message).toMatch(/Another Atelier/);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    const store = open({ dataDir: dir });
    expect(store.submit(req()).created).toBe(true);
  });

  it('refuses calls after close', () => {
    const store = openStore({ dataDir: tempDir() });
    store.close();
    expect(() => store.list({ limit: 10, view: 'active' })).toThrow(/closed/);
    store.close();
  });

  it('reports slow statements by name, and only those over the threshold', () => {
    const reported: string[] = [];
    let t = 0;
    // Each timer read moves 50 ms: every timed statement looks slow.
    const slow = open({ onSlowQuery: (name) => reported.push(name), timer: () => (t += 50) });
    slow.submit(req());
    slow.list({ limit: 10, view: 'active', search: 'fox' });
    const unhurried = open({
      onSlowQuery: (name) => reported.push(`x${name}`),
      slowQueryMs: 1e9,
      timer: () => (t += 50),
    });
    unhurried.submit(req());
    expect(unhurried.stats().total).toBe(1);
    expect(reported.some((name) => name.startsWith('x'))).toBe(false);
    expect(reported).toContain('jobs.submit');
    expect(reported).toContain('jobs.insert');
    expect(reported).toContain('jobs.search.extent');
    expect(reported).toContain('jobs.list.search.newest');

    // The real timer and the default 40 ms threshold: these statements take well under a millisecond.
    const quiet: string[] = [];
    const fast = open({ onSlowQuery: (name) => quiet.push(name) });
    fast.submit(req());
    fast.list({ limit: 10, view: 'active' });
    expect(quiet).toEqual([]);
  });
});
