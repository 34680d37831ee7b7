import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SetImageNote } from '../../../shared/contract.js';
import { correctedDetail, effectiveSettings } from '../../../shared/corrections/effective.js';
import { foldForSearch } from '../../../shared/search-fold.js';
import { toImportedImage } from '../../../electron/library/import/to-imported.js';
import { ROW_BYTES_SQL } from '../../../electron/db/jobs.js';
import type { JobStore } from '../../../electron/db/types.js';
import { finished, image, manualClock, open, tempDir } from './helpers.js';

let files = 0;

/** One A1111 file imported as its job; returns the job's and its image's ids. */
function imported(
  store: JobStore,
  settings: Record<string, unknown> = {
    prompt: 'a red fox in the snow',
    negativePrompt: 'blurry',
    model: 'dreamshaper_8',
    seed: '1234',
    steps: 20,
    guidance: 7,
    sampler: 'Euler a',
  },
): { jobId: string; imageId: string } {
  files += 1;
  const path = `/outputs/file-${files}.png`;
  const entry = toImportedImage({
    path,
    sha256: files.toString(16).padStart(64, '0'),
    size: 100,
    mtimeMs: 1_700_000_000_000 + files,
    format: 'png',
    width: 512,
    height: 768,
    mode: 'link',
    storedPath: path,
    read: {
      format: 'png',
      source: 'a1111',
      settings,
      raw: [{ key: 'parameters', text: 'what the file says' }],
      problems: [],
    },
  });
  store.imports.commit(null, [
    { kind: 'imported', seq: 0, path, folderId: null, bytes: 100, mtimeMs: 1, image: entry },
  ]);
  return { jobId: entry.jobId, imageId: entry.image.id };
}

const found = (store: JobStore, search: string) =>
  store.list({ limit: 50, view: 'active', search }).items.map((j) => j.id);

