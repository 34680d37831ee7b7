/**
 * A library for bench/models.ts and the model library's tests: jobs spread over many checkpoints and LoRAs, each with
 * 1–3 images, some rated, some favourites, some trashed or rejected; a share imported with the model's hash in their
 * metadata. Written straight into a migrated schema with the columns and folding the store writes (as
 * bench/lib/search-seed.ts does); facet_values and the job roll-ups follow from the triggers and the row.
 */
import Database from 'better-sqlite3';
import { uuidv7 } from '../../shared/ids.js';
import { facetsOf, withSettings } from '../../electron/db/facets.js';
import { searchTextOf } from '../../electron/db/fold.js';
import { gramsOf } from '../../electron/db/grams.js';
import { rng } from '../../test/fixtures/seeded-random.js';

/** A checkpoint's file and its sha256 (the fake server lists it; a share of imported jobs carry the first 10 digits). */
export const seededCheckpoint = (i: number) => ({
  name: `checkpoint_${String(i).padStart(4, '0')}_v${(i % 7) + 1}`,
  sha256: (i.toString(16).padStart(8, '0') + 'c'.repeat(56)).slice(0, 64),
});
export const seededLora = (i: number) => ({
  name: `lora_${String(i).padStart(4, '0')}_style`,
  sha256: (i.toString(16).padStart(8, '0') + 'a'.repeat(56)).slice(0, 64),
});

export interface ModelSeed {
  jobs: number;
  checkpoints: number;
  loras: number;
  /** Newest job's created_at. */
  newest: number;
}

/** Seeds `jobs` jobs into the migrated library at `path`, over `checkpoints` checkpoints and `loras` LoRAs. */
export function seedModelLibrary(
  path: string,
  spec: { jobs: number; checkpoints: number; loras: number; now: number },
) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const random = rng(26);
  const insertJob = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, completed_at, provider, model, prompt, width, height, count,
       request_json, result_json, search_text, progress_stage, progress_fraction, source, metadata_json, best_rating,
       trashed_at, favorite, model_key, sampler_key, steps, cfg)
     VALUES (?, 'succeeded', ?, ?, ?, ?, ?, ?, 512, 512, ?, ?, '{}', ?, 'done', 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertImage = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, thumb_path, rating, favorite,
       trashed_at, rejected)
     VALUES (?, ?, ?, ?, ?, 1000, 512, 512, 'image/png', ?, ?, ?, ?, ?)`,
  );
  const insertLora = db.prepare('INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)');
  const insertGrams = db.prepare('INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
  const gramsFromApp = db.prepare('UPDATE store_totals SET grams_from_app = ? WHERE id = 1');
  const step = 60_000;
  let created = spec.now - spec.jobs * step;
  let made = 0;
  const batch = db.transaction((until: number) => {
    gramsFromApp.run(1);
    for (; made < until; made++) {
      created += step;
      const id = uuidv7(created);
      // Every model is used (the first ones most), so the library has as many entries with images as it lists.
      const index = made < spec.checkpoints ? made : Math.floor(spec.checkpoints * random() ** 1.6);
      const checkpoint = seededCheckpoint(index);
      const imported = random() < 0.3;
      const loraCount = made < spec.loras ? 1 : Math.floor(random() * 3);
      const loras = Array.from({ length: loraCount }, (_, k) =>
        seededLora(made < spec.loras && k === 0 ? made : Math.floor(spec.loras * random() ** 1.6)),
      ).map((l) => ({ name: l.name, weight: 0.8 }));
      const prompt = `a study of light ${made % 97}`;
      const request = { provider: imported ? 'a1111' : 'comfyui', prompt, width: 512, height: 512, count: 1 };
      const metadata = {
        model: imported ? checkpoint.name : `${checkpoint.name}.safetensors`,
        loras,
        ...(imported ? { modelHash: checkpoint.sha256.slice(0, 10) } : {}),
      };
      const facets = facetsOf({ provider: request.provider, model: metadata.model, request, metadata });
      const count = 1 + Math.floor(random() * random() * 3);
      const images = Array.from({ length: count }, () => ({
        rating: random() < 0.25 ? 1 + Math.floor(random() * 5) : 0,
        favorite: random() < 0.03 ? 1 : 0,
        trashed: random() < 0.02 ? created + 1 : null,
        rejected: random() < 0.02 ? 1 : 0,
      }));
      const searchText = withSettings(searchTextOf(prompt), facets);
      const inserted = insertJob.run(
        id,
        created,
        created,
        created,
        request.provider,
        metadata.model,
        prompt,
        count,
        JSON.stringify(request),
        searchText,
        imported ? 'a1111' : 'atelier',
        JSON.stringify(metadata),
        Math.max(0, ...images.filter((im) => im.trashed === null).map((im) => im.rating)),
        random() < 0.005 ? created + 2 : null,
        images.some((im) => im.favorite === 1) ? 1 : 0,
        facets.modelKey,
        facets.samplerKey,
        facets.steps,
        facets.cfg,
      );
      insertGrams.run(inserted.lastInsertRowid, gramsOf(searchText));
      for (const lora of facets.loras) insertLora.run(id, lora.key, lora.name);
      images.forEach((im, k) => {
        const imageId = uuidv7(created + k);
        insertImage.run(
          imageId,
          id,
          k,
          `library/${imageId}.png`,
          imageId.replaceAll('-', '').padEnd(64, '0'),
          `thumbs/${imageId}.webp`,
          im.rating,
          im.favorite,
          im.trashed,
          im.rejected,
        );
      });
    }
    gramsFromApp.run(0);
  });
  while (made < spec.jobs) batch(Math.min(spec.jobs, made + 20_000));
  db.close();
  return { jobs: made, checkpoints: spec.checkpoints, loras: spec.loras, newest: created } satisfies ModelSeed;
}

/** What a fake A1111 lists for the seeded checkpoints and LoRAs (hashes, base models, training tags). */
export function seededServerLists(checkpoints: number, loras: number) {
  return {
    sdModels: Array.from({ length: checkpoints }, (_, i) => {
      const c = seededCheckpoint(i);
      return { title: c.name, model_name: c.name, hash: c.sha256.slice(0, 10), sha256: c.sha256, filename: c.name };
    }),
    loras: Array.from({ length: loras }, (_, i) => {
      const l = seededLora(i);
      return {
        name: l.name,
        alias: l.name,
        path: `/models/Lora/${l.name}.safetensors`,
        metadata: {
          sshs_model_hash: l.sha256,
          ss_base_model_version: i % 2 === 0 ? 'sdxl_base_v1-0' : 'sd_v1',
          ss_tag_frequency: { '10_style': { [`style ${i}`]: 20, detailed: 10, [`subject ${i % 13}`]: 5 } },
        },
      };
    }),
  };
}
