import { statSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFolderWatcher,
  type FolderWatcher,
  type WatchBatch,
  type WatchStatus,
} from '../../../electron/library/watch/index.js';
import { SettleQueue, type SettleOutcome } from '../../../electron/library/watch/settle.js';
import { AppError } from '../../../shared/errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the condition holds; the timeout is generous because the machine is shared. */
async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface Seen extends WatchBatch {
  /** Each upserted file's size when it was reported. */
  sizes: number[];
}

interface Fixture {
  base: string;
  root: string;
  snapshots: string;
  batches: Seen[];
  statuses: [string, WatchStatus][];
  warnings: string[];
  watcher: FolderWatcher;
  upserted(): string[];
  removed(): string[];
}

const fixtures: Fixture[] = [];

async function setup(options: { settleMs?: number; throwFirst?: boolean } = {}): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), 'atelier-watch-'));
  const root = join(base, 'outputs');
  const snapshots = join(base, 'data', 'watch');
  await mkdir(root, { recursive: true });
  const batches: Seen[] = [];
  const statuses: [string, WatchStatus][] = [];
  const warnings: string[] = [];
  let calls = 0;
  const watcher = createFolderWatcher({
    snapshotDir: snapshots,
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    onChanges(batch) {
      calls += 1;
      batches.push({
        ...batch,
        sizes: batch.upserted.map((p) => {
          try {
            return statSync(p).size;
          } catch {
            return -1;
          }
        }),
      });
      if (options.throwFirst === true && calls === 1) throw new Error('handler broke');
    },
    onStatus: (rootId, status) => statuses.push([rootId, status]),
    log: { info: () => {}, warn: (message) => warnings.push(message) },
  });
  const fixture: Fixture = {
    base,
    root,
    snapshots,
    batches,
    statuses,
    warnings,
    watcher,
    upserted: () => batches.flatMap((b) => b.upserted),
    removed: () => batches.flatMap((b) => b.removed),
  };
  fixtures.push(fixture);
  return fixture;
}

afterEach(async () => {
  for (const f of fixtures.splice(0)) {
    await f.watcher.close();
    await rm(f.base, { recursive: true, force: true });
  }
});

