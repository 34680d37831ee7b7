import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

/** A library as version 19 left it: one job of two images, no reject column yet. */
function seedVersion19(dir: string): void {
  const db = new Database(join(dir, 'atelier.db'));
  migrate(
    db,
    dir,
    () => 1,
    MIGRATIONS.filter((m) => m.version < 20),
  );
  db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text, source)
     VALUES ('pair', 'succeeded', 1, 1, 'builtin', 'two cats', 64, 64, 2, '{}', 'two cats', 'atelier')`,
  ).run();
  const image = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime) VALUES (?, 'pair', ?, ?, ?, 10, 64, 64, 'image/png')`,
  );
  image.run('a', 0, 'library/aa/a.png', 'a'.repeat(64));
  image.run('b', 1, 'library/bb/b.png', 'b'.repeat(64));
  db.close();
}

const raw = (dir: string) => new Database(join(dir, 'atelier.db'));

describe('version 20: a reject flag per image', () => {
  it('old images arrive unrejected; the roll-ups follow rejects and the trash', () => {
    const dir = tempDir();
    seedVersion19(dir);
    const store = open({ dataDir: dir });
    expect(store.get('pair').images.map((i) => i.rejected)).toEqual([undefined, undefined]);
    store.curation.setRejected({ ids: ['a'] }, true);
    expect(store.get('pair').images.map((i) => i.rejected)).toEqual([true, undefined]);
    const rollUp = () =>
      raw(dir).prepare("SELECT rejected_images, rejected FROM jobs WHERE id = 'pair'").get() as {
        rejected_images: number;
        rejected: number;
      };
    expect(rollUp()).toEqual({ rejected_images: 1, rejected: 0 });
    // The one image left outside the trash is rejected: the whole job is.
    store.curation.trash({ ids: ['b'] });
    expect(rollUp()).toEqual({ rejected_images: 1, rejected: 1 });
    store.curation.restore({ ids: ['b'] });
    expect(rollUp()).toEqual({ rejected_images: 1, rejected: 0 });
    store.curation.setRejected({ ids: ['a'] }, false);
    expect(rollUp()).toEqual({ rejected_images: 0, rejected: 0 });
  });

  it('is:rejected and the counts read only the jobs holding a reject, through jobs_rejected_created', () => {
    const dir = tempDir();
    seedVersion19(dir);
    open({ dataDir: dir }).close();
    const db = raw(dir);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('\n');
    expect(plan('SELECT 1 FROM jobs AS j WHERE j.rejected_images > 0 ORDER BY j.created_at DESC, j.id DESC')).toMatch(
      /USING (COVERING )?INDEX jobs_rejected_created/u,
    );
    expect(plan('SELECT 1 FROM jobs AS j WHERE j.rejected_images > 0 ORDER BY j.created_at DESC')).not.toMatch(
      /TEMP B-TREE/u,
    );
    db.close();
  });
});
