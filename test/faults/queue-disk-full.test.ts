/**
 * A full disk while jobs wait in the queue: the job whose end meets it is kept, the job queued behind it waits
 * visibly (jobs.stats and a jobs.queue event say "disk_space" in disk-full words) instead of sitting queued in
 * silence, and once space is freed the queue moves by itself: no restart, no new submit. On a real small tmpfs when
 * this runs as root (CI), with injected SQLITE_FULL and ENOSPC otherwise.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Events, QueueWait } from '../../shared/contract.js';
import { createEngine, type EngineTestSeams } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/types.js';
import { createHeldProvider, heldEntry } from '../fakes/held-provider.js';
import { memoryKeyring, waitFor, waitForStatus } from '../integration/engine/harness.js';
import { createDiskFault } from './disk-fault.js';
import { recordingLog, watchProcessCrashes } from './helpers.js';
import { CAN_MOUNT, fillDisk, tryMount, unmount } from './mount.js';

const DISK_FULL = /disk is full.*free some space/;
const job = { provider: 'held', width: 64, height: 64, count: 1 } as const;

/** Resolves with the first jobs.queue event that passes `wanted`, however soon it comes. */
function nextQueueEvent(engine: Engine, wanted: (waiting: QueueWait | null) => boolean): Promise<Events['jobs.queue']> {
  return new Promise((resolve) => {
    const off = engine.events.on('jobs.queue', (event) => {
      if (!wanted(event.waiting)) return;
      off();
      resolve(event);
    });
  });
}

describe('the queue on a full disk', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const variant = CAN_MOUNT
    ? 'a real 8 MB tmpfs, filled and freed'
    : 'injected SQLITE_FULL and ENOSPC: not root, no tmpfs';
  it(`waits visibly for disk space and moves by itself once it is freed (${variant})`, async () => {
    const crashes = watchProcessCrashes();
    cleanups.push(() => crashes.stop());
    const root = mkdtempSync(join(tmpdir(), 'atelier-queue-full-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const diskDir = join(root, 'disk');
    mkdirSync(diskDir);
    const dataDir = join(diskDir, 'data');
    let inject: Pick<EngineTestSeams, 'wrapDatabase' | 'mediaFs'> = {};
    let fill: () => void;
    let free: () => void;
    if (CAN_MOUNT && tryMount(['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', diskDir])) {
      cleanups.push(() => unmount(diskDir, true));
      let filler = '';
      fill = () => {
        // The WAL's spare room would take a few more writes on a full disk: emptied first, every write is refused.
        const db = new Database(join(dataDir, 'atelier.db'), { timeout: 5_000 });
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
        filler = fillDisk(diskDir);
      };
      free = () => rmSync(filler);
    } else {
      const disk = createDiskFault();
      inject = { wrapDatabase: disk.wrapDatabase, mediaFs: disk.fs };
      fill = () => disk.fillNow();
      free = () => disk.clear();
    }

    const held = createHeldProvider('held');
    const log = recordingLog();
    const engine = await createEngine(
      {
        dataDir,
        keyring: memoryKeyring(),
        log,
      },
      {
        // One job at a time on this server: the second waits in the queue behind the first.
        providers: [heldEntry(held, 1)],
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
        ...inject,
      },
    );
    cleanups.push(() => engine.close({ graceMs: 0 }));
    const { handlers } = engine;

    const first = (await handlers['jobs.submit']({ ...job, prompt: 'first: its images meet the full disk' })).job;
    const second = (await handlers['jobs.submit']({ ...job, prompt: 'second: queued behind it' })).job;
    const running = await held.started('first: its images meet the full disk');
    expect((await handlers['jobs.get']({ id: second.id })).status).toBe('queued');
    expect((await handlers['jobs.stats']({})).queue?.waiting).toBeNull();

    fill();
    const waiting = nextQueueEvent(engine, (w) => w !== null);
    running.finish();
    // The first job's end and the second's start are refused by the disk: the queue says so.
    const began = (await waiting).waiting!;
    // The first job's end went to the retry list; the second's claim was refused after it.
    await waitFor(() => log.has('the worker could not look for work'));
    expect(began.for).toBe('disk_space');
    expect(began.message).toMatch(DISK_FULL);
    const stats = await handlers['jobs.stats']({});
    expect(stats.queue?.waiting).toEqual(began);
    // Reads still answer: the second job is queued, not lost, and not started behind the person's back.
    expect((await handlers['jobs.get']({ id: second.id })).status).toBe('queued');
    expect(held.held.has('second: queued behind it')).toBe(false);

    const moving = nextQueueEvent(engine, (w) => w === null);
    free();
    // Nothing but the freed space sets it going: no restart, no new submit.
    const next = await held.started('second: queued behind it');
    await moving;
    next.finish();
    expect((await waitForStatus(engine, second.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const ended = await waitForStatus(engine, first.id, ['succeeded', 'failed']);
    expect(ended.status).toBe('failed');
    expect(ended.error?.code).toBe('storage');
    expect(ended.error?.message).toMatch(/disk is full/);
    expect((await handlers['jobs.stats']({})).queue?.waiting).toBeNull();
    expect(crashes.errors).toEqual([]);
  }, 60_000);
});
