/**
 * Start-up failures say what happened and what to do: a read-only library, a damaged database (naming the newest
 * backup and how to restore it), a lock left behind by a process that no longer exists (taken over), another live
 * Atelier (refused); and a backup is taken on every clean quit that changed something, the newest five kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createEngine, type EngineTestSeams } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/types.js';
import { openStore } from '../../electron/db/store.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';
import { runServe } from '../../electron/serve/run.js';
import { QUIT_BACKUPS_KEPT } from '../../electron/db/backups.js';
import { createScriptedProvider, scriptedEntry } from '../fakes/scripted-provider.js';
import { memoryKeyring, waitForStatus } from '../integration/engine/harness.js';
import { rejection } from './helpers.js';
import { CAN_CHATTR, CAN_MOUNT, tryMount, unmount } from './mount.js';

const HOLD_STORE = fileURLToPath(new URL('../fixtures/db/hold-store.ts', import.meta.url));
const HOLD_LOCK_FILE = fileURLToPath(new URL('../fixtures/db/hold-lock-file.ts', import.meta.url));
const base = { provider: 'scripted', prompt: 'a lighthouse at dusk', width: 64, height: 64, count: 1 } as const;
const RAW_SQLITE =
  /attempt to write a readonly database|database disk image is malformed|file is not a database|SQLITE_/;

let root: string;
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

const keyring = memoryKeyring();
let clockAt = Date.UTC(2026, 0, 2, 3, 4, 5);
async function engineOn(dataDir: string, extra: EngineTestSeams = {}): Promise<Engine> {
  const engine = await createEngine(
    {
      dataDir,
      keyring,
      // Each session a minute after the last: backup names are stamped by the clock.
      clock: { now: () => (clockAt += 60_000) },
    },
    {
      providers: [scriptedEntry(createScriptedProvider('scripted'))],
      orphanGraceMs: 0,
      housekeepingDelayMs: 0,
      maintenanceIntervalMs: 0,
      ...extra,
    },
  );
  return engine;
}

async function libraryWithAJob(dataDir: string): Promise<string> {
  const engine = await engineOn(dataDir);
  const { job } = await engine.handlers['jobs.submit'](base);
  await waitForStatus(engine, job.id, ['succeeded']);
  await engine.close({ graceMs: 0 });
  return job.id;
}

async function startFailure(dataDir: string, extra = {}): Promise<AppError> {
  const error = (await rejection(engineOn(dataDir, extra))) as AppError;
  expect(error).toBeInstanceOf(AppError);
  expect(error.code).toBe('storage');
  expect(error.message).not.toMatch(RAW_SQLITE);
  return error;
}

function spawnChild(script: string, arg: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, arg], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stdout!.on('data', () => resolve(child));
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** The connection SQLite opens read-only without a word: the first write of the open (the probe) is refused. */
function refusingWrites(db: Database.Database): Database.Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'pragma') {
        return (source: string, options?: Database.PragmaOptions) => {
          if (/^user_version\s*=/.test(source))
            throw new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY');
          return target.pragma(source, options);
        };
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

describe('a read-only library', () => {
  const dirVariant = CAN_MOUNT
    ? 'a read-only bind mount'
    : process.getuid?.() === 0
      ? 'injected SQLITE_READONLY'
      : 'chmod 0555';
  it(`says the folder is read-only and what to do, not SQLite's words (${dirVariant})`, async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-ro-'));
    const drive = join(root, 'drive');
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    const id = await libraryWithAJob(drive);
    let extra = {};
    let expected: RegExp;
    if (CAN_MOUNT) {
      expect(tryMount(['--bind', drive, dataDir])).toBe(true);
      cleanups.push(() => unmount(dataDir));
      expect(tryMount(['-o', 'remount,ro,bind', dataDir])).toBe(true);
      expected =
        /library folder \(.*\): the disk or folder is read-only\. Make it writable.*start Atelier again\. Nothing was changed/;
    } else if (process.getuid?.() === 0) {
      rmSync(dataDir, { recursive: true });
      renameSync(drive, dataDir);
      extra = { wrapDatabase: refusingWrites };
      expected = /library folder \(.*\): the disk or folder is read-only\. Make it writable.*start Atelier again/;
    } else {
      rmSync(dataDir, { recursive: true });
      renameSync(drive, dataDir);
      chmodSync(dataDir, 0o555);
      cleanups.push(() => chmodSync(dataDir, 0o755));
      // Checked as `nobody` by hand: SQLite reports the folder it may not write to as read-only.
      expected =
        /library folder \(.*\): the disk or folder is read-only\. Make it writable.*start Atelier again\. Nothing was changed/;
    }
    expect((await startFailure(dataDir, extra)).message).toMatch(expected);
    // Writable again: it opens with nothing lost.
    for (const c of cleanups.splice(0).reverse()) await c();
    const reopened = await engineOn(CAN_MOUNT ? drive : dataDir);
    expect((await reopened.handlers['jobs.get']({ id })).status).toBe('succeeded');
    await reopened.close({ graceMs: 0 });
  });

  const fileVariant = CAN_CHATTR
    ? 'chattr +i on atelier.db'
    : process.getuid?.() === 0
      ? 'injected SQLITE_READONLY: no chattr here'
      : 'chmod 0444 on atelier.db';
  it(`a database file Atelier may not write is refused at start, not at the first save (${fileVariant})`, async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-ro-'));
    const dataDir = join(root, 'data');
    await libraryWithAJob(dataDir);
    const db = join(dataDir, 'atelier.db');
    let extra = {};
    if (CAN_CHATTR) {
      execFileSync('chattr', ['+i', db], { stdio: 'ignore' });
      cleanups.push(() => void execFileSync('chattr', ['-i', db], { stdio: 'ignore' }));
    } else if (process.getuid?.() === 0) {
      extra = { wrapDatabase: refusingWrites };
    } else {
      chmodSync(db, 0o444);
    }
    expect((await startFailure(dataDir, extra)).message).toMatch(/read-only\. Make it writable.*start Atelier again/);
  });
});

