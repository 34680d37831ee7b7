import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Preset, PromptHistory } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { dispatch } from '../../../electron/host/dispatch.js';
import { openStore } from '../../../electron/db/store.js';
import { PROMPT_HISTORY_LIMIT } from '../../../electron/db/prompt-history.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { createDiskFault } from '../../faults/disk-fault.js';
import { recordingLog } from '../../faults/helpers.js';
import { startHarness, waitFor, type Harness } from './harness.js';

const FIXTURE = readFileSync(new URL('../../fixtures/a1111-styles.csv', import.meta.url), 'utf8');
const job = { provider: 'scripted', width: 64, height: 64, count: 1 } as const;

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('presets: saved composer settings', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });
  const start = async () =>
    (h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] }));

  it('save creates, save with an id replaces, list is by name (any case, numbers in order), and they survive a restart', async () => {
    const { engine } = await start();
    const full = {
      name: 'Portrait 10',
      provider: 'any:comfyui',
      model: 'sdxl-base',
      width: 832,
      height: 1216,
      steps: 28,
      guidance: 6.5,
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      negativePrompt: 'blurry',
      template: 'portrait of {prompt}, 85mm',
    };
    const { preset: portrait } = await engine.handlers['presets.save'](full);
    expect(portrait).toEqual({
      ...full,
      id: portrait.id,
      source: 'atelier',
      createdAt: portrait.createdAt,
      updatedAt: portrait.createdAt,
    });
    await engine.handlers['presets.save']({ name: 'portrait 2', steps: 20 });
    await engine.handlers['presets.save']({ name: 'Anime' });
    expect((await engine.handlers['presets.list']({})).items.map((p) => p.name)).toEqual([
      'Anime',
      'portrait 2',
      'Portrait 10',
    ]);

    // A save with an id is the whole preset: what it leaves out is cleared, its id, source and creation stay.
    const { preset: changed } = await engine.handlers['presets.save']({
      id: portrait.id,
      name: 'Portrait tall',
      height: 1344,
      template: '{prompt}',
    });
    expect(changed).toEqual({
      id: portrait.id,
      name: 'Portrait tall',
      height: 1344,
      template: '{prompt}',
      source: 'atelier',
      createdAt: portrait.createdAt,
      updatedAt: changed.updatedAt,
    });
    expect(changed.updatedAt).toBeGreaterThanOrEqual(portrait.updatedAt);

    await engine.close();
    const reopened = await h!.open();
    const after = await reopened.handlers['presets.list']({});
    expect(after.items.map((p) => p.name)).toEqual(['Anime', 'portrait 2', 'Portrait tall']);
    expect(after.items.find((p) => p.id === portrait.id)).toEqual(changed);
    // What crosses to the window is exactly the contract's Preset (strict: nothing more).
    expect(after.items.map((p) => Preset.parse(p))).toEqual(after.items);
  });

  it('through a host, input is checked against the contract first, then the template in main', async () => {
    const { engine } = await start();
    const tooLong = await dispatch(engine.handlers, 'presets.save', { name: 'x'.repeat(101) });
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const typo = await dispatch(engine.handlers, 'presets.save', { name: 'Typo', template: 'photo of {PROMPT}' });
    expect(typo).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        details: { fields: { template: expect.stringMatching(/^Write the placeholder as \{prompt\}/u) as string } },
      },
    });
    const saved = await dispatch(engine.handlers, 'presets.save', {
      name: '  Trimmed  ',
      template: 'photo of {prompt}',
    });
    expect(saved).toMatchObject({
      ok: true,
      value: { preset: { name: 'Trimmed', template: 'photo of {prompt}', source: 'atelier' } },
    });
    const imported = await dispatch(engine.handlers, 'presets.importStyles', { csv: FIXTURE });
    expect(imported).toMatchObject({ ok: true, value: { imported: 9, updated: 0 } });
    expect(await dispatch(engine.handlers, 'prompts.history', {})).toEqual({ ok: true, value: { items: [] } });
  });

  it('names are unique whatever their case, accents or spacing: a clear conflict, and renaming to the same name in another case works', async () => {
    const { engine } = await start();
    const { preset: noir } = await engine.handlers['presets.save']({ name: 'Film Noir' });
    const { preset: cafe } = await engine.handlers['presets.save']({ name: 'Café' });
    for (const name of ['film noir', 'FILM  NOIR', ' Film Noir ']) {
      const error = await refusal(engine.handlers['presets.save']({ name }));
      expect(error.code, name).toBe('conflict');
      expect(error.message).toBe(
        'There is already a preset called "Film Noir". Choose another name, or open that preset to change it.',
      );
    }
    expect((await refusal(engine.handlers['presets.save']({ name: 'CAFE' }))).code).toBe('conflict');
    // Another preset may not take the name either; the preset itself may change its case.
    expect((await refusal(engine.handlers['presets.save']({ id: cafe.id, name: 'film noir' }))).code).toBe('conflict');
    const { preset: renamed } = await engine.handlers['presets.save']({ id: noir.id, name: 'FILM NOIR', steps: 30 });
    expect(renamed).toMatchObject({ id: noir.id, name: 'FILM NOIR', steps: 30 });
    expect((await engine.handlers['presets.list']({})).items.map((p) => p.name)).toEqual(['Café', 'FILM NOIR']);
  });

  it('delete removes one preset and says how many; a preset already gone counts 0; saving over a gone id is not_found', async () => {
    const { engine } = await start();
    const { preset: a } = await engine.handlers['presets.save']({ name: 'A' });
    await engine.handlers['presets.save']({ name: 'B' });
    expect(await engine.handlers['presets.delete']({ id: a.id })).toEqual({ updated: 1 });
    expect((await engine.handlers['presets.list']({})).items.map((p) => p.name)).toEqual(['B']);
    expect(await engine.handlers['presets.delete']({ id: a.id })).toEqual({ updated: 0 });
    expect((await refusal(engine.handlers['presets.save']({ id: a.id, name: 'A' }))).code).toBe('not_found');
    // Its name is free again.
    expect((await engine.handlers['presets.save']({ name: 'a' })).preset.name).toBe('a');
  });

  it('a template without {prompt} is kept as a fixed prompt; a misspelled placeholder is refused, saying how to write it', async () => {
    const { engine } = await start();
    const { preset: fixed } = await engine.handlers['presets.save']({
      name: 'Test card',
      template: 'a colour test card, flat light',
    });
    expect(fixed.template).toBe('a colour test card, flat light');
    // An empty template is no template.
    expect((await engine.handlers['presets.save']({ name: 'Plain', template: '  ' })).preset).not.toHaveProperty(
      'template',
    );
    for (const template of [
      'portrait of {Prompt}',
      'portrait of { prompt }',
      'portrait of {{prompt}}',
      'portrait of [prompt]',
      '<PROMPT>, 35mm',
    ]) {
      const error = await refusal(engine.handlers['presets.save']({ name: `Typo ${template}`, template }));
      expect(error.code, template).toBe('invalid_request');
      expect(error.message).toMatch(
        /^Write the placeholder as \{prompt\}, exactly: ".+" would stay in the prompt as text\./u,
      );
      expect(error.details).toEqual({ fields: { template: error.message } });
    }
    expect((await engine.handlers['presets.list']({})).items.map((p) => p.name)).toEqual(['Plain', 'Test card']);
  });
});

