import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../electron/db/store.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import type { Engine } from '../../../electron/engine/types.js';
import { ROW_BYTES_SQL } from '../../../electron/db/jobs.js';
import {
  LARGE_IMAGE_PROMPT,
  LIBRARY_ASPECTS,
  libraryImageSize,
  libraryPrompt,
  seedLargeLibrary,
} from '../../fixtures/large-library.js';
import { memoryKeyring } from '../engine/harness.js';

/**
 * The seeded history the UI bench and the long-history test stand on, read back through the engine as the grid
 * reads it: every aspect ratio present, each image's recorded size its file's true size, searchable, and room left.
 */
const JOBS = 60;
const DISTINCT = 10;
const LARGE = 256;

let dataDir: string;
let engine: Engine;
let largeJobId: string | null;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'atelier-large-library-'));
  ({ largeJobId } = await seedLargeLibrary(dataDir, JOBS, DISTINCT, { largeImage: LARGE }));
  engine = await createEngine(
    { dataDir, keyring: memoryKeyring() },
    { maintenanceIntervalMs: 0, housekeepingDelayMs: 0 },
  );
}, 60_000);

afterAll(async () => {
  await engine?.close({ graceMs: 0 });
  await rm(dataDir, { recursive: true, force: true });
});

describe('the large-library fixture', () => {
  it('leaves the store’s own schema: every index it set aside for the load is back as it was', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'atelier-large-library-fresh-'));
    const schemaOf = (dir: string) => {
      const db = new Database(join(dir, 'atelier.db'), { readonly: true });
      try {
        return db
          .prepare(
            "SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger', 'table') ORDER BY type, name",
          )
          .all();
      } finally {
        db.close();
      }
    };
    try {
      openStore({ dataDir: fresh }).close();
      const expected = schemaOf(fresh);
      expect(expected.length).toBeGreaterThan(50);
      expect(schemaOf(dataDir)).toEqual(expected);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('mixes square, portrait and landscape images, each recorded at its file’s true size', async () => {
    const page = await engine.handlers['jobs.list']({ view: 'active', limit: 200 });
    expect(page.items).toHaveLength(JOBS + 1);
    const [newest, ...rest] = page.items;
    expect(newest!.id).toBe(largeJobId);
    expect(newest!.prompt).toBe(LARGE_IMAGE_PROMPT);
    expect([newest!.images[0]!.width, newest!.images[0]!.height]).toEqual([LARGE, LARGE]);
    const shapes = new Set<string>();
    for (const [k, job] of rest.entries()) {
      const i = JOBS - 1 - k;
      expect(job.prompt).toBe(libraryPrompt(i));
      const image = job.images[0]!;
      expect({ width: image.width, height: image.height }).toEqual(libraryImageSize(i, DISTINCT));
      expect({ width: job.width, height: job.height }).toEqual(libraryImageSize(i, DISTINCT));
      shapes.add(`${image.width}x${image.height}`);
    }
    expect([...shapes].sort()).toEqual(LIBRARY_ASPECTS.map((a) => `${a.width}x${a.height}`).sort());
    // The files themselves: the original and a thumbnail of the same shape.
    for (const job of [newest!, ...rest.slice(0, LIBRARY_ASPECTS.length)]) {
      const image = job.images[0]!;
      const original = await sharp(engine.resolveMedia('image', image.id)!.path).metadata();
      expect([original.width, original.height]).toEqual([image.width, image.height]);
      const thumb = await sharp(engine.resolveMedia('thumb', image.id)!.path).metadata();
      expect(Math.abs(thumb.width! / thumb.height! - image.width / image.height)).toBeLessThan(0.01);
    }
  });

  it('is found by search (the grams the seed writes) and still takes new jobs (its byte budget counts rows, not files)', async () => {
    const found = await engine.handlers['jobs.list']({ view: 'active', limit: 10, search: 'study 42,' });
    expect(found.items.map((j) => j.prompt)).toEqual([libraryPrompt(42)]);
    const tide = await engine.handlers['jobs.list']({ view: 'active', limit: 10, search: 'tide pool' });
    expect(tide.items.map((j) => j.id)).toEqual([largeJobId]);
    // Each row counts what the store itself would count for it, so the budget it leaves is the real one.
    const db = new Database(join(dataDir, 'atelier.db'), { readonly: true });
    try {
      const rows = db
        .prepare(`SELECT count(*) AS n, sum(logical_bytes = ${ROW_BYTES_SQL}) AS same FROM jobs`)
        .get() as { n: number; same: number };
      expect(rows).toEqual({ n: JOBS + 1, same: JOBS + 1 });
    } finally {
      db.close();
    }
    const { job } = await engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'one more',
      width: 64,
      height: 64,
      count: 1,
      steps: 1,
    });
    expect(job.status).toBe('queued');
  });
});
