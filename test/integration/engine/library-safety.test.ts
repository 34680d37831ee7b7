import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { JobDetail } from '../../../shared/contract.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const DAY = 86_400_000;

async function make(h: Harness, n: number, from = 0): Promise<JobDetail[]> {
  const jobs: JobDetail[] = [];
  for (let i = from; i < from + n; i += 1) {
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'scripted',
      prompt: `job ${i}`,
      width: 64,
      height: 64,
      count: 1,
      seed: i + 1,
    });
    jobs.push(await waitForStatus(h.engine, job.id, ['succeeded']));
  }
  return jobs;
}

const scripted = () => ({ providers: [scriptedEntry(createScriptedProvider(), 1)] });

describe('orphans are kept, counted and removed only on a counted confirmation', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('moves an orphan beside a healthy database to orphans/, counts it in stats, and removes it only for the right count', async () => {
    h = await startHarness(scripted());
    await make(h, 3);
    await h.engine.close();
    const orphans = ['aa', 'bb'].map((shard) => {
      mkdirSync(join(h.dataDir, 'library', shard), { recursive: true });
      const path = join(h.dataDir, 'library', shard, `${shard[0]!.repeat(62)}.png`);
      writeFileSync(path, `orphan ${shard}`);
      const old = new Date(Date.now() - 2 * 3_600_000);
      utimesSync(path, old, old);
      return path;
    });

    await h.open({ ...scripted(), orphanGraceMs: 3_600_000 });
    const stats = await waitFor(async () => {
      const s = await h.engine.handlers['jobs.stats']({});
      return s.recovery.state === 'checking' ? undefined : s;
    });
    expect(stats.recovery.state).toBe('ok');
    expect(stats.orphans).toEqual({ files: 2, bytes: 2 * 'orphan aa'.length });
    for (const path of orphans) {
      expect(existsSync(path)).toBe(false);
      expect(existsSync(path.replace(`${h.dataDir}/library`, `${h.dataDir}/orphans/library`))).toBe(true);
    }

    const wrong = await h.engine.handlers['library.removeOrphans']({ expectedCount: 1 }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AppError);
    expect(wrong).toMatchObject({ code: 'conflict', details: { expectedCount: 1, actualCount: 2 } });
    expect((await h.engine.handlers['jobs.stats']({})).orphans.files).toBe(2);

    expect(await h.engine.handlers['library.removeOrphans']({ expectedCount: 2 })).toEqual({
      removed: 2,
      bytesFreed: 18,
    });
    expect((await h.engine.handlers['jobs.stats']({})).orphans).toEqual({ files: 0, bytes: 0 });
    // The history was never touched.
    expect((await h.engine.handlers['jobs.stats']({})).total).toBe(3);
  });
});

describe('retention moves jobs to the trash, never deletes them', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('limit 8 of 16: a preview says what moves; saving moves the 8 oldest non-favorites to the trash, files kept', async () => {
    h = await startHarness(scripted());
    const jobs = await make(h, 16);
    // Two of the oldest are favorites: they never move, so the next-oldest go instead.
    await h.engine.handlers['jobs.setFavorite']({ ids: [jobs[0]!.id, jobs[2]!.id], favorite: true });
    const expected = jobs.filter((_, i) => i !== 0 && i !== 2).slice(0, 8);
    const bytes = expected.reduce((sum, j) => sum + j.images[0]!.bytes, 0);

    const preview = await h.engine.handlers['jobs.previewRetention']({ maxJobs: 8, maxBytes: null, maxAgeDays: null });
    expect(preview).toEqual({ jobs: 8, images: 8, bytes });
    // A preview changes nothing.
    expect((await h.engine.handlers['jobs.stats']({})).trashed).toBe(0);

    await h.engine.handlers['settings.update']({ retention: { maxJobs: 8 } });
    const stats = await h.engine.handlers['jobs.stats']({});
    expect(stats).toMatchObject({ total: 16, trashed: 8, favorites: 2 });
    const trash = await h.engine.handlers['jobs.list']({ view: 'trash', limit: 60 });
    expect(trash.items.map((j) => j.id).sort()).toEqual(expected.map((j) => j.id).sort());
    for (const job of expected) expect(existsSync(h.engine.resolveMedia('image', job.images[0]!.id)!.path)).toBe(true);
    const active = await h.engine.handlers['jobs.list']({ view: 'active', limit: 60 });
    expect(active.items.map((j) => j.id)).toEqual(expect.arrayContaining([jobs[0]!.id, jobs[2]!.id]));
    expect(active.items).toHaveLength(8);
    // Already within the limit: the next preview moves nothing.
    expect(await h.engine.handlers['jobs.previewRetention']({ maxJobs: 8, maxBytes: null, maxAgeDays: null })).toEqual({
      jobs: 0,
      images: 0,
      bytes: 0,
    });
  });
});

describe('the trash says what Empty trash removes, and the auto-empty keeps favorites', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('counts favorites in the trash summary; the auto-empty removes old non-favorites only', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    h = await startHarness({ ...scripted(), clock });
    const jobs = await make(h, 4);
    const ids = jobs.map((j) => j.id);
    await h.engine.handlers['jobs.setFavorite']({ ids: [ids[0]!], favorite: true });
    await h.engine.handlers['jobs.trash']({ ids: ids.slice(0, 3) });
    const bytes = jobs.slice(0, 3).reduce((sum, j) => sum + j.images[0]!.bytes, 0);
    expect(await h.engine.handlers['jobs.trashSummary']({})).toEqual({
      jobs: 3,
      images: 3,
      bytes,
      favorites: 1,
      looseImages: 0,
    });
    // The Favorites tab counts favorites outside the trash only.
    expect((await h.engine.handlers['jobs.stats']({})).favorites).toBe(0);

    // Past the auto-empty age (30 days by default), a maintenance pass runs.
    await h.engine.close();
    now += 31 * DAY;
    await h.open({ ...scripted(), clock, maintenanceIntervalMs: 20 });
    await waitFor(async () => ((await h.engine.handlers['jobs.stats']({})).trashed === 1 ? true : undefined));
    const left = await h.engine.handlers['jobs.list']({ view: 'trash', limit: 60 });
    expect(left.items.map((j) => j.id)).toEqual([ids[0]]);
    expect(await h.engine.handlers['jobs.trashSummary']({})).toMatchObject({ jobs: 1, favorites: 1 });
  });
});