describe('presets: importing an AUTOMATIC1111 styles.csv', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('each style becomes a preset; bad lines are skipped with their line and reason; re-importing updates by name, never duplicates', async () => {
    h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] });
    const { engine } = h;
    const first = await engine.handlers['presets.importStyles']({ csv: FIXTURE });
    expect(first.imported).toBe(9);
    expect(first.updated).toBe(0);
    expect(first.skipped.map((s) => s.line)).toEqual([12, 14, 15, 16, 18]);
    const listed = (await engine.handlers['presets.list']({})).items;
    expect(listed.map((p) => p.name)).toEqual([
      'Café',
      'Cinematic',
      'Missing negative',
      'Multiline',
      'Only negative',
      'Quoted "Noir"',
      'Spaced',
      'Trailing comma',
      'Watercolor',
    ]);
    expect(listed.every((p) => p.source === 'styles.csv')).toBe(true);
    const byName = (name: string) => listed.find((p) => p.name === name)!;
    expect(byName('Cinematic')).toMatchObject({
      template: 'cinematic still of {prompt}, shallow depth of field, film grain',
      negativePrompt: 'blurry, lowres',
    });
    expect(byName('Watercolor').template).toBe('{prompt}, watercolor painting, soft edges');
    expect(byName('Watercolor')).not.toHaveProperty('negativePrompt');
    expect(byName('Only negative')).not.toHaveProperty('template');
    expect(byName('Multiline').template).toBe('line one\nline two {prompt}\nline three');

    // The person adds settings to an imported style, and makes a preset of their own named like a style.
    const cinematic = byName('Cinematic');
    await engine.handlers['presets.save']({
      id: cinematic.id,
      name: 'Cinematic',
      steps: 40,
      template: cinematic.template,
      negativePrompt: cinematic.negativePrompt,
    });
    const { preset: mine } = await engine.handlers['presets.save']({ name: 'Neon', template: 'my own {prompt}' });

    const second = await engine.handlers['presets.importStyles']({
      csv: '\uFEFFname,prompt,negative_prompt\r\ncinematic,"anamorphic still of {prompt}, teal and orange",lowres\r\nNEON,neon glow,\r\nBrand new,"{prompt}, new",\r\n',
    });
    expect(second).toEqual({
      imported: 1,
      updated: 1,
      skipped: [
        { line: 3, reason: 'You already have a preset called "Neon" made in Atelier; rename it to import this style.' },
      ],
    });
    const after = (await engine.handlers['presets.list']({})).items;
    expect(after).toHaveLength(listed.length + 2);
    expect(after.find((p) => p.id === cinematic.id)).toMatchObject({
      name: 'cinematic',
      template: 'anamorphic still of {prompt}, teal and orange',
      negativePrompt: 'lowres',
      steps: 40,
      source: 'styles.csv',
    });
    expect(after.find((p) => p.id === mine.id)).toEqual(mine);
    expect(after.find((p) => p.name === 'Brand new')).toMatchObject({
      template: '{prompt}, new',
      source: 'styles.csv',
    });
  });

  it('a file that is not a styles file is refused whole and changes nothing', async () => {
    h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] });
    const error = await refusal(h.engine.handlers['presets.importStyles']({ csv: 'prompt,negative_prompt\na,b\n' }));
    expect(error.code).toBe('invalid_request');
    expect((await h.engine.handlers['presets.list']({})).items).toEqual([]);
  });
});

