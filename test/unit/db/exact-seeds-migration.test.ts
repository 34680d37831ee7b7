import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { image, open, tempDir } from './helpers.js';

describe('migration 9: exact 64-bit seeds', () => {
  it('an upgraded library keeps its old seeds and then holds 64-bit seeds exactly, which the INTEGER column could not', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(
      db,
      dir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 9),
    );
    db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
       VALUES ('old', 'succeeded', 1, 1, 'builtin', 'p', 64, 64, 1, '{}', 'p')`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, seed) VALUES (?, 'old', ?, ?, ?, 1, 64, 64, 'image/png', ?)`,
    );
    insert.run('a', 0, 'library/a.png', 'a', 424242);
    // What the INTEGER column did before version 9: past 2^63 it refuses the seed, past 2^53 it reads back rounded.
    expect(() => insert.run('b', 1, 'library/b.png', 'b', '18446744073709551615')).toThrow(
      /cannot store REAL value in INTEGER column/,
    );
    insert.run('c', 2, 'library/c.png', 'c', '9007199254740993');
    expect(db.prepare(`SELECT seed FROM images WHERE id = 'c'`).get()).toEqual({ seed: 9007199254740992 });
    db.close();

    const store = open({ dataDir: dir });
    expect(store.image('a')?.seed).toBe(424242);
    const { job } = store.submit({
      provider: 'comfyui',
      prompt: 'q',
      width: 64,
      height: 64,
      count: 1,
      seed: '18446744073709551615',
    });
    store.claim(job.id);
    const big = { ...image(0), seed: '18446744073709551615' };
    const near = { ...image(1), seed: '9007199254740993' };
    store.succeed(job.id, [big, near], { seed: '18446744073709551615', timings: {} });
    expect(store.image(big.id)?.seed).toBe('18446744073709551615');
    expect(store.get(job.id).images.map((i) => i.seed)).toEqual(['18446744073709551615', '9007199254740993']);
  });

  it('the digits column takes only digits, and only where the INTEGER column is empty', () => {
    const dir = tempDir();
    open({ dataDir: dir }).close();
    const db = new Database(join(dir, 'atelier.db'));
    db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
       VALUES ('j', 'succeeded', 1, 1, 'comfyui', 'p', 64, 64, 1, '{}', 'p')`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, seed, seed_digits) VALUES (?, 'j', ?, ?, ?, 1, 64, 64, 'image/png', ?, ?)`,
    );
    expect(() => insert.run('x', 0, 'x', 'x', null, '1e19')).toThrow(/CHECK/);
    expect(() => insert.run('y', 1, 'y', 'y', null, '0123')).toThrow(/CHECK/);
    expect(() => insert.run('z', 2, 'z', 'z', 5, '18446744073709551615')).toThrow(/CHECK/);
    insert.run('ok', 3, 'ok', 'ok', null, '18446744073709551615');
    db.close();
  });
});