describe('npm run serve on a read-only library', () => {
  const variant = CAN_MOUNT
    ? 'a read-only bind mount'
    : process.getuid?.() === 0
      ? 'injected SQLITE_READONLY'
      : 'chmod 0555';
  it(`fails to start with the same words, not a raw mkdir or SQLite error (${variant})`, async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-ro-serve-'));
    const drive = join(root, 'drive');
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    await libraryWithAJob(drive);
    let extra = {};
    if (CAN_MOUNT) {
      expect(tryMount(['--bind', drive, dataDir])).toBe(true);
      cleanups.push(() => unmount(dataDir));
      expect(tryMount(['-o', 'remount,ro,bind', dataDir])).toBe(true);
    } else {
      rmSync(dataDir, { recursive: true });
      renameSync(drive, dataDir);
      if (process.getuid?.() === 0) extra = { wrapDatabase: refusingWrites };
      else {
        chmodSync(dataDir, 0o555);
        cleanups.push(() => chmodSync(dataDir, 0o755));
      }
    }
    const stderr: string[] = [];
    const error = (await rejection(
      runServe(['--data-dir', dataDir, '--renderer-dir', root], {
        createEngine: (options) => createEngine(options, extra),
        createKeyring: createFileKeyring,
        stdout: () => undefined,
        stderr: (line) => stderr.push(line),
      }),
    )) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.message).toMatch(
      /library folder \(.*\): the disk or folder is read-only\. Make it writable.*start Atelier again/,
    );
    expect(error.message).not.toMatch(RAW_SQLITE);
    expect(error.message).not.toMatch(/ENOENT|EROFS|mkdir/);
  });
});

describe('a damaged database', () => {
  it('names the newest backup and how to restore it; following the steps brings the library back', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-damaged-'));
    const dataDir = join(root, 'data');
    const id = await libraryWithAJob(dataDir);
    const backups = readdirSync(join(dataDir, 'backups'));
    expect(backups).toHaveLength(1);
    // Garbage over the header: "file is not a database" in SQLite's words.
    const fd = openSync(join(dataDir, 'atelier.db'), 'r+');
    writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    closeSync(fd);
    const error = await startFailure(dataDir);
    const backup = join(dataDir, 'backups', backups[0]!);
    expect(error.message).toMatch(/library database \(.*atelier\.db\) is damaged/);
    expect(error.message).toContain(`The newest backup is ${backup}`);
    expect(error.message).toMatch(
      /move atelier\.db, atelier\.db-wal and atelier\.db-shm out of .*, copy the backup to .*atelier\.db, then start Atelier again/,
    );
    expect(error.details).toMatchObject({ reason: 'damaged', backup: `backups/${backups[0]}` });

    // The steps, as a person would follow them.
    mkdirSync(join(root, 'aside'));
    for (const f of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm'])
      if (existsSync(join(dataDir, f))) renameSync(join(dataDir, f), join(root, 'aside', f));
    copyFileSync(backup, join(dataDir, 'atelier.db'));
    const restored = await engineOn(dataDir);
    expect((await restored.handlers['jobs.get']({ id })).status).toBe('succeeded');
    await restored.close({ graceMs: 0 });
  });

  it('a malformed page found by the integrity check, with no backup yet, says so and how to start afresh', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-damaged-'));
    const dataDir = join(root, 'data');
    const store = openStore({ dataDir });
    for (let i = 0; i < 50; i += 1) store.submit({ ...base, prompt: `prompt number ${i} `.repeat(20) });
    store.close();
    const raw = new Database(join(dataDir, 'atelier.db'));
    const rootPage = (
      raw.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'jobs_created'").get() as { rootpage: number }
    ).rootpage;
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    raw.close();
    rmSync(join(dataDir, 'atelier.db.clean-close'), { force: true });
    const fd = openSync(join(dataDir, 'atelier.db'), 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (rootPage - 1) * pageSize);
    closeSync(fd);
    const error = await startFailure(dataDir);
    expect(error.message).toMatch(/is damaged \([^]+\), so Atelier did not open it and changed nothing/);
    expect(error.message).toMatch(
      /There is no backup in .*backups yet\. To start a new history, quit Atelier and move atelier\.db/,
    );
    expect(error.details).toMatchObject({ reason: 'damaged', backup: null });
  });
});

