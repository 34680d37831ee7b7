import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

/** A library as version 18 left it: jobs sized by their request, images by their files. */
function seedVersion18(dir: string): void {
  const db = new Database(join(dir, 'atelier.db'));
  migrate(db, dir, () => 1, MIGRATIONS.slice(0, 18));
  const job = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text, source, metadata_json)
     VALUES (?, 'succeeded', ?, ?, ?, 'fox', 512, 512, 1, '{"width":512,"height":512}', 'fox', ?, ?)`,
  );
  const image = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime)
     VALUES (?, ?, 0, ?, ?, 10, ?, ?, 'image/png')`,
  );
  job.run('source', 1, 1, 'builtin', 'atelier', null);
  image.run('source-0', 'source', 'library/aa/source.png', 'a'.repeat(64), 512, 512);
  // An upscale ×2 of it: the request carried the source's 512², the file is 1024².
  job.run('upscale', 2, 2, 'builtin', 'atelier', null);
  image.run('upscale-0', 'upscale', 'library/bb/upscale.png', 'b'.repeat(64), 1024, 1024);
  // An imported hires-fix file: its settings say 512², its columns keep what the file's settings say.
  job.run('imported', 3, 3, 'a1111', 'a1111', '{"raw":[],"problems":[],"locations":[],"mode":"link"}');
  image.run('imported-0', 'imported', '/pictures/fox.png', 'c'.repeat(64), 1024, 1024);
  db.close();
}

describe('version 19: an Atelier job is sized by the file it made', () => {
  it('an old upscale recorded at its source size is 1024 × 1024 after the upgrade, and size: finds it', () => {
    const dir = tempDir();
    seedVersion18(dir);
    const store = open({ dataDir: dir });
    expect([store.get('upscale').width, store.get('upscale').height]).toEqual([1024, 1024]);
    expect(store.get('upscale').images.map((i) => [i.width, i.height])).toEqual([[1024, 1024]]);
    expect([store.get('source').width, store.get('source').height]).toEqual([512, 512]);
    expect([store.get('imported').width, store.get('imported').height]).toEqual([512, 512]);
    const ids = (search: string) => store.list({ search, limit: 50, view: 'active' }).items.map((j) => j.id);
    expect(ids('size:1024x1024')).toEqual(['upscale']);
    expect(ids('size:512x512').sort()).toEqual(['imported', 'source']);
  });
});
