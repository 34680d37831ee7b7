/**
 * Find similar and show duplicates, end to end through the engine: a fixture set made here with sharp (distinct
 * synthetic pictures, each with resized, re-encoded and lightly cropped copies) is imported from a folder, hashed
 * with the thumbnails, and both channels are measured against the ground truth (recall at a precision floor).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DuplicateGroup, JobSummary } from '../../../shared/contract.js';
import type { Engine } from '../../../electron/engine/types.js';
import { nearDuplicateFixtures } from '../../fixtures/near-duplicates.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../engine/harness.js';

const SOURCES = 30;

let h: Harness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
  outside = undefined;
});

async function allDuplicates(engine: Engine): Promise<DuplicateGroup[]> {
  const groups: DuplicateGroup[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await engine.handlers['images.duplicates'](cursor === undefined ? {} : { cursor });
    groups.push(...page.groups);
    // Every job a group names comes with the page.
    const jobIds = new Set(page.jobs.map((j) => j.id));
    for (const g of page.groups) for (const id of g.jobIds) expect(jobIds.has(id)).toBe(true);
    if (page.nextCursor === null) return groups;
    cursor = page.nextCursor;
  }
}

/** Pairs as "a|b" with a < b. */
const pair = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);

function score(found: Set<string>, truth: Set<string>): { recall: number; precision: number } {
  let hits = 0;
  for (const p of found) if (truth.has(p)) hits += 1;
  return { recall: hits / truth.size, precision: found.size === 0 ? 1 : hits / found.size };
}

describe('find similar and show duplicates', () => {
  it('finds the resized, re-encoded and cropped copies of each picture, and nothing else, at the calibrated thresholds', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const dir = (outside = mkdtempSync(join(tmpdir(), 'atelier-near-')));
    const fixtures = await nearDuplicateFixtures(SOURCES);
    const sourceOfPath = new Map<string, number>();
    fixtures.forEach((f, i) => {
      const path = join(dir, `picture-${f.source}-${i}.${f.ext}`);
      writeFileSync(path, f.data);
      sourceOfPath.set(path, f.source);
    });
    const { import: started } = await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false });
    const jobs = await waitFor(async () => {
      const page = await h!.engine.handlers['jobs.list']({ limit: 500, view: 'active' });
      const done = page.items.length === fixtures.length && page.items.every((j) => j.images[0]?.thumbPending !== true);
      return done ? page.items : undefined;
    }, 60_000);
    expect((await h.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.imported).toBe(
      fixtures.length,
    );

    const sourceOfImage = new Map<string, number>();
    for (const job of jobs) sourceOfImage.set(job.images[0]!.id, sourceOfPath.get(job.path!)!);
    const ids = [...sourceOfImage.keys()];
    const truth = new Set<string>();
    for (let i = 0; i < ids.length; i += 1) {
      for (let j = i + 1; j < ids.length; j += 1)
        if (sourceOfImage.get(ids[i]!) === sourceOfImage.get(ids[j]!)) truth.add(pair(ids[i]!, ids[j]!));
    }

    const groups = await allDuplicates(h.engine);
    // No two files here share their bytes: every group is a near one.
    expect(groups.map((g) => g.kind).every((k) => k === 'near')).toBe(true);
    const grouped = new Set<string>();
    for (const g of groups)
      for (let i = 0; i < g.imageIds.length; i += 1)
        for (let j = i + 1; j < g.imageIds.length; j += 1) grouped.add(pair(g.imageIds[i]!, g.imageIds[j]!));
    const duplicates = score(grouped, truth);

    const returned = new Set<string>();
    for (const id of ids) {
      const result = await h.engine.handlers['images.similar']({ imageId: id, limit: 50 });
      expect(result.items.map((i) => i.imageId)).not.toContain(id);
      // Nearest first, and every job named is there to show.
      expect(result.items.map((i) => i.distance)).toEqual(
        [...result.items.map((i) => i.distance)].sort((a, b) => a - b),
      );
      expect(new Set(result.jobs.map((j: JobSummary) => j.id))).toEqual(new Set(result.items.map((i) => i.jobId)));
      for (const item of result.items) returned.add(pair(id, item.imageId));
    }
    const similar = score(returned, truth);
    console.log(
      `near duplicates over ${ids.length} images from ${SOURCES} pictures (${truth.size} true pairs): ` +
        `images.duplicates recall ${(duplicates.recall * 100).toFixed(1)}% precision ${(duplicates.precision * 100).toFixed(1)}%; ` +
        `images.similar recall ${(similar.recall * 100).toFixed(1)}% precision ${(similar.precision * 100).toFixed(1)}%`,
    );
    expect(duplicates.recall).toBeGreaterThanOrEqual(0.9);
    expect(duplicates.precision).toBeGreaterThanOrEqual(0.95);
    expect(similar.recall).toBeGreaterThanOrEqual(0.9);
    expect(similar.precision).toBeGreaterThanOrEqual(0.95);
  }, 180_000);

  it('leaves trashed jobs out, and finds them again once restored', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const dir = (outside = mkdtempSync(join(tmpdir(), 'atelier-near-')));
    const fixtures = (await nearDuplicateFixtures(2)).filter(
      (f) => f.variant === 'original' || f.variant === 'jpeg q40',
    );
    fixtures.forEach((f, i) => writeFileSync(join(dir, `p-${f.source}-${i}.${f.ext}`), f.data));
    await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false });
    const jobs = await waitFor(async () => {
      const page = await h!.engine.handlers['jobs.list']({ limit: 60, view: 'active' });
      return page.items.length === 4 && page.items.every((j) => j.images[0]?.thumbPending !== true)
        ? page.items
        : undefined;
    }, 30_000);
    const [a, ...others] = jobs;
    const similarTo = async () =>
      (await h!.engine.handlers['images.similar']({ imageId: a!.images[0]!.id, limit: 10 })).items.map((i) => i.jobId);
    const copy = (await similarTo())[0]!;
    expect(others.map((j) => j.id)).toContain(copy);
    await h.engine.handlers['jobs.trash']({ ids: [copy] });
    expect(await similarTo()).not.toContain(copy);
    expect((await allDuplicates(h.engine)).flatMap((g) => g.jobIds)).not.toContain(copy);
    await h.engine.handlers['jobs.restore']({ ids: [copy] });
    expect(await similarTo()).toContain(copy);
  }, 60_000);

  it('hashes generated images as they are stored, and fills in a library that has none (an upgrade)', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'a teal lighthouse',
      width: 128,
      height: 128,
      count: 2,
      seed: 7,
    });
    await waitForStatus(h.engine, job.id, ['succeeded']);
    const hashes = () => {
      const db = new Database(join(h!.dataDir, 'atelier.db'), { readonly: true });
      try {
        return db.prepare('SELECT phash FROM images ORDER BY id').pluck().all() as Array<number | null>;
      } finally {
        db.close();
      }
    };
    const stored = hashes();
    expect(stored).toHaveLength(2);
    expect(stored.every((v) => v !== null)).toBe(true);

    // An older library: its images have no hash. The background pass fills them in after the next start.
    await h.engine.close();
    const db = new Database(join(h.dataDir, 'atelier.db'));
    db.prepare('UPDATE images SET phash = NULL').run();
    db.close();
    await h.open();
    await waitFor(() => hashes().every((v) => v !== null), 20_000);
    expect(hashes()).toEqual(stored);
  }, 60_000);

  it('says so when the image is not in the library', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    await expect(
      h.engine.handlers['images.similar']({ imageId: '0190a6e2-0000-7000-8000-000000000000', limit: 5 }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