describe('folder watcher: live changes', () => {
  it('reports a file written in three chunks once, after its last chunk', async () => {
    const f = await setup({ settleMs: 800 });
    await f.watcher.watch('r1', f.root);
    const file = join(f.root, 'big.png');
    const chunk = Buffer.alloc(256 * 1024, 7);
    await writeFile(file, chunk);
    await sleep(150);
    await appendFile(file, chunk);
    await sleep(150);
    await appendFile(file, chunk);
    await until(() => f.upserted().includes(file), 'the file to be reported');
    // A later file marks the end of what the first could still have caused.
    const later = join(f.root, 'later.png');
    await writeFile(later, 'x');
    await until(() => f.upserted().includes(later), 'the later file');
    expect(f.upserted().filter((p) => p === file)).toHaveLength(1);
    const batch = f.batches.find((b) => b.upserted.includes(file))!;
    expect(batch.sizes[batch.upserted.indexOf(file)]).toBe(3 * chunk.length);
    expect(f.removed()).toEqual([]);
  });

  it('reports a burst of files in one batch', async () => {
    const f = await setup();
    await f.watcher.watch('r1', f.root);
    const files = Array.from({ length: 8 }, (_, i) => join(f.root, `img-${i}.png`));
    for (const file of files) await writeFile(file, 'png');
    await until(() => files.every((file) => f.upserted().includes(file)), 'every file');
    expect(f.batches.filter((b) => b.upserted.some((p) => files.includes(p)))).toHaveLength(1);
  });

  it('reports a deleted file in removed, even after the change handler threw', async () => {
    const f = await setup({ throwFirst: true });
    const file = join(f.root, 'old.png');
    await writeFile(file, 'old');
    await f.watcher.watch('r1', f.root);
    await writeFile(join(f.root, 'first.png'), 'x');
    await until(() => f.batches.length === 1, 'the first batch');
    await rm(file);
    await until(() => f.removed().includes(file), 'the removal');
    expect(f.upserted()).not.toContain(file);
    expect(f.warnings).toContain('The watched-folder change handler failed.');
    expect(f.watcher.status('r1')).toBe('watching');
  });

  it('reports a rename as the old path removed and the new one upserted', async () => {
    const f = await setup();
    await mkdir(join(f.root, 'day1'));
    const from = join(f.root, 'a.png');
    const to = join(f.root, 'day1', 'b.png');
    await writeFile(from, 'a');
    await f.watcher.watch('r1', f.root);
    await rename(from, to);
    await until(() => f.removed().includes(from) && f.upserted().includes(to), 'both sides of the rename');
    expect(f.upserted()).not.toContain(from);
  });

  it("reports a new nested folder's files, never the folders", async () => {
    const f = await setup();
    await f.watcher.watch('r1', f.root);
    const nested = join(f.root, '2026-12-01', 'batch');
    await mkdir(nested, { recursive: true });
    const file = join(nested, '00001.png');
    await writeFile(file, 'x');
    await until(() => f.upserted().includes(file), 'the nested file');
    expect(f.upserted()).toEqual([file]);
  });

  it('reports the files of a folder moved in whole, and later files in its sub-folders', async () => {
    const f = await setup();
    await f.watcher.watch('r1', f.root);
    const outside = join(f.base, 'elsewhere');
    await mkdir(join(outside, 'deep'), { recursive: true });
    await writeFile(join(outside, 'top.png'), 't');
    await writeFile(join(outside, 'deep', 'inner.png'), 'i');
    const moved = join(f.root, 'moved');
    await rename(outside, moved);
    const expected = [join(moved, 'top.png'), join(moved, 'deep', 'inner.png')];
    await until(() => expected.every((p) => f.upserted().includes(p)), "the moved folder's files");
    // The extra watch on the moved folder starts after its files are reported: write new files until one is seen.
    let seen = false;
    for (let i = 0; i < 10 && !seen; i += 1) {
      const later = join(moved, 'deep', `later-${i}.png`);
      await writeFile(later, 'l');
      seen = await until(() => f.upserted().includes(later), 'a later file', 1500).then(
        () => true,
        () => false,
      );
    }
    expect(seen).toBe(true);
    expect(f.upserted()).not.toContain(moved);
    expect(f.upserted()).not.toContain(join(moved, 'deep'));
  });

  it('ignores hidden files and folders and temp names', async () => {
    const f = await setup();
    await f.watcher.watch('r1', f.root);
    await mkdir(join(f.root, '.thumbs'));
    const ignored = ['.DS_Store', '.thumbs/a.png', 'a.png.tmp', 'b.png.part', 'c.png.crdownload', 'd.png~'].map((n) =>
      join(f.root, n),
    );
    for (const file of ignored) await writeFile(file, 'x');
    const visible = join(f.root, 'notes.txt');
    await writeFile(visible, 'a sidecar');
    await until(() => f.upserted().includes(visible), 'the visible file');
    // A barrier, not a wait: a file written after all of them settles after them (one queue, one settle time), so
    // once it is reported any ignored file that was going to be reported would have been.
    const after = join(f.root, 'after.txt');
    await writeFile(after, 'written last');
    await until(() => f.upserted().includes(after), 'the file written last');
    expect(f.upserted()).toEqual([visible, after]);
  });

  it('watches a root that lies inside a hidden folder', async () => {
    const f = await setup();
    const root = join(f.base, '.local', 'outputs');
    await mkdir(root, { recursive: true });
    await f.watcher.watch('r1', root);
    const file = join(root, 'x.png');
    await writeFile(file, 'x');
    await until(() => f.upserted().includes(file), 'the file');
  });

  it('stops reporting a root once it is unwatched', async () => {
    const f = await setup();
    const other = join(f.base, 'other');
    await mkdir(other);
    await f.watcher.watch('r1', f.root);
    await f.watcher.watch('r2', other);
    const first = join(f.root, 'first.png');
    await writeFile(first, 'x');
    await until(() => f.upserted().includes(first), 'the first file');
    await f.watcher.unwatch('r1');
    expect(f.watcher.status('r1')).toBe('stopped');
    const unseen = join(f.root, 'unseen.png');
    await writeFile(unseen, 'x');
    const sentinel = join(other, 'sentinel.png');
    await writeFile(sentinel, 'x');
    // A barrier, not a wait: the sentinel was written after the unseen file and settles after it, so once the
    // sentinel is reported the unseen file would have been too, were r1 still watched.
    await until(() => f.upserted().includes(sentinel), 'the other root');
    expect(f.upserted()).not.toContain(unseen);
    expect(f.batches.every((b) => b.rootId === 'r1' || b.upserted.every((p) => p.startsWith(other)))).toBe(true);
  });

  it('marks a root deleted while watched as failed, without crashing', async () => {
    const f = await setup();
    await writeFile(join(f.root, 'a.png'), 'a');
    await f.watcher.watch('r1', f.root);
    await rm(f.root, { recursive: true });
    await until(() => f.watcher.status('r1') === 'failed', 'the failed status');
    expect(f.statuses).toEqual([['r1', 'failed']]);
    await f.watcher.unwatch('r1');
    expect(f.watcher.status('r1')).toBe('stopped');
  });

  it('marks a root moved away while watched as failed', async () => {
    const f = await setup();
    await f.watcher.watch('r1', f.root);
    await rename(f.root, join(f.base, 'renamed'));
    await until(() => f.watcher.status('r1') === 'failed', 'the failed status');
  });

  it('never watches nor reports an excluded folder inside the root (the data dir), live or since a checkpoint', async () => {
    const f = await setup();
    const data = join(f.root, 'Atelier');
    await mkdir(join(data, 'thumbs'), { recursive: true });
    await f.watcher.watch('r1', f.root, [data]);
    // Atelier's own files, written before the sentinel: were they reported, they would be by the sentinel's batch.
    const own = [join(data, 'thumbs', 'a.webp'), join(data, 'library', 'b.png')];
    await mkdir(join(data, 'library'));
    for (const file of own) await writeFile(file, 'x');
    const sentinel = join(f.root, 'sentinel.png');
    await writeFile(sentinel, 's');
    await until(() => f.upserted().includes(sentinel), 'the sentinel');
    expect(f.upserted()).toEqual([sentinel]);
    await f.watcher.checkpoint('r1', f.root, [data]);
    await writeFile(join(data, 'thumbs', 'c.webp'), 'x');
    const later = join(f.root, 'later.png');
    await writeFile(later, 'l');
    // The live watch shares its tree with the checkpoint's reader: once it has the new file, so does the reader.
    await until(() => f.upserted().includes(later), 'the later file, live');
    expect(await f.watcher.changesSince('r1', f.root, [data])).toEqual({ upserted: [later], removed: [] });
  });

  it('a root deleted while watched: reported removed at once, and watched again (every file reported) once it is back', async () => {
    const f = await setup();
    await writeFile(join(f.root, 'a.png'), 'a');
    await f.watcher.watch('r1', f.root);
    await rm(f.root, { recursive: true });
    await until(() => f.removed().includes(f.root) && f.watcher.status('r1') === 'failed', 'the root reported removed');
    await mkdir(f.root);
    const back = [join(f.root, 'a.png'), join(f.root, 'sub', 'b.png')];
    await mkdir(join(f.root, 'sub'));
    for (const file of back) await writeFile(file, 'x');
    await until(
      () => back.every((p) => f.upserted().includes(p)) && f.watcher.status('r1') === 'watching',
      'the files of the folder that came back',
    );
    expect(f.statuses).toEqual([
      ['r1', 'failed'],
      ['r1', 'watching'],
    ]);
    // Live again: a file written now is reported too.
    const fresh = join(f.root, 'fresh.png');
    await writeFile(fresh, 'f');
    await until(() => f.upserted().includes(fresh), 'a file written after the return');
  });

  it('a root replaced by a link: failed and reported removed, the link named (not the watch limit), taken back as a folder', async () => {
    const f = await setup();
    const elsewhere = join(f.base, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'outside.png'), 'o');
    await f.watcher.watch('r1', f.root);
    await rm(f.root, { recursive: true });
    await symlink(elsewhere, f.root);
    await until(() => f.removed().includes(f.root) && f.watcher.status('r1') === 'failed', 'the root reported removed');
    // What a restart sees: the link is refused by name.
    const error = await f.watcher.watch('r2', f.root).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'not_found', details: { reason: 'folder_replaced_by_link', link: elsewhere } });
    expect((error as Error).message).toMatch(/was replaced by a link/);
    expect((error as Error).message).not.toMatch(/max_user_watches|limit/);
    await rm(f.root);
    await mkdir(f.root);
    const real = join(f.root, 'real.png');
    await writeFile(real, 'r');
    await until(() => f.upserted().includes(real) && f.watcher.status('r1') === 'watching', 'the real folder again');
    expect(f.upserted().some((p) => p.includes('outside'))).toBe(false);
  });

  it('refuses a missing root, a relative root and an unsafe id with a structured error', async () => {
    const f = await setup();
    await expect(f.watcher.watch('r1', join(f.base, 'nope'))).rejects.toMatchObject({ code: 'not_found' });
    expect(f.watcher.status('r1')).toBe('failed');
    await expect(f.watcher.watch('r2', 'outputs')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(f.watcher.checkpoint('../escape', f.root)).rejects.toBeInstanceOf(AppError);
    await expect(f.watcher.watch('.hidden', f.root)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await readdir(f.base)).toEqual(['outputs']);
  });
});

