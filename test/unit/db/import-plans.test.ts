import { describe, expect, it } from 'vitest';
import type { Db } from '../../../electron/db/connection.js';
import { open, tempDir } from './helpers.js';

/** Every statement the store prepares, recorded through the test-only connection wrapper. */
function recordingStore() {
  const sources: string[] = [];
  let db: Db | undefined;
  const store = open({
    dataDir: tempDir(),
    wrapDatabase: (inner) => {
      db = inner;
      return new Proxy(inner, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key === 'prepare') return (sql: string) => (sources.push(sql), target.prepare(sql));
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  });
  return { store, db: db!, sources };
}

const plan = (db: Db, sql: string, params: unknown[]): string =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join('\n');

describe('import query plans', () => {
  it('reads import files, locations, hashes and waiting thumbnails through indexes, never a scan or a sort', () => {
    const { store, db, sources } = recordingStore();
    const find = (fragment: string): string => {
      const sql = sources.find((s) => s.includes(fragment));
      if (sql === undefined) throw new Error(`no statement with ${fragment}`);
      return sql;
    };
    const cases: Array<[string, unknown[], RegExp]> = [
      [
        'WHERE folder_id = ? AND path > ? ORDER BY path',
        ['f', '', 10],
        /SEARCH image_locations USING INDEX image_locations_folder \(folder_id=\? AND path>\?\)/,
      ],
      [
        "WHERE import_id = ? AND status = 'pending' AND seq > ?",
        ['i', 0, 10],
        /SEARCH import_files USING INDEX import_files_status/,
      ],
      ['FROM images WHERE sha256 = ?', ['x'], /SEARCH images USING INDEX images_sha256/],
      ['WHERE thumb_path IS NULL ORDER BY id DESC', [10], /SCAN images USING (COVERING )?INDEX images_thumbless/],
      ['WHERE l.path = ?', ['/x'], /SEARCH l USING INDEX sqlite_autoindex_image_locations_1 \(path=\?\)/],
      [
        'WHERE path >= ? AND path < ?',
        ['/a/', '/a0'],
        /SEARCH image_locations USING (COVERING )?INDEX sqlite_autoindex_image_locations_1/,
      ],
      // The re-reader's next files: down the partial index in its order, each image by its job.
      [
        'ORDER BY j.reader_version, j.id LIMIT ?',
        [2, 32],
        /SEARCH j USING (COVERING )?INDEX jobs_reader_version \(reader_version>\? AND reader_version<\?\)\nSEARCH i USING INDEX/,
      ],
      ['COUNT(*) FILTER (WHERE reader_version < ?)', [2], /SEARCH jobs USING COVERING INDEX jobs_reader_version/],
    ];
    for (const [fragment, params, expected] of cases) {
      const detail = plan(db, find(fragment), params);
      expect(detail, fragment).toMatch(expected);
      expect(detail, fragment).not.toMatch(/TEMP B-TREE/);
    }
    store.close();
  });
});