describe('the library lock', () => {
  it('a damaged lock file left by a dead process is taken over; a live Atelier still refuses the next one', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-lock-'));
    const dataDir = join(root, 'data');
    await libraryWithAJob(dataDir);
    writeFileSync(join(dataDir, 'atelier.lock'), Buffer.alloc(4096, 0x42));
    const store = openStore({ dataDir });
    cleanups.push(() => store.close());
    expect(existsSync(join(dataDir, 'atelier.lock.stale'))).toBe(true);
    const refused = (() => {
      try {
        openStore({ dataDir });
      } catch (error) {
        return error as AppError;
      }
      throw new Error('a second store opened the same library');
    })();
    expect(refused.message).toMatch(
      new RegExp(`Another Atelier is already using the library in .* \\(process ${process.pid} on `),
    );
  });

  it('a lock the file system never released, whose recorded holder is dead, is taken over without a person', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-lock-'));
    const dataDir = join(root, 'data');
    await libraryWithAJob(dataDir);
    const lockPath = join(dataDir, 'atelier.lock');
    // The lock outlives its holder (as on a network share), and the holder recorded itself before it crashed.
    await spawnChild(HOLD_LOCK_FILE, lockPath);
    const dead = await deadPid();
    writeFileSync(join(`${lockPath}.holders`, `${dead}-crashed.json`), JSON.stringify({ pid: dead, host: hostname() }));
    const store = openStore({ dataDir });
    cleanups.push(() => store.close());
    expect(store.list({ limit: 5, view: 'active' }).items).toHaveLength(1);
    // The dead holder's record is gone; the stuck file was set aside, not deleted.
    expect(readdirSync(`${lockPath}.holders`).some((n) => n.startsWith(`${dead}-`))).toBe(false);
    expect(existsSync(`${lockPath}.stale`)).toBe(true);
  });

  it('a lock held by another live Atelier is refused, naming it, and never taken over', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-lock-'));
    const dataDir = join(root, 'data');
    await libraryWithAJob(dataDir);
    const holder = await spawnChild(HOLD_STORE, dataDir);
    // Even with a dead process's record lying beside the live one.
    const dead = await deadPid();
    writeFileSync(
      join(dataDir, 'atelier.lock.holders', `${dead}-crashed.json`),
      JSON.stringify({ pid: dead, host: hostname() }),
    );
    const error = await startFailure(dataDir);
    expect(error.message).toMatch(
      new RegExp(
        `Another Atelier is already using the library in .* \\(process ${holder.pid} on .*\\)\\. Close it first`,
      ),
    );
    expect(error.details).toMatchObject({ reason: 'library_locked', pid: holder.pid });
    expect(existsSync(join(dataDir, 'atelier.lock.stale'))).toBe(false);
  });
});

describe('backups on a clean quit', () => {
  it('one per quit that changed something, none for a quit that did not, the newest five kept, migration copies untouched', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-backups-'));
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'backups'), { recursive: true });
    writeFileSync(join(dataDir, 'backups', 'atelier-v1-20250101T000000Z.db'), 'a migration copy');
    const quitBackups = () =>
      readdirSync(join(dataDir, 'backups'))
        .filter((n) => n.startsWith('atelier-quit-'))
        .sort();

    const made: string[] = [];
    for (let session = 1; session <= QUIT_BACKUPS_KEPT + 2; session += 1) {
      const engine = await engineOn(dataDir);
      await engine.handlers['settings.update']({ concurrency: { global: 1 + (session % 3) } });
      await engine.close({ graceMs: 0 });
      const now = quitBackups();
      made.push(now.at(-1)!);
      expect(new Set(made).size).toBe(session);
    }
    expect(quitBackups()).toEqual(made.slice(-QUIT_BACKUPS_KEPT));

    // Opened and closed without a change: no new copy.
    const idle = await engineOn(dataDir);
    await idle.close({ graceMs: 0 });
    expect(quitBackups()).toEqual(made.slice(-QUIT_BACKUPS_KEPT));
    expect(existsSync(join(dataDir, 'backups', 'atelier-v1-20250101T000000Z.db'))).toBe(true);
    expect(readdirSync(join(dataDir, 'backups')).filter((n) => n.endsWith('.part'))).toEqual([]);

    // The newest copy is a whole database holding the last change.
    const copy = new Database(join(dataDir, 'backups', made.at(-1)!), { readonly: true });
    try {
      expect(copy.pragma('quick_check', { simple: true }) as string).toBe('ok');
      const row = copy.prepare("SELECT value_json FROM settings WHERE key = 'settings'").get() as
        { value_json: string } | undefined;
      expect(row?.value_json).toContain(`"global":${1 + ((QUIT_BACKUPS_KEPT + 2) % 3)}`);
    } finally {
      copy.close();
    }
  });
});