describe('folder watcher: changes while Atelier was closed', () => {
  it('finds a file added and one removed while no watcher ran', async () => {
    const f = await setup();
    const kept = join(f.root, 'kept.png');
    const gone = join(f.root, 'gone.png');
    await writeFile(kept, 'k');
    await writeFile(gone, 'g');
    expect(await f.watcher.changesSince('r1', f.root)).toBeNull();
    await f.watcher.checkpoint('r1', f.root);
    await f.watcher.close();

    const added = join(f.root, 'new', 'added.png');
    await mkdir(join(f.root, 'new'));
    await writeFile(added, 'a');
    await writeFile(join(f.root, '.hidden.png'), 'h');
    await rm(gone);

    const next = createFolderWatcher({ snapshotDir: f.snapshots, onChanges: () => {} });
    try {
      const changes = await next.changesSince('r1', f.root);
      expect(changes).toEqual({ upserted: [added], removed: [gone] });
    } finally {
      await next.close();
    }
    // Nothing written outside the snapshot folder, nothing left half-written in it.
    expect(await readdir(f.snapshots)).toEqual(['r1.snapshot']);
    expect((await readdir(f.base)).sort()).toEqual(['data', 'outputs']);
  });

  it('answers null for a root with no snapshot and for a forgotten one, not_found for a missing root', async () => {
    const f = await setup();
    await f.watcher.checkpoint('r1', f.root);
    expect(await f.watcher.changesSince('r1', f.root)).toEqual({ upserted: [], removed: [] });
    expect(await f.watcher.changesSince('r2', f.root)).toBeNull();
    await f.watcher.forget('r1');
    expect(await f.watcher.changesSince('r1', f.root)).toBeNull();
    await rm(f.root, { recursive: true });
    await expect(f.watcher.changesSince('r2', f.root)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('settle queue: events the native watcher misses', () => {
  it('holds back a file that keeps growing after its only event until its size and mtime settle', async () => {
    const base = await mkdtemp(join(tmpdir(), 'atelier-settle-'));
    const outcomes: (SettleOutcome & { size: number })[] = [];
    const file = join(base, 'growing.png');
    const queue = new SettleQueue({
      root: base,
      settleMs: 600,
      onSettled: (outcome) =>
        outcomes.push({ ...outcome, size: outcome.upserted.includes(file) ? statSync(file).size : -1 }),
      warn: () => {},
    });
    try {
      const chunk = Buffer.alloc(64 * 1024, 1);
      await writeFile(file, chunk);
      // One event, then writes nobody reports (a network drive, a folder not watched yet).
      queue.touch(file);
      const chunks = 20;
      for (let i = 1; i < chunks; i += 1) {
        await sleep(100);
        await appendFile(file, chunk);
      }
      await until(() => outcomes.some((o) => o.upserted.includes(file)), 'the grown file');
      expect(outcomes.filter((o) => o.upserted.includes(file)).map((o) => o.size)).toEqual([chunks * chunk.length]);
    } finally {
      queue.stop();
      await rm(base, { recursive: true, force: true });
    }
  });

  it('still reports a file whose mtime lies in the future (a skewed clock) once two stats agree', async () => {
    const base = await mkdtemp(join(tmpdir(), 'atelier-settle-'));
    const outcomes: SettleOutcome[] = [];
    const file = join(base, 'from-the-future.png');
    const queue = new SettleQueue({ root: base, settleMs: 300, onSettled: (o) => outcomes.push(o), warn: () => {} });
    try {
      await writeFile(file, 'x');
      const anHourAhead = new Date(Date.now() + 3_600_000);
      await utimes(file, anHourAhead, anHourAhead);
      queue.touch(file);
      await until(() => outcomes.some((o) => o.upserted.includes(file)), 'the file');
      expect(outcomes.flatMap((o) => o.upserted)).toEqual([file]);
    } finally {
      queue.stop();
      await rm(base, { recursive: true, force: true });
    }
  });
});
