import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { JobDetail } from '../../../shared/contract.js';
import { openStore } from '../../../electron/db/store.js';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { LATEST_VERSION, MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

const V1_SQL = readFileSync(new URL('../../fixtures/db/v1.sql', import.meta.url), 'utf8');

function seedV1(dir: string): void {
  const db = new Database(join(dir, 'atelier.db'));
  db.exec(V1_SQL);
  db.close();
}

describe('migrations', () => {
  it('creates a new library at the latest version and records each migration with its time', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir, now: () => 1_234 });
    store.close();
    const db = new Database(join(dir, 'atelier.db'), { readonly: true });
    expect(db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all()).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 1_234 })),
    );
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    db.close();
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });

  it('upgrades a version 1 library with no job, image, favorite, event or setting lost, after a backup', () => {
    const dir = tempDir();
    seedV1(dir);
    const store = open({ dataDir: dir, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    expect(store.info.migratedFrom).toBe(1);
    expect(store.info.schemaVersion).toBe(LATEST_VERSION);
    expect(store.info.backupPath).toBe('backups/atelier-v1-20260102T030405Z.db');

    const backup = new Database(join(dir, store.info.backupPath!), { readonly: true });
    expect(backup.prepare('SELECT COUNT(*) AS n FROM favorites').get()).toEqual({ n: 2 });
    expect(backup.pragma('user_version', { simple: true })).toBe(1);
    backup.close();

    const all = store.list({ limit: 60, view: 'all' });
    expect(all.items.map((j) => j.id)).toEqual([
      '018bcfe5-7400-7000-8000-000000000004',
      '018bcfe5-7000-7000-8000-000000000003',
      '018bcfe5-6c00-7000-8000-000000000002',
      '018bcfe5-6800-7000-8000-000000000001',
    ]);
    const fox = store.get('018bcfe5-6800-7000-8000-000000000001');
    expect(JobDetail.safeParse(fox).success).toBe(true);
    expect(fox.favorite).toBe(true);
    expect(fox.images.map((i) => i.bytes)).toEqual([1000, 2000]);
    // Version 5: the built-in generator rendered image i with seed + i.
    expect(fox.images.map((i) => i.seed)).toEqual([42, 43]);
    expect(fox.result).toEqual({ seed: 42, timings: { totalMs: 4000 } });
    expect(fox.events.map((e) => e.kind)).toEqual(['submitted', 'succeeded']);
    const lighthouse = store.get('018bcfe5-7000-7000-8000-000000000003');
    expect(lighthouse.favorite).toBe(true);
    expect(lighthouse.trashedAt).toBe(1700000030000);
    expect(store.get('018bcfe5-6c00-7000-8000-000000000002').errorDetail?.code).toBe('provider_error');
    // The lighthouse is a favorite in the trash: the Favorites count leaves it out (version 7).
    expect(store.stats()).toMatchObject({ total: 4, favorites: 1, trashed: 1, images: 3, imageBytes: 6000 });
    expect(store.getSetting('theme')).toBe('dark');
    // The old rows are searchable (folded and indexed during the upgrade), in any case and script.
    expect(store.list({ limit: 10, view: 'all', search: 'copper fox' }).items).toHaveLength(1);
    // A negative prompt is found by negative: alone (free words read the prompt and settings).
    expect(store.list({ limit: 10, view: 'all', search: 'BLURRY' }).items).toHaveLength(0);
    expect(store.list({ limit: 10, view: 'all', search: 'negative:BLURRY' }).items).toHaveLength(1);
    expect(store.list({ limit: 10, view: 'all', search: 'červená' }).items).toHaveLength(1);
    // 1–2 character terms and conjunctions go through the gram index (version 4), backfilled for the old rows.
    expect(store.list({ limit: 10, view: 'all', search: 'šk' }).items.map((j) => j.prompt)).toEqual(['ČERVENÁ liška']);
    expect(store.list({ limit: 10, view: 'all', search: 'FO sn' }).items.map((j) => j.prompt)).toEqual([
      'Copper FOX in the snow',
    ]);
    // The settings line (version 10): the seed and the size are words too.
    expect(store.list({ limit: 10, view: 'all', search: '42' }).items.map((j) => j.prompt)).toEqual([
      'Copper FOX in the snow',
    ]);
    expect(store.list({ limit: 10, view: 'all', search: 'teapot fox' }).items).toHaveLength(0);
    // The queued job is still queued for the worker.
    expect(store.queued(10).map((q) => q.id)).toEqual(['018bcfe5-7400-7000-8000-000000000004']);
    store.close();

    const after = new Database(join(dir, 'atelier.db'), { readonly: true });
    expect(
      after.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'jobs_fts%' OR name = 'jobs_grams'").all(),
    ).toEqual([{ name: 'jobs_grams' }]);
    expect(after.prepare('SELECT COUNT(*) AS n FROM jobs_grams').get()).toEqual({ n: 4 });
    after.close();

    // Opening again migrates nothing and takes no second backup.
    const again = open({ dataDir: dir });
    expect(again.info.backupPath).toBeNull();
    expect(readdirSync(join(dir, 'backups'))).toHaveLength(1);
  });

  it('version 4 indexes every existing job for search and counts the rows out of history order', () => {
    for (const [times, breaks] of [
      [[1, 2, 3, 4], 0],
      [[1, 5, 2, 3, 9, 4], 2],
    ] as const) {
      const dir = tempDir();
      const db = new Database(join(dir, 'atelier.db'));
      migrate(db, dir, () => 1, MIGRATIONS.slice(0, 3));
      const insert = db.prepare(
        `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
         VALUES (?, 'succeeded', ?, ?, 'builtin', ?, 64, 64, 1, '{}', ?)`,
      );
      times.forEach((t, i) => insert.run(`job-${i}`, t, t, `Fox ${t}`, `fox ${t}`));
      db.close();
      const store = open({ dataDir: dir });
      expect(store.list({ limit: 10, view: 'all', search: 'fo' }).items.map((j) => j.createdAt)).toEqual(
        [...times].sort((a, b) => b - a),
      );
      store.close();
      const after = new Database(join(dir, 'atelier.db'), { readonly: true });
      expect(after.prepare('SELECT order_breaks AS n FROM store_totals').get()).toEqual({ n: breaks });
      after.close();
    }
  });

  it('version 5 gives old images their own seed where the provider renders image i with seed + i, and no guess elsewhere', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(db, dir, () => 1, MIGRATIONS.slice(0, 4));
    const job = db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, result_json, search_text)
       VALUES (?, 'succeeded', ?, ?, ?, 'fox', 64, 64, 3, '{}', ?, 'fox')`,
    );
    const image = db.prepare(
      `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime) VALUES (?, ?, ?, ?, 'x', 1, 64, 64, 'image/png')`,
    );
    const jobs = [
      ['builtin', '{"seed":424242,"timings":{}}'],
      ['a1111', '{"seed":7,"timings":{}}'],
      ['comfyui', '{"seed":99,"timings":{}}'],
      ['openai', '{"timings":{}}'],
      ['builtin', '{"timings":{}}'],
    ] as const;
    jobs.forEach(([provider, result], j) => {
      job.run(`job-${j}`, j + 1, j + 1, provider, result);
      for (let i = 0; i < 3; i += 1) image.run(`img-${j}-${i}`, `job-${j}`, i, `library/${j}/${i}.png`);
    });
    db.close();
    const store = open({ dataDir: dir });
    const seeds = (id: string) => store.get(id).images.map((i) => i.seed ?? null);
    expect(seeds('job-0')).toEqual([424242, 424243, 424244]);
    expect(seeds('job-1')).toEqual([7, 8, 9]);
    // ComfyUI draws a batch from one seed (and a custom workflow may ignore it); OpenAI has none: left unknown.
    expect(seeds('job-2')).toEqual([null, null, null]);
    expect(seeds('job-3')).toEqual([null, null, null]);
    expect(seeds('job-4')).toEqual([null, null, null]);
    expect(
      store
        .list({ limit: 10, view: 'all' })
        .items.find((j) => j.id === 'job-0')!
        .images.map((i) => i.seed),
    ).toEqual([424242, 424243, 424244]);
    expect(store.get('job-0').images.every((i) => i.batchIndex === undefined)).toBe(true);
    store.close();
  });

  it("version 16 records that older readers read every imported file (to re-read), and nothing for Atelier's own jobs", () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(db, dir, () => 1, MIGRATIONS.slice(0, 15));
    const job = db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text, source, metadata_json)
       VALUES (?, 'succeeded', 1, 1, ?, 'fox', 64, 64, 1, '{}', 'fox', ?, ?)`,
    );
    job.run('made', 'builtin', 'atelier', null);
    job.run('imported', 'a1111', 'a1111', '{"raw":[],"problems":[],"locations":[],"mode":"link"}');
    db.close();
    const store = open({ dataDir: dir });
    store.close();
    const after = new Database(join(dir, 'atelier.db'), { readonly: true });
    const versions = after.prepare('SELECT id, reader_version AS v FROM jobs ORDER BY id').all();
    after.close();
    expect(versions).toEqual([
      { id: 'imported', v: 1 },
      { id: 'made', v: null },
    ]);
  });

  it('refuses a library written by a newer Atelier and changes nothing', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).close();
    const db = new Database(join(dir, 'atelier.db'));
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, ?, 1)').run('future');
    db.close();
    const before = readFileSync(join(dir, 'atelier.db'));
    let error: unknown;
    try {
      openStore({ dataDir: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('storage');
    expect((error as AppError).message).toMatch(
      new RegExp(`newer version of Atelier \\(schema version 99; this version knows up to ${LATEST_VERSION}\\)`),
    );
    expect(readFileSync(join(dir, 'atelier.db')).equals(before)).toBe(true);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
    // The lock was released: after a downgrade the next open (here: with the row removed) works.
    const fix = new Database(join(dir, 'atelier.db'));
    fix.prepare('DELETE FROM schema_migrations WHERE version = 99').run();
    fix.close();
    open({ dataDir: dir });
  });

  it('also refuses by user_version alone', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    expect(() => openStore({ dataDir: dir })).toThrow(new RegExp(`schema version ${LATEST_VERSION + 1}`));
  });

  it('applies all pending migrations in one transaction: a failure leaves the old schema intact', () => {
    const dir = tempDir();
    seedV1(dir);
    const db = new Database(join(dir, 'atelier.db'));
    const broken = [
      ...MIGRATIONS,
      {
        version: LATEST_VERSION + 1,
        name: 'broken',
        up: (d: Database.Database) => d.exec('CREATE TABLE x (a INTEGER) STRICT; SELECT no_such_function();'),
      },
    ];
    expect(() => migrate(db, dir, () => 5, broken)).toThrow(
      /could not upgrade its library \(from schema version 1\).*backups/,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(
      db.prepare("SELECT COUNT(*) AS n FROM sqlite_schema WHERE name IN ('favorites', 'jobs_fts', 'x')").get(),
    ).toEqual({ n: 1 });
    expect(db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
    db.close();
  });
});
