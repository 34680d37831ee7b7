import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/db/store.js';
import { finished, image, manualClock, open, req, tempDir } from './helpers.js';

const RACER = fileURLToPath(new URL('../../fixtures/db/submit-race.ts', import.meta.url));
const run = promisify(execFile);

describe('favorites, trash, restore', () => {
  it('trashes terminal jobs only, restores them, and counts what changed', () => {
    const store = open();
    const done = finished(store);
    const queued = store.submit(req()).job.id;
    expect(store.trash([done, queued])).toBe(1);
    expect(store.get(done).trashedAt).not.toBeNull();
    expect(store.get(queued).trashedAt).toBeNull();
    expect(store.trash([done])).toBe(0);
    expect(store.restore([done])).toBe(1);
    expect(store.get(done).trashedAt).toBeNull();
    expect(store.setFavorite([done, queued], true)).toBe(2);
    expect(store.setFavorite([done], true)).toBe(0);
    expect(store.stats()).toMatchObject({ favorites: 2, trashed: 0 });
  });
});

describe('purge, empty trash, prune', () => {
  it('purges rows with their images and events and returns only files no other image references', () => {
    const store = open();
    const shared = 'library/ab/shared.png';
    const a = finished(store, 'a', {}, [image(0, shared, 500), image(1, 'library/cd/only-a.png', 700)]);
    const b = finished(store, 'b', {}, [image(0, shared, 500)]);
    const removed = store.purge([a]);
    expect(removed).toMatchObject({ removed: 1, ids: [a], bytesFreed: 700 });
    expect(removed.files.sort()).toEqual(['library/cd/only-a.png', 'thumbs/cd/only-a.webp']);
    expect(() => store.get(a)).toThrow(/no job/);
    expect(store.get(b).images).toHaveLength(1);
    const last = store.purge([b]);
    expect(last.files.sort()).toEqual([shared, 'thumbs/ab/shared.webp']);
    expect(last.bytesFreed).toBe(500);
    expect(store.stats()).toMatchObject({ total: 0, images: 0 });
    expect(store.imagePathsPage(null, 10)).toEqual([]);
  });

  it('empties the trash, and the automatic trash expiry spares favorites', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const old = finished(store, 'old', {}, [image(0)]);
    const fav = finished(store, 'fav');
    const kept = finished(store, 'kept');
    store.setFavorite([fav], true);
    store.trash([old, fav]);
    clock.advance(10 * 86_400_000);
    store.trash([kept]);
    const expired = store.emptyTrashOlderThan(86_400_000);
    expect(expired.ids).toEqual([old]);
    expect(expired.files).toHaveLength(2);
    const emptied = store.emptyTrash();
    expect(emptied.ids.sort()).toEqual([fav, kept].sort());
    expect(store.stats().total).toBe(0);
  });

  it('prunes by age, count and bytes into the trash, oldest first, never favorites or pending jobs, deleting nothing', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const ids = Array.from({ length: 6 }, (_, i) =>
      finished(store, `job ${i}`, {}, [image(0, `library/${i}.png`, 10_000)]),
    );
    store.setFavorite([ids[0]!], true);
    const pending = store.submit(req('pending')).job.id;
    clock.advance(1_000_000);
    const recent = finished(store, 'recent');
    const preview = store.previewPrune({ maxAgeMs: 500_000 });
    expect(preview).toMatchObject({ jobs: 5, images: 5, bytes: 50_000 });
    expect(store.stats().trashed).toBe(0);
    const aged = store.prune({ maxAgeMs: 500_000 });
    expect(aged.ids.sort()).toEqual(ids.slice(1).sort());
    expect(aged).toMatchObject({ jobs: 5, images: 5, bytes: 50_000 });
    expect(
      store
        .list({ limit: 60, view: 'active' })
        .items.map((j) => j.id)
        .sort(),
    ).toEqual([ids[0], pending, recent].sort());
    expect(
      store
        .list({ limit: 60, view: 'trash' })
        .items.map((j) => j.id)
        .sort(),
    ).toEqual(ids.slice(1).sort());
    expect(store.stats()).toMatchObject({ total: 8, trashed: 5, images: 6 });

    const more = Array.from({ length: 4 }, (_, i) => finished(store, `more ${i}`));
    // 7 jobs outside the trash, keep 5: the two oldest prunable move (ids are UUIDv7: sorted is creation order).
    expect(store.prune({ maxJobs: 5 }).ids.sort()).toEqual([recent, more[0]]);
    expect(store.stats().total - store.stats().trashed).toBe(5);
    const bytes = store.prune({ maxBytes: 1 });
    expect(bytes.ids.sort()).toEqual([more[1], more[2], more[3]]);
    // The favorite and the pending job remain outside; nothing was deleted.
    expect(
      store
        .list({ limit: 60, view: 'active' })
        .items.map((j) => j.id)
        .sort(),
    ).toEqual([ids[0], pending].sort());
    expect(store.stats().total).toBe(12);
    expect(store.prune({ maxAgeMs: 0, maxJobs: 1, maxBytes: 1 }).jobs).toBe(0);
  });

  it('summarises the trash with its favorites, and counts favorites outside it only', () => {
    const store = open();
    const a = finished(store, 'a', {}, [image(0, 'library/a.png', 100), image(1, 'library/b.png', 200)]);
    const b = finished(store, 'b', {}, [image(0, 'library/c.png', 300)]);
    const c = finished(store, 'c');
    store.setFavorite([a, c], true);
    store.trash([a, b]);
    expect(store.trashSummary()).toEqual({ jobs: 2, images: 3, looseImages: 0, bytes: 600, favorites: 1 });
    expect(store.stats()).toMatchObject({ favorites: 1, trashed: 2 });
    store.restore([a]);
    expect(store.stats().favorites).toBe(2);
    store.trash([a, c]);
    expect(store.stats().favorites).toBe(0);
    store.emptyTrash();
    expect(store.stats()).toMatchObject({ favorites: 0, trashed: 0, total: 0 });
  });
});