describe('corrections of an imported image', () => {
  it('are stored beside what the file says: the request and metadata keep the file, the detail carries both', () => {
    const store = open();
    const { jobId } = imported(store);
    store.annotations.correct(jobId, { prompt: 'a grey wolf in the snow', steps: 30, model: 'juggernaut_xl' });
    const detail = store.get(jobId);
    expect(detail.request.prompt).toBe('a red fox in the snow');
    expect(detail.request.steps).toBe(20);
    expect(detail.metadata?.model).toBe('dreamshaper_8');
    expect(detail.corrections).toEqual({ prompt: 'a grey wolf in the snow', steps: 30, model: 'juggernaut_xl' });
    // The card and the list show the corrected prompt and model.
    expect(detail.prompt).toBe('a grey wolf in the snow');
    expect(detail.model).toBe('juggernaut_xl');
  });

  it('give the effective settings: the file with the corrections on top, in one function', () => {
    const store = open();
    const { jobId } = imported(store);
    store.annotations.correct(jobId, { seed: 99, width: 1024, height: 1536, negativePrompt: '' });
    const detail = store.get(jobId);
    const effective = effectiveSettings(
      { request: detail.request, metadata: detail.metadata, seed: detail.result?.seed },
      detail.corrections,
    );
    expect(effective).toEqual({
      prompt: 'a red fox in the snow',
      model: 'dreamshaper_8',
      seed: 99,
      steps: 20,
      guidance: 7,
      sampler: 'Euler a',
      width: 1024,
      height: 1536,
    });
    // Reuse, Retry and export send this request on.
    const used = correctedDetail(detail);
    expect(used.request).toMatchObject({ seed: 99, width: 1024, height: 1536 });
    expect(used.request.negativePrompt).toBeUndefined();
    expect(used.images[0]!.seed).toBe(99);
  });

  it('win in search: the corrected word and typed values find the image, the file’s typed values no longer do', () => {
    const store = open();
    const { jobId } = imported(store);
    const other = imported(store, { prompt: 'a blue heron', steps: 20, sampler: 'Euler a', model: 'dreamshaper_8' });
    expect(found(store, 'wolf')).toEqual([]);
    store.annotations.correct(jobId, { prompt: 'a grey wolf', steps: 31, sampler: 'DPM++ 2M', model: 'juggernaut_xl' });
    expect(found(store, 'wolf')).toEqual([jobId]);
    expect(found(store, 'steps:31')).toEqual([jobId]);
    expect(found(store, 'steps:20')).toEqual([other.jobId]);
    expect(found(store, 'sampler:dpm')).toEqual([jobId]);
    expect(found(store, 'model:juggernaut')).toEqual([jobId]);
    expect(found(store, 'model:dreamshaper')).toEqual([other.jobId]);
  });

  it('win for seed and size searches too', () => {
    const store = open();
    const { jobId } = imported(store);
    store.annotations.correct(jobId, { seed: '18446744073709551615', width: 832, height: 1216 });
    expect(found(store, 'seed:18446744073709551615')).toEqual([jobId]);
    expect(found(store, 'seed:1234')).toEqual([]);
    expect(found(store, 'size:832x1216')).toEqual([jobId]);
    expect(found(store, 'size:512x768')).toEqual([]);
  });

  it('revert one field at a time, or all at once, back to exactly what the file made', () => {
    const store = open();
    const { jobId } = imported(store);
    const db = new Database(join(store.info.databasePath), { readonly: true });
    const row = () =>
      db.prepare('SELECT prompt, model, steps, model_key, search_text FROM jobs WHERE id = ?').get(jobId) as Record<
        string,
        unknown
      >;
    const before = row();
    store.annotations.correct(jobId, { prompt: 'a grey wolf', steps: 31, model: 'juggernaut_xl' });
    expect(store.annotations.revert(jobId, ['steps'])).toEqual({ prompt: 'a grey wolf', model: 'juggernaut_xl' });
    expect(found(store, 'steps:20')).toEqual([jobId]);
    expect(found(store, 'wolf')).toEqual([jobId]);
    expect(store.annotations.revert(jobId)).toEqual({});
    expect(store.get(jobId).corrections).toBeUndefined();
    expect(row()).toEqual(before);
    expect(found(store, 'wolf')).toEqual([]);
    db.close();
  });

  it('correcting a field to what the file says is no correction', () => {
    const store = open();
    const { jobId } = imported(store);
    expect(store.annotations.correct(jobId, { steps: 20, seed: '1234', sampler: 'Euler a' })).toEqual({});
  });

  it('survive a rewrite of request_json, metadata_json and the search text from the file (a re-read)', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    const { jobId } = imported(store);
    store.annotations.correct(jobId, { prompt: 'a grey wolf', steps: 31 });
    // What a re-read does beneath the store: the file's fields and search text written again.
    const db = new Database(join(dir, 'atelier.db'));
    const request = JSON.parse(
      (db.prepare('SELECT request_json FROM jobs WHERE id = ?').get(jobId) as { request_json: string }).request_json,
    ) as Record<string, unknown>;
    db.prepare(
      "UPDATE jobs SET request_json = ?, prompt = ?, steps = 20, search_text = 'a red fox in the night' WHERE id = ?",
    ).run(JSON.stringify({ ...request, prompt: 'a red fox in the night' }), 'a red fox in the night', jobId);
    db.close();
    const detail = store.get(jobId);
    expect(detail.request.prompt).toBe('a red fox in the night');
    expect(detail.corrections).toEqual({ prompt: 'a grey wolf', steps: 31 });
    expect(correctedDetail(detail).request).toMatchObject({ prompt: 'a grey wolf', steps: 31 });
    // What the re-read calls after writing (createReindex in annotated-search.ts is the same function).
    store.annotations.reindex(jobId);
    expect(found(store, 'wolf')).toEqual([jobId]);
    expect(found(store, 'steps:31')).toEqual([jobId]);
    // The rewritten text is the new base: reverting leaves what the re-read wrote.
    store.annotations.revert(jobId);
    expect(found(store, 'night')).toEqual([jobId]);
    expect(found(store, 'wolf')).toEqual([]);
  });

  it('are refused for an image made in Atelier (it keeps what it was made with)', () => {
    const store = open();
    const id = finished(store, 'made here', {}, [image(0)]);
    expect(() => store.annotations.correct(id, { prompt: 'other' })).toThrow(/Only an imported image/);
  });

  it('keep the job’s logical size the sum the store computes in SQL, as at import', () => {
    const store = open();
    const { jobId, imageId } = imported(store);
    store.annotations.correct(jobId, { prompt: 'a grey wolf '.repeat(200) });
    store.annotations.setNote(imageId, 'keeper '.repeat(300));
    const db = new Database(store.info.databasePath, { readonly: true });
    const { stored, expected } = db
      .prepare(`SELECT logical_bytes AS stored, ${ROW_BYTES_SQL} AS expected FROM jobs WHERE id = ?`)
      .get(jobId) as { stored: number; expected: number };
    db.close();
    expect(stored).toBe(expected);
  });

  it('move the job’s updatedAt, so the viewer refetches its details', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const { jobId } = imported(store);
    const before = store.getSummary(jobId).updatedAt;
    store.annotations.correct(jobId, { steps: 40 });
    expect(store.getSummary(jobId).updatedAt).toBeGreaterThan(before);
  });
});

