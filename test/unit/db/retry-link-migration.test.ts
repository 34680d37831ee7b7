import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

describe('migration 6: retry links', () => {
  it('backfills both sides from the retry_of events, the newest retry winning, and skips purged originals', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(
      db,
      dir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 6),
    );
    const insert = db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
       VALUES (?, 'failed', ?, ?, 'a1111', ?, 64, 64, 1, '{}', ?)`,
    );
    const event = db.prepare(
      'INSERT INTO job_events (job_id, seq, at, kind, message, data_json) VALUES (?, 1, 1, ?, ?, ?)',
    );
    for (const [id, t] of [
      ['old', 1],
      ['first', 2],
      ['second', 3],
      ['orphan', 4],
      ['plain', 5],
    ] as const)
      insert.run(id, t, t, id, id);
    event.run('first', 'retry_of', 'Retry of job old.', JSON.stringify({ originalId: 'old' }));
    event.run('second', 'retry_of', 'Retry of job old.', JSON.stringify({ originalId: 'old' }));
    event.run('orphan', 'retry_of', 'Retry of job gone.', JSON.stringify({ originalId: 'gone' }));
    db.close();

    const store = open({ dataDir: dir });
    const links = (id: string) => {
      const j = store.getSummary(id);
      return [j.retryOf ?? null, j.retriedAs ?? null];
    };
    expect(links('old')).toEqual([null, 'second']);
    expect(links('first')).toEqual(['old', null]);
    expect(links('second')).toEqual(['old', null]);
    expect(links('orphan')).toEqual([null, null]);
    expect(links('plain')).toEqual([null, null]);
  });
});
