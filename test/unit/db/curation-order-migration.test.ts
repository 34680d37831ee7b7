import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

/** A library as version 21 left it: three jobs (two made in the same millisecond), their images tagged and on a board. */
function seedVersion21(dir: string): void {
  const db = new Database(join(dir, 'atelier.db'));
  migrate(
    db,
    dir,
    () => 1,
    MIGRATIONS.filter((m) => m.version < 22),
  );
  const job = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text, source)
     VALUES (?, 'succeeded', ?, ?, 'builtin', 'cats', 64, 64, 2, '{}', 'cats', 'atelier')`,
  );
  job.run('older', 100, 100);
  job.run('tie-a', 200, 200);
  job.run('tie-b', 200, 200);
  const image = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime) VALUES (?, ?, ?, ?, ?, 10, 64, 64, 'image/png')`,
  );
  for (const [id, jobId, idx] of [
    ['o1', 'older', 0],
    ['o2', 'older', 1],
    ['a1', 'tie-a', 0],
    ['b1', 'tie-b', 0],
  ] as const) {
    image.run(id, jobId, idx, `library/${id}.png`, id.padEnd(64, '0'));
  }
  db.prepare("INSERT INTO tags (id, name, key, created_at) VALUES (1, 'keeper', 'keeper', 1)").run();
  db.prepare("INSERT INTO boards (id, name, key, query, created_at) VALUES ('bd', 'Covers', 'covers', NULL, 1)").run();
  for (const id of ['o1', 'o2', 'a1', 'b1']) {
    db.prepare('INSERT INTO image_tags (tag_id, image_id) VALUES (1, ?)').run(id);
    db.prepare("INSERT INTO board_images (board_id, image_id, added_at) VALUES ('bd', ?, 5)").run(id);
  }
  db.close();
}

const keys = (dir: string, table: 'image_tags' | 'board_images') => {
  const db = new Database(join(dir, 'atelier.db'), { readonly: true });
  try {
    return db.prepare(`SELECT image_id, job_created_at, job_id FROM ${table} ORDER BY image_id`).all();
  } finally {
    db.close();
  }
};

describe('version 22: tags and boards carry their jobs’ history key', () => {
  it('the migration fills in the keys the write path gives the same rows, and tag:/board: pages follow history order', () => {
    const dir = tempDir();
    seedVersion21(dir);
    const store = open({ dataDir: dir });
    const migrated = { tags: keys(dir, 'image_tags'), boards: keys(dir, 'board_images') };
    expect(migrated.tags).toEqual([
      { image_id: 'a1', job_created_at: 200, job_id: 'tie-a' },
      { image_id: 'b1', job_created_at: 200, job_id: 'tie-b' },
      { image_id: 'o1', job_created_at: 100, job_id: 'older' },
      { image_id: 'o2', job_created_at: 100, job_id: 'older' },
    ]);
    // The write path (the store's own tagging, through the insert triggers) writes exactly what the backfill did.
    const all = { ids: ['o1', 'o2', 'a1', 'b1'] };
    const boardId = store.curation.boards().find((b) => b.name === 'Covers')!.id;
    store.curation.tag(all, [], ['keeper']);
    store.curation.boardRemove(boardId, all);
    expect(keys(dir, 'image_tags')).toEqual([]);
    store.curation.tag(all, ['keeper'], []);
    store.curation.boardAdd(boardId, all);
    expect({ tags: keys(dir, 'image_tags'), boards: keys(dir, 'board_images') }).toEqual(migrated);
    // Newest first, the tie broken by id descending, one row per job however many of its images match.
    for (const search of ['tag:keeper', 'board:covers']) {
      expect(store.list({ limit: 60, view: 'active', search }).items.map((j) => j.id)).toEqual([
        'tie-b',
        'tie-a',
        'older',
      ]);
      const first = store.list({ limit: 1, view: 'active', search });
      const next = store.list({ limit: 60, view: 'active', search, cursor: first.nextCursor! });
      expect(next.items.map((j) => j.id)).toEqual(['tie-a', 'older']);
    }
    store.close();
  });

  it('a job whose created_at changes passes it on to its tagged and boarded images', () => {
    const dir = tempDir();
    seedVersion21(dir);
    open({ dataDir: dir }).close();
    const db = new Database(join(dir, 'atelier.db'));
    db.prepare("UPDATE jobs SET created_at = 300 WHERE id = 'older'").run();
    db.close();
    for (const table of ['image_tags', 'board_images'] as const) {
      expect(keys(dir, table).filter((r) => (r as { job_id: string }).job_id === 'older')).toEqual([
        { image_id: 'o1', job_created_at: 300, job_id: 'older' },
        { image_id: 'o2', job_created_at: 300, job_id: 'older' },
      ]);
    }
  });
});