describe('a note per image', () => {
  it('is kept, shown in the detail, found with note: and by plain words, and removed when emptied', () => {
    const store = open();
    const { jobId, imageId } = imported(store);
    const other = imported(store, { prompt: 'a blue heron' });
    const saved = store.annotations.setNote(imageId, 'Print this one\nfor the gallery wall');
    expect(saved.jobId).toBe(jobId);
    expect(store.get(jobId).notes).toEqual([
      { imageId, text: 'Print this one\nfor the gallery wall', updatedAt: saved.note!.updatedAt },
    ]);
    expect(found(store, 'note:gallery')).toEqual([jobId]);
    expect(found(store, 'note:GALLERY wall')).toEqual([jobId]);
    expect(found(store, 'gallery')).toEqual([jobId]);
    expect(found(store, '-note:gallery')).toEqual([other.jobId]);
    expect(found(store, 'note:heron')).toEqual([]);
    expect(store.annotations.setNote(imageId, '').note).toBeNull();
    expect(store.get(jobId).notes).toBeUndefined();
    expect(found(store, 'note:gallery')).toEqual([]);
    expect(found(store, 'gallery')).toEqual([]);
  });

  it('works for Atelier’s own images, each image of a batch its own', () => {
    const store = open();
    const first = image(0);
    const second = image(1);
    const id = finished(store, 'a lighthouse at dusk', {}, [first, second]);
    store.annotations.setNote(second.id, 'the good one');
    expect(found(store, 'note:good')).toEqual([id]);
    // Only the noted image shows for note: (an image-level clause).
    expect(store.list({ limit: 5, view: 'active', search: 'note:good' }).items[0]!.images.map((i) => i.id)).toEqual([
      second.id,
    ]);
    expect(found(store, 'lighthouse good')).toEqual([id]);
  });

  it('and corrections share the search text: each keeps its words when the other changes', () => {
    const store = open();
    const { jobId, imageId } = imported(store);
    store.annotations.setNote(imageId, 'keeper');
    store.annotations.correct(jobId, { prompt: 'a grey wolf' });
    expect(found(store, 'wolf keeper')).toEqual([jobId]);
    store.annotations.setNote(imageId, '');
    expect(found(store, 'wolf')).toEqual([jobId]);
    expect(found(store, 'keeper')).toEqual([]);
  });

  it('a note: search reads the few noted images first (the query plan)', () => {
    const store = open();
    const { imageId } = imported(store);
    store.annotations.setNote(imageId, 'keeper');
    const db = new Database(store.info.databasePath, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('keeper') as Array<{ detail: string }>).map((r) => r.detail);
    // The driver: the notes, then each job by its primary key (no walk of the history).
    const driver = plan(
      'SELECT j.id FROM jobs AS j WHERE j.id IN (SELECT job_id FROM image_notes WHERE instr(folded, ?) > 0)',
    );
    expect(driver.join('\n')).toMatch(/SEARCH j USING (COVERING )?INDEX sqlite_autoindex_jobs_1 \(id=\?\)/);
    expect(driver.join('\n')).toMatch(/SCAN image_notes/);
    expect(driver.join('\n')).not.toMatch(/SCAN j\b/);
    // The image clause: one primary-key read of the image's note.
    const check = plan(
      'SELECT i.id FROM images AS i WHERE EXISTS (SELECT 1 FROM image_notes AS n WHERE n.image_id = i.id AND instr(n.folded, ?) > 0)',
    );
    expect(check.join('\n')).toMatch(/SEARCH n (EXISTS )?USING PRIMARY KEY \(image_id=\?\)/);
    // A job's notes, for its search text: through image_notes_job.
    expect(plan('SELECT folded FROM image_notes WHERE job_id = ? ORDER BY image_id').join('\n')).toMatch(
      /USING INDEX image_notes_job \(job_id=\?\)/,
    );
    db.close();
  });

  it('goes with its image: purging the job removes its notes and corrections', () => {
    const store = open();
    const { jobId, imageId } = imported(store);
    store.annotations.setNote(imageId, 'keeper');
    store.annotations.correct(jobId, { steps: 40 });
    store.trash([jobId]);
    store.purge([jobId]);
    const db = new Database(store.info.databasePath, { readonly: true });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('image_notes'), count('job_corrections'), count('annotated_search')]).toEqual([0, 0, 0]);
    db.close();
  });
});

describe('any text a person writes', () => {
  it('as a corrected prompt or a note: found by each of its words, and once reverted the row is exactly as the file made it', () => {
    const store = open();
    const { jobId, imageId } = imported(store);
    const db = new Database(store.info.databasePath, { readonly: true });
    const row = () =>
      db
        .prepare(
          'SELECT j.prompt, j.model, j.steps, j.cfg, j.width, j.height, j.model_key, j.sampler_key, j.negative_key, j.search_text, i.seed FROM jobs AS j JOIN images AS i ON i.job_id = j.id WHERE j.id = ?',
        )
        .get(jobId);
    const before = row();
    const word = fc.stringMatching(/^[\p{L}\p{N}]{1,12}$/u);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 6 }),
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        (promptWords, noise, noteWords) => {
          const prompt = `${promptWords.join(' ')} ${noise}`;
          const note = SetImageNote.safeParse({ imageId, text: `${noteWords.join(' ')}\n${noise}` });
          store.annotations.correct(jobId, { prompt });
          if (note.success) store.annotations.setNote(imageId, note.data.text);
          for (const w of promptWords) expect(found(store, `"${w}"`), w).toContain(jobId);
          if (note.success) {
            for (const w of noteWords) expect(found(store, `note:"${foldForSearch(w)}"`), w).toEqual([jobId]);
          }
          store.annotations.setNote(imageId, '');
          store.annotations.revert(jobId);
          expect(row()).toEqual(before);
        },
      ),
      { numRuns: 60 },
    );
    db.close();
  });
});
