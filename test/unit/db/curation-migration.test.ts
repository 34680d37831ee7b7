import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { open, tempDir } from './helpers.js';

describe('migration 10: curation per image and indexed settings', () => {
  it("gives a favourite job's images the favourite, fills the settings columns and folds old prompts anew", () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(
      db,
      dir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 10),
    );
    const job = db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, model, prompt, negative_prompt, width, height, count, request_json, search_text, favorite, source, metadata_json)
       VALUES (?, 'succeeded', ?, ?, ?, ?, ?, ?, 512, 768, 2, ?, ?, ?, ?, ?)`,
    );
    const request = (extra: object) =>
      JSON.stringify({ provider: 'a1111', prompt: 'ČERVENÁ liška', width: 512, height: 768, count: 2, ...extra });
    job.run(
      'fav',
      2,
      2,
      'a1111',
      'DreamShaper_8',
      'ČERVENÁ liška',
      'Blurry',
      request({ steps: 28, guidance: 7, sampler: 'DPM++ 2M', negativePrompt: 'Blurry' }),
      'červená liška\nblurry',
      1,
      'atelier',
      null,
    );
    job.run(
      'imp',
      1,
      1,
      'comfyui',
      null,
      'an owl',
      null,
      request({ prompt: 'an owl', steps: 20 }),
      'an owl',
      0,
      'comfyui',
      JSON.stringify({
        model: 'sdxl_base_1.0',
        sampler: 'euler',
        scheduler: 'karras',
        loras: [{ name: 'add_detail' }],
        raw: [],
        problems: [],
        locations: [],
        mode: 'link',
      }),
    );
    const image = db.prepare(
      `INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, seed) VALUES (?, ?, ?, ?, ?, 1, 512, 768, 'image/png', ?)`,
    );
    image.run('f0', 'fav', 0, 'library/f0.png', 'f0', 424242);
    image.run('f1', 'fav', 1, 'library/f1.png', 'f1', 424243);
    image.run('o0', 'imp', 0, 'library/o0.png', 'o0', 7);
    db.close();

    const store = open({ dataDir: dir });
    const fav = store.get('fav');
    expect(fav.images.map((i) => i.favorite)).toEqual([true, true]);
    expect(fav.favorite).toBe(true);
    expect(store.get('imp').images[0]!.favorite).toBeUndefined();
    const ids = (search: string) => store.list({ limit: 10, view: 'active', search }).items.map((j) => j.id);
    expect(ids('cervena')).toEqual(['fav']);
    expect(ids('steps:28 cfg:7 sampler:"dpm++"')).toEqual(['fav']);
    expect(ids('model:dreamshaper')).toEqual(['fav']);
    expect(ids('model:sdxl scheduler:karras lora:detail sampler:euler')).toEqual(['imp']);
    expect(ids('seed:424243')).toEqual(['fav']);
    expect(ids('424242')).toEqual(['fav']);
    expect(ids('negative:blurry')).toEqual(['fav']);
    expect(ids('is:favorite')).toEqual(['fav']);
    expect(store.curation.suggest('model:', 6).items.map((s) => [s.label, s.count])).toEqual([
      ['DreamShaper_8', 1],
      ['sdxl_base_1.0', 1],
    ]);
    store.close();
  });

  it('keeps facet counts equal to the jobs holding each value as jobs come and go', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    const submit = (model: string) =>
      store.submit({ provider: 'a1111', model, prompt: 'p', width: 64, height: 64, count: 1, sampler: 'Euler' }).job.id;
    const a = submit('Model A');
    submit('Model A');
    submit('model b');
    store.trash([a]);
    store.purge([a]);
    const counts = () => store.curation.suggest('model:', 6).items.map((s) => [s.label, s.count]);
    expect(counts()).toEqual([
      ['Model A', 1],
      ['model b', 1],
    ]);
    expect(store.curation.suggest('sampler:eu', 10).items.map((s) => [s.label, s.count])).toEqual([['Euler', 2]]);
    store.close();
  });
});
