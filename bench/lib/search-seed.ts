/**
 * A synthetic library for bench/search: jobs of 1–4 images with realistic settings, written straight into the schema
 * with the same columns and folding the store writes (facetsOf, withSettings, gramsOf with the grams stand-aside, as
 * electron/db/file-jobs.ts does). facet_values, tags.images, boards.images and store_totals follow from the triggers;
 * the per-image roll-ups on jobs (best_rating, trashed_images, favorite) are written with the row.
 */
import Database from 'better-sqlite3';
import { uuidv7 } from '../../shared/ids.js';
import { facetsOf, withSettings } from '../../electron/db/facets.js';
import { foldForSearch, searchTextOf } from '../../electron/db/fold.js';
import { gramsOf } from '../../electron/db/grams.js';
import { byteLength } from '../../electron/db/bounds.js';
import { ROW_OVERHEAD_BYTES } from '../../electron/db/jobs.js';
import { rng } from '../../test/fixtures/seeded-random.js';

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
/** Zipf-like: the first values are common, the tail rare (as models and tags are in a real library). */
const skewed = <T>(random: () => number, list: readonly T[]): T =>
  list[Math.min(list.length - 1, Math.floor(list.length * random() ** 2.2))]!;

export const MODELS = [
  'juggernautXL_v9',
  'ponyDiffusionV6XL',
  'sd_xl_base_1.0',
  'dreamshaper_8',
  'realisticVisionV60B1',
  'flux1-dev',
  'animagineXL_v31',
  'epicrealism_naturalSin',
  'deliberate_v3',
  'revAnimated_v122',
  'majicmixRealistic_v7',
  'absolutereality_v181',
  'cyberrealistic_v42',
  'counterfeit_v30',
  'anythingV5',
  'protovisionXL_v6',
  'zavychromaXL_v80',
  'realvisxlV40',
  'dynavisionXL',
  'copaxTimelessxl_v12',
  'albedobaseXL_v21',
  'nightvisionXL',
  'leosamHelloworldXL_v60',
  'stable-diffusion-3-medium',
  'flux1-schnell',
  'playground-v2.5',
  'sdxl_lightning_4step',
  'Červená Lyra v2',
  'hassakuHentai_v13',
  'photon_v1',
] as const;
export const SAMPLERS = [
  'euler',
  'euler_ancestral',
  'dpmpp_2m',
  'dpmpp_2m_sde',
  'dpmpp_3m_sde',
  'ddim',
  'heun',
  'lms',
  'uni_pc',
  'lcm',
] as const;
export const SCHEDULERS = ['karras', 'normal', 'exponential', 'sgm_uniform'] as const;
export const LORAS = Array.from({ length: 50 }, (_, i) => {
  const a = [
    'add_detail',
    'film_grain',
    'lcm_lora',
    'pixel_art',
    'watercolor_style',
    'epi_noise_offset',
    'more_details',
    'hands_fix',
    'ghibli_style',
    'cyberpunk_neon',
  ];
  return `${a[i % a.length]}_v${Math.floor(i / a.length) + 1}`;
});
export const SIZES: ReadonlyArray<[number, number]> = [
  [512, 512],
  [512, 768],
  [768, 512],
  [768, 768],
  [832, 1216],
  [1216, 832],
  [1024, 1024],
  [1024, 1024],
  [896, 1152],
  [1152, 896],
  [1344, 768],
  [768, 1344],
  [1536, 640],
  [1024, 576],
];
const SUBJECTS = [
  'fox',
  'lighthouse',
  'teapot',
  'castle',
  'robot',
  'forest',
  'dragon',
  'portrait',
  'city',
  'garden',
  'ship',
  'owl',
  'mountain',
  'cat',
  'river',
  'tower',
  'červená liška',
  'Ελληνικός ναός',
  '東京の夜',
];
const STYLES = [
  'watercolor',
  'oil painting',
  'pixel art',
  'photograph',
  'ink sketch',
  'isometric',
  'low poly',
  'charcoal',
  'studio lighting',
  'cinematic',
];
const MOODS = [
  'at dawn',
  'in the rain',
  'under neon lights',
  'in winter',
  'at golden hour',
  'in fog',
  'at night',
  'in spring',
];
const QUALITY = ['masterpiece', 'best quality', 'highly detailed', '8k', 'sharp focus', 'intricate'];
export const RARE = ['quetzalcoatl', 'zeppelin', 'marzipan', 'obsidian', 'kaleidoscope'];
const NEGATIVES = [
  'blurry, lowres',
  'bad hands, extra fingers',
  'watermark, text',
  'jpeg artifacts, worst quality',
  'deformed',
];
export const TAGS = Array.from({ length: 300 }, (_, i) => {
  const a = [
    'keeper',
    'portfolio',
    'wip',
    'reference',
    'client',
    'print',
    'social',
    'cover',
    'concept',
    'study',
    'mood',
    'palette',
    'pose',
    'texture',
    'sketch',
  ];
  return i < a.length ? a[i]! : `${a[i % a.length]}-${Math.floor(i / a.length)}`;
});
export const BOARDS = [
  'Cover ideas',
  'Portfolio 2026',
  'Client: Nova',
  'Textures',
  'Favourites of the week',
  'Print shop',
];
/** Where imported jobs came from; the rest are Atelier's own. */
const SOURCES = ['atelier', 'atelier', 'atelier', 'atelier', 'a1111', 'comfyui', 'invokeai', 'fooocus'] as const;
const PROVIDERS = ['a1111', 'comfyui', 'builtin', 'openai'] as const;

