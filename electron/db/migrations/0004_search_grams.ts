import { gramsOf } from '../grams.js';
import type { Migration } from './types.js';

/**
 * The tokens of grams.ts gramsOf(), in SQL, for rows written straight into the schema (imports, benches, other
 * tools); the store writes its own rows' tokens from JS. json_each over a JSON array of `length(text)` zeros numbers
 * the code points. substr() counts from the start on every call, so this is quadratic in the text's length: fine for
 * a prompt, not for the 64,000 characters a prompt and negative prompt may reach (hence the JS path).
 */
export function gramsSql(text: string): string {
  const at = (n: number) => `lower(hex(substr(${text}, key + 1, ${n})))`;
  const gap = (offset: number) => `substr(${text}, key + ${offset}, 1) IN (' ', char(10))`;
  return `(SELECT group_concat('u' || ${at(1)}
      || iif(key + 2 > length(${text}) OR ${gap(2)}, '', ' b' || ${at(2)}
        || iif(key + 3 > length(${text}) OR ${gap(3)}, '', ' t' || ${at(3)})), ' ')
    FROM json_each('[' || rtrim(replace(hex(zeroblob(length(${text}))), '00', '0,'), ',') || ']')
    WHERE NOT ${gap(1)})`;
}

/**
 * Version 4: search moves from the trigram phrase index (jobs_fts) to jobs_grams, which indexes every 1, 2 and 3
 * code point substring of the folded text as one token (see grams.ts). A 1–2 character term, and any AND of terms,
 * is then answered inside the index: the old index could not see short terms at all, so "portrait f" walked the
 * whole history. detail=none keeps only rowids per token (no positions), about the size of the old index.
 *
 * store_totals.order_breaks counts rows whose history position (created_at, id) disagrees with their rowid. While it
 * is 0, the index's matches in rowid order are already newest first, so a search reads them in that order and stops
 * at a page instead of sorting them or walking the history (a clock set back, or an import of old jobs, turns it on).
 */
export const migration0004: Migration = {
  version: 4,
  name: 'search_grams',
  up(db) {
    db.exec(`
      DROP TRIGGER jobs_fts_insert;
      DROP TRIGGER jobs_fts_delete;
      DROP TRIGGER jobs_fts_update;
      DROP TABLE jobs_fts;

      -- Contentless: the tokens are derived from jobs.search_text; contentless_delete lets a trigger drop a row by rowid.
      CREATE VIRTUAL TABLE jobs_grams USING fts5 (
        grams, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii'
      );
    `);
    // Backfill in JS: several times faster than the trigger's SQL over a large history, and the same tokens.
    const rows = db.prepare('SELECT rowid, search_text FROM jobs').raw().all() as Array<[number, string]>;
    const insert = db.prepare('INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
    for (const [rid, text] of rows) insert.run(rid, gramsOf(text));
    db.exec(`
      -- One segment after a bulk load: each query then reads one doclist per token.
      INSERT INTO jobs_grams (jobs_grams) VALUES ('optimize');

      ALTER TABLE store_totals ADD COLUMN order_breaks INTEGER NOT NULL DEFAULT 0;
      -- Rows in rowid order whose key is below the previous row's: none means rowid order is history order.
      UPDATE store_totals SET order_breaks = (
        SELECT COUNT(*) FROM (
          SELECT created_at, id, lag(created_at) OVER w AS prev_at, lag(id) OVER w AS prev_id FROM jobs WINDOW w AS (ORDER BY rowid)
        ) WHERE (created_at, id) < (prev_at, prev_id)
      ) WHERE id = 1;
      -- A new row gets the highest rowid; it breaks the order unless its key is also the highest (two index seeks).
      CREATE TRIGGER jobs_order_insert AFTER INSERT ON jobs
      WHEN EXISTS (SELECT 1 FROM jobs WHERE rowid > new.rowid)
        OR EXISTS (SELECT 1 FROM jobs WHERE (created_at, id) > (new.created_at, new.id))
      BEGIN
        UPDATE store_totals SET order_breaks = order_breaks + 1 WHERE id = 1;
      END;
      CREATE TRIGGER jobs_order_update AFTER UPDATE OF created_at, id ON jobs
      WHEN old.created_at IS NOT new.created_at OR old.id IS NOT new.id
      BEGIN
        UPDATE store_totals SET order_breaks = order_breaks + 1 WHERE id = 1;
      END;
      -- Set by the store around its own inserts, which index in JS (linear in the text); other writers get the SQL.
      ALTER TABLE store_totals ADD COLUMN grams_from_app INTEGER NOT NULL DEFAULT 0;
      CREATE TRIGGER jobs_grams_insert AFTER INSERT ON jobs
      WHEN (SELECT grams_from_app FROM store_totals WHERE id = 1) = 0
      BEGIN
        INSERT INTO jobs_grams (rowid, grams) VALUES (new.rowid, ${gramsSql('new.search_text')});
      END;
      CREATE TRIGGER jobs_grams_delete AFTER DELETE ON jobs BEGIN
        DELETE FROM jobs_grams WHERE rowid = old.rowid;
      END;
      CREATE TRIGGER jobs_grams_update AFTER UPDATE OF search_text ON jobs BEGIN
        DELETE FROM jobs_grams WHERE rowid = old.rowid;
        INSERT INTO jobs_grams (rowid, grams) VALUES (new.rowid, ${gramsSql('new.search_text')});
      END;
    `);
  },
};
