import { facetsOf, withSettings } from '../facets.js';
import { foldForSearch } from '../fold.js';
import { gramsOf } from '../grams.js';
import { gramsSql } from './0004_search_grams.js';
import type { Migration } from './types.js';

/**
 * Version 10: curation per image, and every setting a query filters on in an indexed column.
 * - images.rating / favorite / trashed_at; a favourite job's images become favourites. jobs.favorite, best_rating
 *   and trashed_images are roll-ups of its images kept by triggers, so the job-level lists and counts stay O(1).
 * - jobs.model_key, sampler_key, scheduler_key, steps, cfg, negative_key and job_loras: folded once on write.
 * - facet_values counts jobs per model, sampler, scheduler and LoRA (the query's value lists and suggestions).
 * - tags and boards, many per image. search_text is folded again (accents now go) with a settings line appended.
 */
export const migration0010: Migration = {
  version: 10,
  name: 'curation',
  up(db) {
    db.exec(`
      ALTER TABLE images ADD COLUMN rating INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5);
      ALTER TABLE images ADD COLUMN favorite INTEGER NOT NULL DEFAULT 0 CHECK (favorite IN (0, 1));
      ALTER TABLE images ADD COLUMN trashed_at INTEGER;
      UPDATE images SET favorite = 1 WHERE job_id IN (SELECT id FROM jobs WHERE favorite = 1);
      CREATE INDEX images_trashed ON images (job_id) WHERE trashed_at IS NOT NULL;

      ALTER TABLE jobs ADD COLUMN best_rating INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN trashed_images INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN model_key TEXT;
      ALTER TABLE jobs ADD COLUMN sampler_key TEXT;
      ALTER TABLE jobs ADD COLUMN scheduler_key TEXT;
      ALTER TABLE jobs ADD COLUMN steps INTEGER;
      ALTER TABLE jobs ADD COLUMN cfg REAL;
      ALTER TABLE jobs ADD COLUMN negative_key TEXT;

      CREATE TABLE job_loras (
        job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (key, job_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX job_loras_job ON job_loras (job_id);

      CREATE TABLE tags (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        key TEXT NOT NULL UNIQUE,
        images INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE image_tags (
        tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        PRIMARY KEY (tag_id, image_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX image_tags_image ON image_tags (image_id, tag_id);
      CREATE TRIGGER image_tags_count_insert AFTER INSERT ON image_tags BEGIN
        UPDATE tags SET images = images + 1 WHERE id = new.tag_id;
      END;
      CREATE TRIGGER image_tags_count_delete AFTER DELETE ON image_tags BEGIN
        UPDATE tags SET images = images - 1 WHERE id = old.tag_id;
      END;

      CREATE TABLE boards (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key TEXT NOT NULL UNIQUE,
        query TEXT,
        images INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE board_images (
        board_id TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        added_at INTEGER NOT NULL,
        PRIMARY KEY (board_id, image_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX board_images_image ON board_images (image_id, board_id);

      -- XMP sidecars Atelier wrote beside imported originals, with the hash of what it wrote: it rewrites only its own,
      -- and only while nobody else has changed them.
      CREATE TABLE xmp_sidecars (
        path TEXT PRIMARY KEY,
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        sha256 TEXT NOT NULL,
        written_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX xmp_sidecars_image ON xmp_sidecars (image_id);
      CREATE TRIGGER board_images_count_insert AFTER INSERT ON board_images BEGIN
        UPDATE boards SET images = images + 1 WHERE id = new.board_id;
      END;
      CREATE TRIGGER board_images_count_delete AFTER DELETE ON board_images BEGIN
        UPDATE boards SET images = images - 1 WHERE id = old.board_id;
      END;
    `);

    // Backfill in JS (the same folding and facets the store writes); the grams trigger stands aside meanwhile.
    db.exec('DROP TRIGGER jobs_grams_update');
    const jobs = db
      .prepare('SELECT rowid, id, provider, model, request_json, metadata_json, search_text FROM jobs')
      .raw()
      .all() as Array<[number, string, string, string | null, string, string | null, string]>;
    const seedsOf = db
      .prepare(
        'SELECT coalesce(seed, seed_digits) FROM images WHERE job_id = ? AND coalesce(seed, seed_digits) IS NOT NULL',
      )
      .pluck();
    const update = db.prepare(
      `UPDATE jobs SET model_key = ?, sampler_key = ?, scheduler_key = ?, steps = ?, cfg = ?, negative_key = ?, search_text = ?
       WHERE rowid = ?`,
    );
    const addLora = db.prepare('INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)');
    const regram = db.prepare('DELETE FROM jobs_grams WHERE rowid = ?');
    const gram = db.prepare('INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
    for (const [rowid, id, provider, model, requestJson, metadataJson, searchText] of jobs) {
      const request = JSON.parse(requestJson) as Parameters<typeof facetsOf>[0]['request'];
      const metadata =
        metadataJson === null ? null : (JSON.parse(metadataJson) as Parameters<typeof facetsOf>[0]['metadata']);
      const seeds = seedsOf.all(id) as Array<number | string>;
      const facets = facetsOf({ provider, model, request, metadata, seeds });
      const text = withSettings(foldForSearch(searchText), facets);
      update.run(
        facets.modelKey,
        facets.samplerKey,
        facets.schedulerKey,
        facets.steps,
        facets.cfg,
        facets.negativeKey,
        text,
        rowid,
      );
      for (const lora of facets.loras) addLora.run(id, lora.key, lora.name);
      regram.run(rowid);
      gram.run(rowid, gramsOf(text));
    }
    db.exec(`
      CREATE TRIGGER jobs_grams_update AFTER UPDATE OF search_text ON jobs BEGIN
        DELETE FROM jobs_grams WHERE rowid = old.rowid;
        INSERT INTO jobs_grams (rowid, grams) VALUES (new.rowid, ${gramsSql('new.search_text')});
      END;
      INSERT INTO jobs_grams (jobs_grams) VALUES ('optimize');

      UPDATE jobs SET best_rating = 0, trashed_images = 0;

      -- A job's roll-ups follow its images: favourite if any is, its best rating outside the trash, how many are trashed.
      CREATE TRIGGER images_curation_update AFTER UPDATE OF rating, favorite, trashed_at ON images BEGIN
        UPDATE jobs SET
          best_rating = coalesce((SELECT max(rating) FROM images WHERE job_id = new.job_id AND trashed_at IS NULL), 0),
          favorite = EXISTS (SELECT 1 FROM images WHERE job_id = new.job_id AND favorite = 1),
          trashed_images = (SELECT count(*) FROM images WHERE job_id = new.job_id AND trashed_at IS NOT NULL)
        WHERE id = new.job_id;
      END;
      CREATE TRIGGER images_curation_delete AFTER DELETE ON images
      WHEN old.rating > 0 OR old.favorite = 1 OR old.trashed_at IS NOT NULL
      BEGIN
        UPDATE jobs SET
          best_rating = coalesce((SELECT max(rating) FROM images WHERE job_id = old.job_id AND trashed_at IS NULL), 0),
          trashed_images = (SELECT count(*) FROM images WHERE job_id = old.job_id AND trashed_at IS NOT NULL)
        WHERE id = old.job_id;
      END;
      -- An image arriving in a job already marked favourite is a favourite (the job was starred while it ran).
      CREATE TRIGGER images_favorite_insert AFTER INSERT ON images
      WHEN (SELECT favorite FROM jobs WHERE id = new.job_id) = 1
      BEGIN
        UPDATE images SET favorite = 1 WHERE id = new.id;
      END;

      CREATE INDEX jobs_model_created ON jobs (model_key, created_at, id) WHERE model_key IS NOT NULL;
      CREATE INDEX jobs_sampler_created ON jobs (sampler_key, created_at, id) WHERE sampler_key IS NOT NULL;
      CREATE INDEX jobs_scheduler_created ON jobs (scheduler_key, created_at, id) WHERE scheduler_key IS NOT NULL;
      CREATE INDEX jobs_steps_created ON jobs (steps, created_at, id) WHERE steps IS NOT NULL;
      CREATE INDEX jobs_cfg_created ON jobs (cfg, created_at, id) WHERE cfg IS NOT NULL;
      CREATE INDEX jobs_size_created ON jobs (width, height, created_at, id);
      CREATE INDEX jobs_rating_created ON jobs (best_rating, created_at, id) WHERE best_rating > 0;
      -- The trash view: a job in the trash, or one with an image in it (the same OR the list's WHERE has).
      CREATE INDEX jobs_in_trash_created ON jobs (created_at, id) WHERE trashed_at IS NOT NULL OR trashed_images > 0;
      CREATE INDEX images_seed ON images (seed) WHERE seed IS NOT NULL;
      CREATE INDEX images_seed_digits ON images (seed_digits) WHERE seed_digits IS NOT NULL;

      CREATE TABLE facet_values (
        kind TEXT NOT NULL CHECK (kind IN ('model', 'sampler', 'scheduler', 'lora')),
        key TEXT NOT NULL,
        label TEXT NOT NULL,
        jobs INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (kind, key)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO facet_values (kind, key, label, jobs)
        SELECT 'model', model_key, min(coalesce(model, model_key)), count(*) FROM jobs WHERE model_key IS NOT NULL GROUP BY model_key;
      INSERT INTO facet_values (kind, key, label, jobs)
        SELECT 'sampler', sampler_key, min(${LABEL.sampler('')}), count(*) FROM jobs WHERE sampler_key IS NOT NULL GROUP BY sampler_key;
      INSERT INTO facet_values (kind, key, label, jobs)
        SELECT 'scheduler', scheduler_key, min(${LABEL.scheduler('')}), count(*) FROM jobs WHERE scheduler_key IS NOT NULL GROUP BY scheduler_key;
      INSERT INTO facet_values (kind, key, label, jobs)
        SELECT 'lora', key, min(name), count(*) FROM job_loras GROUP BY key;
      ${(['model', 'sampler', 'scheduler'] as const).map((kind) => facetTriggers(kind, LABEL[kind]('new.'))).join('\n')}
      CREATE TRIGGER job_loras_facet_insert AFTER INSERT ON job_loras BEGIN
        INSERT INTO facet_values (kind, key, label, jobs) VALUES ('lora', new.key, new.name, 1)
        ON CONFLICT (kind, key) DO UPDATE SET jobs = jobs + 1;
      END;
      CREATE TRIGGER job_loras_facet_delete AFTER DELETE ON job_loras BEGIN
        UPDATE facet_values SET jobs = jobs - 1 WHERE kind = 'lora' AND key = old.key;
      END;
    `);
  },
};

/** A value as the person's tool wrote it (the key is folded): the first one seen labels the suggestion. */
const LABEL = {
  model: (row: string) => `coalesce(${row}model, ${row}model_key)`,
  sampler: (row: string) =>
    `coalesce(json_extract(${row}metadata_json, '$.sampler'), json_extract(${row}request_json, '$.sampler'), ${row}sampler_key)`,
  scheduler: (row: string) => `coalesce(json_extract(${row}metadata_json, '$.scheduler'), ${row}scheduler_key)`,
};

/** Keeps facet_values.jobs equal to the jobs holding each value (values at 0 stay: they are few, and cheap). */
function facetTriggers(kind: string, label: string): string {
  const column = `${kind}_key`;
  return `
      CREATE TRIGGER jobs_facet_${kind}_insert AFTER INSERT ON jobs WHEN new.${column} IS NOT NULL BEGIN
        INSERT INTO facet_values (kind, key, label, jobs) VALUES ('${kind}', new.${column}, ${label}, 1)
        ON CONFLICT (kind, key) DO UPDATE SET jobs = jobs + 1;
      END;
      CREATE TRIGGER jobs_facet_${kind}_delete AFTER DELETE ON jobs WHEN old.${column} IS NOT NULL BEGIN
        UPDATE facet_values SET jobs = jobs - 1 WHERE kind = '${kind}' AND key = old.${column};
      END;
      CREATE TRIGGER jobs_facet_${kind}_update AFTER UPDATE OF ${column} ON jobs WHEN old.${column} IS NOT new.${column} BEGIN
        UPDATE facet_values SET jobs = jobs - 1 WHERE kind = '${kind}' AND key = old.${column};
        INSERT INTO facet_values (kind, key, label, jobs) SELECT '${kind}', new.${column}, ${label}, 1 WHERE new.${column} IS NOT NULL
        ON CONFLICT (kind, key) DO UPDATE SET jobs = jobs + 1;
      END;`;
}