function prompt(random: () => number): string {
  const parts = [`${pick(random, STYLES)} of a ${pick(random, SUBJECTS)} ${pick(random, MOODS)}`];
  if (random() < 0.5) parts.push(`with ${pick(random, SUBJECTS)}`);
  parts.push(pick(random, QUALITY));
  if (random() < 0.001) parts.push(pick(random, RARE));
  return parts.join(', ');
}

export interface Seeded {
  jobs: number;
  images: number;
  /** Newest job's created_at: date queries are relative to the clock, so the history ends now. */
  newest: number;
}

/**
 * Seeds about `images` images into a migrated, empty library at `path`, in transactions of 20,000 jobs. Ids are
 * uuidv7 of created_at, inserted in history order, so rowid order stays history order as in a real library.
 */
export function seedLibrary(
  path: string,
  images: number,
  now: number,
  progress: (done: number) => void = () => {},
): Seeded {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const random = rng(42);
  // 1.9 images per job on average (1 + floor(4r²)), 3% failed with none.
  const jobsEstimate = Math.ceil(images / 1.85);
  const step = 60_000; // a job a minute: ~280 days for 1M images
  const start = now - jobsEstimate * step;
  const insertJob = db.prepare(
    `INSERT INTO jobs (id, status, created_at, updated_at, started_at, completed_at, provider, model, prompt, negative_prompt,
       width, height, count, request_json, result_json, error_json, search_text, progress_stage, progress_fraction, source,
       metadata_json, logical_bytes, trashed_at, best_rating, trashed_images, model_key, sampler_key, scheduler_key, steps, cfg, negative_key)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'done', 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertImage = db.prepare(
    `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, thumb_path, seed, batch_index, rating, favorite, trashed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'image/png', ?, ?, ?, ?, ?, ?)`,
  );
  const insertLora = db.prepare('INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)');
  const gramsFromApp = db.prepare('UPDATE store_totals SET grams_from_app = ? WHERE id = 1');
  const insertGrams = db.prepare('INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
  const favoriteJob = db.prepare('UPDATE jobs SET favorite = 1 WHERE id = ?');
  const tagImage = db.prepare('INSERT OR IGNORE INTO image_tags (tag_id, image_id) VALUES (?, ?)');
  const boardImage = db.prepare('INSERT OR IGNORE INTO board_images (board_id, image_id, added_at) VALUES (?, ?, ?)');

  const tagIds: number[] = [];
  const boardIds: string[] = [];
  db.transaction(() => {
    const addTag = db.prepare('INSERT INTO tags (name, key, images, created_at) VALUES (?, ?, 0, ?)');
    for (const name of TAGS) tagIds.push(Number(addTag.run(name, foldForSearch(name), start).lastInsertRowid));
    const addBoard = db.prepare(
      'INSERT INTO boards (id, name, key, query, images, created_at) VALUES (?, ?, ?, NULL, 0, ?)',
    );
    for (const [i, name] of BOARDS.entries()) {
      const id = uuidv7(start + i);
      addBoard.run(id, name, foldForSearch(name), start);
      boardIds.push(id);
    }
  })();

  let jobs = 0;
  let made = 0;
  let created = start;
  const batch = db.transaction((until: number) => {
    gramsFromApp.run(1);
    while (made < until) {
      created += Math.max(1, Math.round(step * (0.5 + random())));
      const id = uuidv7(created);
      const failed = random() < 0.03;
      const count = failed ? 0 : 1 + Math.floor(random() * random() * 4);
      const [width, height] = pick(random, SIZES);
      const model = skewed(random, MODELS);
      const sampler = skewed(random, SAMPLERS);
      const scheduler = random() < 0.8 ? skewed(random, SCHEDULERS) : undefined;
      const loraCount = Math.floor(random() * random() * 4);
      const loras = [...new Set(Array.from({ length: loraCount }, () => skewed(random, LORAS)))].map((name) => ({
        name,
        weight: 0.8,
      }));
      const steps = random() < 0.7 ? 20 + Math.floor(random() * 11) : 10 + Math.floor(random() * 51);
      const guidance = Math.round((1 + random() * 14) * 2) / 2;
      const seed = Math.floor(random() * 4_294_967_295);
      const text = prompt(random);
      const negative = random() < 0.6 ? pick(random, NEGATIVES) : undefined;
      const source = pick(random, SOURCES);
      const provider = source === 'atelier' ? pick(random, PROVIDERS) : source;
      const request = {
        provider,
        prompt: text,
        ...(negative !== undefined && { negativePrompt: negative }),
        width,
        height,
        count: Math.max(1, count),
        model,
        sampler,
        steps,
        guidance,
        seed,
      };
      const metadata = {
        model,
        sampler,
        ...(scheduler !== undefined && { scheduler }),
        loras,
        steps,
        cfg: guidance,
        seed,
        width,
        height,
      };
      const facets = facetsOf({
        provider,
        model,
        request,
        metadata,
        seeds: Array.from({ length: count }, (_, k) => seed + k),
      });
      const searchText = withSettings(searchTextOf(text), facets);
      const requestJson = JSON.stringify(request);
      const metadataJson = JSON.stringify(metadata);
      const resultJson = failed ? null : JSON.stringify({ timings: {}, seed });
      const errorJson = failed
        ? JSON.stringify({ code: 'provider_error', message: 'The provider refused the request.' })
        : null;
      const trashedJob = !failed && random() < 0.005 ? created + 3_600_000 : null;
      // Per image: ~20% rated, ~3% favourite, ~2% trashed on their own.
      const perImage = Array.from({ length: count }, () => ({
        rating: random() < 0.2 ? 1 + Math.floor(random() * 5) : 0,
        favorite: random() < 0.03 ? 1 : 0,
        trashed: trashedJob === null && random() < 0.02 ? created + 7_200_000 : null,
      }));
      const bestRating = perImage.reduce((best, im) => (im.trashed === null ? Math.max(best, im.rating) : best), 0);
      const trashedImages = perImage.filter((im) => im.trashed !== null).length;
      const logicalBytes =
        byteLength(requestJson) + byteLength(searchText) + byteLength(resultJson ?? '') + ROW_OVERHEAD_BYTES;
      const inserted = insertJob.run(
        id,
        failed ? 'failed' : 'succeeded',
        created,
        created + 20_000,
        created + 1_000,
        created + 20_000,
        provider,
        model,
        text,
        negative ?? null,
        width,
        height,
        Math.max(1, count),
        requestJson,
        resultJson,
        errorJson,
        searchText,
        source,
        metadataJson,
        logicalBytes,
        trashedJob,
        bestRating,
        trashedImages,
        facets.modelKey,
        facets.samplerKey,
        facets.schedulerKey,
        facets.steps,
        facets.cfg,
        facets.negativeKey,
      );
      insertGrams.run(inserted.lastInsertRowid, gramsOf(searchText));
      for (const lora of facets.loras) insertLora.run(id, lora.key, lora.name);
      for (let k = 0; k < count; k += 1) {
        const imageId = uuidv7(created + k);
        const im = perImage[k]!;
        insertImage.run(
          imageId,
          id,
          k,
          `images/${id}/${k}.png`,
          imageId.replaceAll('-', '').padEnd(64, '0'),
          1_400_000,
          width,
          height,
          `thumbs/${imageId}.webp`,
          seed + k,
          k,
          im.rating,
          im.favorite,
          im.trashed,
        );
        if (random() < 0.3) {
          const n = 1 + Math.floor(random() * 10);
          for (let t = 0; t < n; t += 1) tagImage.run(skewed(random, tagIds), imageId);
        }
        if (random() < 0.04) boardImage.run(skewed(random, boardIds), imageId, created + 60_000);
      }
      if (perImage.some((im) => im.favorite === 1)) favoriteJob.run(id);
      jobs += 1;
      made += count;
    }
    gramsFromApp.run(0);
  });
  const CHUNK = 50_000;
  while (made < images) {
    batch(Math.min(images, made + CHUNK));
    progress(Math.floor(made));
  }
  db.exec("INSERT INTO jobs_grams (jobs_grams) VALUES ('optimize')");
  const total = (db.prepare('SELECT count(*) AS n FROM images').get() as { n: number }).n;
  db.close();
  return { jobs, images: total, newest: created };
}
