import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../electron/db/migrations/runner.js';
import { MIGRATIONS } from '../../../electron/db/migrations/index.js';
import { withoutNegative } from '../../../electron/db/migrations/0021_prompt_only_search.js';
import { open, tempDir } from './helpers.js';

describe('migration 21: free words search the prompt only', () => {
  it('takes the negative prompt out of older rows, their grams and a corrected job’s saved text', () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'atelier.db'));
    migrate(
      db,
      dir,
      () => 1,
      MIGRATIONS.filter((m) => m.version < 21),
    );
    const insert = db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, negative_prompt, width, height, count,
         request_json, search_text, negative_key, logical_bytes)
       VALUES (?, 'succeeded', ?, ?, 'builtin', ?, ?, 64, 64, 1, ?, ?, ?, 1000)`,
    );
    // As versions before 21 wrote them: prompt, negative prompt, settings line, each folded on its own line.
    insert.run(
      'castle',
      1,
      1,
      'Castle',
      'Watermark',
      '{"prompt":"Castle","negativePrompt":"Watermark"}',
      'castle\nwatermark\nbuiltin 64x64',
      'watermark',
    );
    insert.run(
      'plain',
      2,
      2,
      'Watermark study',
      null,
      '{"prompt":"Watermark study"}',
      'watermark study\nbuiltin 64x64',
      null,
    );
    // A corrected prompt and negative prompt: the corrected head in place of the file's, whose text is kept aside.
    insert.run(
      'fixed',
      3,
      3,
      'Tower',
      'Blurry',
      '{"prompt":"Old","negativePrompt":"Grainy"}',
      'tower\nblurry\nbuiltin 64x64',
      'blurry',
    );
    db.prepare("INSERT INTO annotated_search (job_id, base, written) VALUES ('fixed', ?, ?)").run(
      'old\ngrainy\nbuiltin 64x64',
      'tower\nblurry\nbuiltin 64x64',
    );
    db.close();

    const store = open({ dataDir: dir });
    const ids = (search: string) =>
      store
        .list({ limit: 10, view: 'all', search })
        .items.map((j) => j.id)
        .sort();
    expect(ids('watermark')).toEqual(['plain']);
    expect(ids('wat')).toEqual(['plain']);
    expect(ids('grainy')).toEqual([]);
    expect(ids('blurry')).toEqual([]);
    expect(ids('negative:watermark')).toEqual(['castle']);
    expect(ids('negative:blurry')).toEqual(['fixed']);
    expect(ids('castle builtin')).toEqual(['castle']);
    expect(ids('tower')).toEqual(['fixed']);
    store.close();

    const after = new Database(join(dir, 'atelier.db'), { readonly: true });
    const text = (id: string) =>
      after.prepare('SELECT search_text AS t, logical_bytes AS b FROM jobs WHERE id = ?').get(id) as {
        t: string;
        b: number;
      };
    expect(text('castle')).toEqual({ t: 'castle\nbuiltin 64x64', b: 1000 - '\nwatermark'.length });
    expect(text('plain').t).toBe('watermark study\nbuiltin 64x64');
    expect(text('fixed').t).toBe('tower\nbuiltin 64x64');
    expect(after.prepare("SELECT base, written FROM annotated_search WHERE job_id = 'fixed'").get()).toEqual({
      base: 'old\nbuiltin 64x64',
      written: 'tower\nbuiltin 64x64',
    });
    after.close();
  });

  it('leaves a text alone where the negative prompt is not where it was written', () => {
    expect(withoutNegative('p\nn\ns', 'p', 'n')).toBe('p\ns');
    expect(withoutNegative('x\np\nn', 'p', 'n')).toBe('x\np');
    expect(withoutNegative('p\ns', 'p', 'n')).toBeNull();
  });
});
