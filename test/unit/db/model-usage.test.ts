import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { USAGE_SQL } from '../../../electron/db/model-usage.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { finished, image, open, tempDir } from './helpers.js';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

/** A finished job made with a model (and LoRAs, as the job's file recorded them), with `count` images. */
function made(store: ReturnType<typeof open>, model: string, count: number, loras: string[] = []) {
  const images = Array.from({ length: count }, (_, i) => image(i));
  const id = finished(store, `made with ${model}`, { model, count }, images);
  if (loras.length > 0) {
    const db = new Database(store.info.databasePath);
    const add = db.prepare('INSERT INTO job_loras (job_id, key, name) VALUES (?, ?, ?)');
    for (const name of loras) add.run(id, name.toLowerCase(), name);
    db.close();
  }
  return { id, images: images.map((i) => i.id) };
}

describe('model usage', () => {
  it('counts images outside the trash and not wholly rejected, with the newest use, per model and per LoRA', () => {
    const store = open();
    const a = made(store, 'Dream_8', 2, ['Add_Detail']);
    made(store, 'Dream_8', 1);
    const c = made(store, 'other.safetensors', 3, ['add_detail']);
    store.curation.trash({ ids: [c.images[0]!] });
    const d = made(store, 'gone', 1);
    store.curation.setRejected({ ids: d.images }, true);
    const usage = store.modelUsage.usage();
    const byKey = (rows: typeof usage.models) => Object.fromEntries(rows.map((r) => [r.key, [r.label, r.images]]));
    expect(byKey(usage.models)).toEqual({ dream_8: ['Dream_8', 3], 'other.safetensors': ['other.safetensors', 2] });
    expect(byKey(usage.loras)).toEqual({ add_detail: ['Add_Detail', 4] });
    const dream = usage.models.find((r) => r.key === 'dream_8')!;
    expect(dream.lastUsedAt).toBeGreaterThan(store.get(a.id)!.createdAt);
  });

  it('picks the best job: a favourite over any rating, then the rating, newest among equals; then its best image', () => {
    const store = open();
    const rated = made(store, 'm', 2);
    const newerSame = made(store, 'm', 1);
    made(store, 'm', 1);
    store.curation.setRating({ ids: [rated.images[1]!] }, 4);
    store.curation.setRating({ ids: [newerSame.images[0]!] }, 4);
    let best = store.modelUsage.usage().models[0]!;
    expect(best.bestJobId).toBe(newerSame.id);
    const fav = made(store, 'm', 1);
    store.curation.setFavorite({ ids: fav.images }, true);
    best = store.modelUsage.usage().models[0]!;
    expect(best.bestJobId).toBe(fav.id);
    expect(store.modelUsage.previewImage(rated.id)).toEqual({ imageId: rated.images[1], rating: 4 });
  });

  it('answers again from its copy until the library changes', () => {
    const store = open();
    made(store, 'm', 1);
    const first = store.modelUsage.usage();
    expect(store.modelUsage.usage()).toBe(first);
    made(store, 'm', 1);
    const next = store.modelUsage.usage();
    expect(next).not.toBe(first);
    expect(next.models[0]!.images).toBe(2);
  });

  it('reads the hash an imported file recorded for its model', () => {
    const store = open();
    const { id } = made(store, 'dreamshaper_8', 1);
    const db = new Database(store.info.databasePath);
    db.prepare(`UPDATE jobs SET metadata_json = '{"modelHash":"6CE0161689"}' WHERE id = ?`).run(id);
    db.close();
    expect(store.modelUsage.usage().hashes).toEqual([{ key: 'dreamshaper_8', hash: '6ce0161689' }]);
  });

  it('reads only covering indexes: never a jobs row, never a scan of jobs', () => {
    const store = open();
    made(store, 'm', 1, ['l']);
    const db = new Database(store.info.databasePath, { readonly: true });
    // The store's own connection defines it (model-usage.ts); a plan needs only its name.
    db.aggregate('model_usage_best', { start: 0, step: (_t: number, _rank: number, _id: string) => 0 } as never);
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join(' | ');
    expect(plan(USAGE_SQL.models)).toBe('SEARCH j USING COVERING INDEX jobs_model_usage (model_key>?)');
    expect(plan(USAGE_SQL.loras)).toMatch(/SEARCH j USING COVERING INDEX jobs_usage \(id=\?/);
    expect(plan(USAGE_SQL.loras)).not.toMatch(/SCAN j\b/);
    expect(plan(USAGE_SQL.hashes)).toMatch(/^SEARCH jobs USING COVERING INDEX jobs_model_hash/);
    expect(plan(USAGE_SQL.previewImage, 'job')).toMatch(/USING INDEX sqlite_autoindex_images_\d \(job_id=\?\)/);
    db.close();
  });
});

describe('model notes', () => {
  it('keeps one note per entry key, trimmed; empty removes it', () => {
    const store = open();
    expect(store.modelNotes.setNote('lora:add_detail', '  use at 0.6 ')).toBe('use at 0.6');
    store.modelNotes.setNote('checkpoint:6ce0161689', 'portraits');
    store.modelNotes.setNote('lora:add_detail', 'use at 0.5');
    expect([...store.modelNotes.notes()].sort()).toEqual([
      ['checkpoint:6ce0161689', 'portraits'],
      ['lora:add_detail', 'use at 0.5'],
    ]);
    expect(store.modelNotes.setNote('lora:add_detail', '  ')).toBe('');
    expect([...store.modelNotes.notes().keys()]).toEqual(['checkpoint:6ce0161689']);
  });
});

describe('migration 25', () => {
  it('upgrades a library of version 24 with its jobs, and counts them at once', () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'atelier.db'));
    migrate(
      db,
      dataDir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 25),
    );
    db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, model, prompt, width, height, count, request_json,
         model_key, metadata_json)
       VALUES ('j1', 'succeeded', 5, 5, 'a1111', 'Dream_8', 'p', 512, 512, 1, '{}', 'dream_8', '{"modelHash":"abcdef0123"}')`,
    ).run();
    db.prepare(
      `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime) VALUES ('i1', 'j1', 0, 'p', 's', 1, 1, 1, 'image/png')`,
    ).run();
    db.close();
    const store = open({ dataDir });
    expect(store.info.migratedFrom).toBe(24);
    const usage = store.modelUsage.usage();
    expect(usage.models.map((r) => [r.key, r.images, r.bestJobId])).toEqual([['dream_8', 1, 'j1']]);
    expect(usage.hashes).toEqual([{ key: 'dream_8', hash: 'abcdef0123' }]);
  });
});