describe('stats and settings', () => {
  it('counts per status, trash, favorites, images and bytes', () => {
    const store = open();
    finished(store, 'a', {}, [image(0, 'library/a.png', 123)]);
    const b = store.submit(req('b')).job.id;
    store.claim(b);
    store.fail(b, { code: 'timeout', message: 'Too slow.', retryable: true });
    store.submit(req('c'));
    const stats = store.stats();
    expect(stats.byStatus).toEqual({ queued: 1, running: 0, succeeded: 1, failed: 1, cancelled: 0, interrupted: 0 });
    expect(stats).toMatchObject({ total: 3, images: 1, imageBytes: 123, trashed: 0, favorites: 0 });
    expect(stats.databaseBytes).toBeGreaterThan(0);
  });

  it('stores settings as JSON and refuses values that are not JSON', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    expect(store.getSetting('retention')).toBeNull();
    store.setSetting('retention', { maxJobs: 10, nested: [1, 'two'] });
    store.setSetting('theme', 'dark');
    store.setSetting('theme', 'light');
    expect(() => store.setSetting('bad', undefined)).toThrow(/no JSON value/);
    store.close();
    const reopened = open({ dataDir: dir });
    expect(reopened.getSetting('retention')).toEqual({ maxJobs: 10, nested: [1, 'two'] });
    expect(reopened.getSetting('theme')).toBe('light');
  });

  it('keeps the event trace append-only', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    finished(store);
    store.close();
    const db = new Database(join(dir, 'atelier.db'));
    expect(() => db.prepare("UPDATE job_events SET message = 'rewritten'").run()).toThrow(/append-only/);
    db.close();
  });
});

describe('concurrent submits with one key', () => {
  it('converge on one job per key across two connections in two processes', async () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const path = join(dir, 'atelier.db');
    // Both racers submit the same 150 keys at once. submit() takes the write lock first (BEGIN IMMEDIATE), so
    // lookup-then-insert is atomic; the unique index on the key hash backs it up (INSERT … ON CONFLICT DO NOTHING).
    const [one, two] = await Promise.all([
      run(process.execPath, ['--import', 'tsx', RACER, path, '150']),
      run(process.execPath, ['--import', 'tsx', RACER, path, '150']),
    ]);
    const a = JSON.parse(one.stdout) as Array<[string, string, boolean]>;
    const b = JSON.parse(two.stdout) as Array<[string, string, boolean]>;
    for (let i = 0; i < 150; i += 1) {
      expect(a[i]![1]).toBe(b[i]![1]);
      expect(Number(a[i]![2]) + Number(b[i]![2])).toBe(1);
    }
    const store = open({ dataDir: dir });
    expect(store.stats().total).toBe(150);
  }, 60_000);
});

describe('restore from files', () => {
  const entry = (jobId: string, index: number, path: string) => ({
    jobId,
    createdAt: 1_600_000_000_000 + index,
    request: req('a restored fox', { seed: 7 }),
    provider: 'builtin',
    seed: 7 + index,
    image: image(index, path, 500),
  });

  it('recreates succeeded jobs at their own time, joins images of one job, and never stores a file or slot twice', () => {
    const store = open();
    const jobId = '018bcfe5-6800-7000-8000-00000000aaaa';
    expect(store.restoreFromFiles([entry(jobId, 0, 'library/aa/0.png'), entry(jobId, 1, 'library/aa/1.png')])).toEqual({
      jobs: 1,
      images: 2,
      known: 0,
    });
    const job = store.get(jobId);
    expect(job).toMatchObject({
      status: 'succeeded',
      createdAt: 1_600_000_000_000,
      prompt: 'a restored fox',
      result: { seed: 7 },
    });
    expect(job.images.map((i) => i.index)).toEqual([0, 1]);
    // The same files again, and another file claiming a slot the job already has: nothing is added.
    expect(
      store.restoreFromFiles([entry(jobId, 0, 'library/aa/0.png'), entry(jobId, 1, 'library/bb/other.png')]),
    ).toEqual({ jobs: 0, images: 0, known: 2 });
    // A file some image already references, whatever job its record names, is known.
    expect(store.restoreFromFiles([entry('018bcfe5-6800-7000-8000-00000000bbbb', 0, 'library/aa/1.png')])).toEqual({
      jobs: 0,
      images: 0,
      known: 1,
    });
    expect(store.stats()).toMatchObject({ total: 1, images: 2, byStatus: { succeeded: 1 } });
    expect(store.list({ limit: 10, view: 'all', search: 'restored' }).items.map((j) => j.id)).toEqual([jobId]);
  });

  it("leaves a running job's images to the job itself (its file can be on disk before its row)", () => {
    const store = open();
    const { job } = store.submit(req('still rendering'));
    store.claim(job.id);
    expect(store.restoreFromFiles([entry(job.id, 0, 'library/cc/0.png')])).toEqual({ jobs: 0, images: 0, known: 1 });
    store.succeed(job.id, [image(0, 'library/cc/0.png')], { timings: {} });
    expect(store.get(job.id).images).toHaveLength(1);
  });
});
