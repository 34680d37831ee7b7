import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROW_BYTES_SQL } from '../../../electron/db/jobs.js';
import { toImportedImage } from '../../../electron/library/import/to-imported.js';
import { open, tempDir } from './helpers.js';

describe('an imported job row', () => {
  it('records the same logical size the store computes in SQL, for any prompt and metadata text', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    let n = 0;
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({ maxLength: 2_000 }),
        fc.option(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
        (prompt, raw, seed) => {
          n += 1;
          const sha256 = n.toString(16).padStart(64, '0');
          const image = toImportedImage({
            path: `/outputs/${n}.png`,
            sha256,
            size: 100,
            mtimeMs: 1_700_000_000_000 + n,
            format: 'png',
            width: 64,
            height: 64,
            mode: 'link',
            storedPath: `/outputs/${n}.png`,
            read: {
              format: 'png',
              source: 'a1111',
              settings: { prompt, ...(seed === null ? {} : { seed: seed.toString() }) },
              raw: [{ key: 'parameters', text: raw }],
              problems: [],
            },
          });
          store.imports.commit(null, [
            { kind: 'imported', seq: 0, path: `/outputs/${n}.png`, folderId: null, bytes: 100, mtimeMs: 1, image },
          ]);
        },
      ),
      { numRuns: 60 },
    );
    store.close();
    const db = new Database(join(dir, 'atelier.db'), { readonly: true });
    const rows = db.prepare(`SELECT logical_bytes AS stored, ${ROW_BYTES_SQL} AS expected FROM jobs`).all() as Array<{
      stored: number;
      expected: number;
    }>;
    db.close();
    expect(rows).toHaveLength(60);
    for (const row of rows) expect(row.stored).toBe(row.expected);
  });
});