describe('prompt history', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });
  const start = async () =>
    (h = await startHarness({ providers: [scriptedEntry(createScriptedProvider('scripted'))] }));
  const history = (engine: Harness['engine'], query: { search?: string; limit?: number } = {}) =>
    engine.handlers['prompts.history']({ limit: 100, ...query }).then((r) => r.items);

  it('every submitted prompt is recorded once, newest use first, with its count; a repeated submit of one request is not a new use', async () => {
    const { engine } = await start();
    for (const prompt of ['a red fox', 'a lighthouse at dusk', 'a red fox', 'koi in a pond'])
      await engine.handlers['jobs.submit']({ ...job, prompt });
    // The same request twice (a double click) is one job, so one use.
    await engine.handlers['jobs.submit']({ ...job, prompt: 'a lighthouse at dusk', idempotencyKey: 'click-1' });
    await engine.handlers['jobs.submit']({ ...job, prompt: 'a lighthouse at dusk', idempotencyKey: 'click-1' });
    // A refused submit stores no job and no history.
    await refusal(engine.handlers['jobs.submit']({ ...job, prompt: 'too many', count: 9 }));

    const items = await history(engine);
    expect(items.map((i) => [i.prompt, i.uses])).toEqual([
      ['a lighthouse at dusk', 2],
      ['koi in a pond', 1],
      ['a red fox', 2],
    ]);
    expect(items[0]!.usedAt).toBeGreaterThanOrEqual(items[1]!.usedAt);
    expect(PromptHistory.parse({ items })).toEqual({ items });
    expect((await history(engine, { limit: 2 })).map((i) => i.prompt)).toEqual([
      'a lighthouse at dusk',
      'koi in a pond',
    ]);

    await engine.close();
    const reopened = await h!.open();
    expect((await history(reopened)).map((i) => i.prompt)).toEqual([
      'a lighthouse at dusk',
      'koi in a pond',
      'a red fox',
    ]);
  });

  it('a prompt submitted just before quitting is in the history after the restart', async () => {
    const { engine } = await start();
    await engine.handlers['jobs.submit']({ ...job, prompt: 'the last thing before quitting' });
    await engine.close({ graceMs: 0 });
    const reopened = await h!.open();
    expect((await history(reopened)).map((i) => i.prompt)).toEqual(['the last thing before quitting']);
  });

  it('a history the disk cannot take never fails the submit: the job is stored, the miss is logged, the next prompt recorded', async () => {
    const disk = createDiskFault();
    const log = recordingLog();
    const hang = createScriptedProvider('scripted', [{ kind: 'hang' }, { kind: 'hang' }]);
    h = await startHarness({ providers: [scriptedEntry(hang)], wrapDatabase: disk.wrapDatabase, log });
    disk.fillAt({ sql: /INSERT INTO prompt_history/u });
    const { job: stored, created } = await h.engine.handlers['jobs.submit']({
      ...job,
      prompt: 'lost from the history',
    });
    expect(created).toBe(true);
    await waitFor(() => log.has('could not record submitted prompts in the history'));
    expect(log.lines.find((l) => l.level === 'warn')).toEqual({
      level: 'warn',
      message: 'could not record submitted prompts in the history',
      fields: { prompts: 1, error: expect.stringMatching(/full/u) as string },
    });
    disk.clear();
    expect((await h.engine.handlers['jobs.get']({ id: stored.id })).prompt).toBe('lost from the history');
    await h.engine.handlers['jobs.submit']({ ...job, prompt: 'kept in the history' });
    expect((await history(h.engine)).map((i) => i.prompt)).toEqual(['kept in the history']);
  });

  it('a burst of submits is recorded whole, the last submitted newest', async () => {
    const { engine } = await start();
    const prompts = Array.from({ length: 30 }, (_, i) => `burst prompt ${String(i).padStart(2, '0')}`);
    const jobs = await Promise.all(prompts.map((prompt) => engine.handlers['jobs.submit']({ ...job, prompt })));
    expect(jobs.every((r) => r.created)).toBe(true);
    expect((await history(engine)).map((i) => i.prompt)).toEqual([...prompts].reverse());
  });

  it('search is case- and accent-insensitive, every word must appear, and the newest comes first', async () => {
    const { engine } = await start();
    for (const prompt of [
      'Červená liška v lese',
      'a RED fox in snow',
      'crème brûlée on a plate',
      'a red fox at night',
      'ＦＵＬＬ width sign',
      '50% grey_card',
    ]) {
      await engine.handlers['jobs.submit']({ ...job, prompt });
    }
    const found = async (search: string) => (await history(engine, { search })).map((i) => i.prompt);
    expect(await found('cervena LISKA')).toEqual(['Červená liška v lese']);
    expect(await found('CREME brulee')).toEqual(['crème brûlée on a plate']);
    expect(await found('red fox')).toEqual(['a red fox at night', 'a RED fox in snow']);
    expect(await found('fox snow')).toEqual(['a RED fox in snow']);
    expect(await found('full')).toEqual(['ＦＵＬＬ width sign']);
    expect(await found('fox cat')).toEqual([]);
    // Search text is literal: % and _ are no wildcards.
    expect(await found('%')).toEqual(['50% grey_card']);
    expect(await found('y_c')).toEqual(['50% grey_card']);
    expect(await found('   ')).toHaveLength(6);
  });

  it(`keeps the newest ${PROMPT_HISTORY_LIMIT.toLocaleString('en')} prompts: a new one pushes out the oldest`, async () => {
    const { dataDir } = await start();
    await h!.engine.close();
    const store = openStore({ dataDir });
    store.prompts.record(
      Array.from({ length: PROMPT_HISTORY_LIMIT }, (_, i) => `seeded ${String(i).padStart(5, '0')}`),
    );
    store.close();

    const engine = await h!.open();
    expect((await history(engine, { search: 'seeded 00000' })).map((i) => i.prompt)).toEqual(['seeded 00000']);
    await engine.handlers['jobs.submit']({ ...job, prompt: 'the newest one' });
    expect(await history(engine, { search: 'seeded 00000' })).toEqual([]);
    expect((await history(engine, { search: 'seeded 00001' })).map((i) => i.prompt)).toEqual(['seeded 00001']);
    expect((await history(engine, { limit: 2 })).map((i) => i.prompt)).toEqual(['the newest one', 'seeded 04999']);
    await engine.close();

    const db = new Database(join(dataDir, 'atelier.db'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM prompt_history').get()).toEqual({ n: PROMPT_HISTORY_LIMIT });
    db.close();
  });
});
