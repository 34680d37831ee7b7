import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RereadProgress } from '../../../shared/contract.js';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles, type ToolFile } from '../../fixtures/images/tool-files.js';
import { importFolder } from './import-helpers.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

function writeAll(dir: string, files: ToolFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
}

const rereadDone = (engine: Engine): Promise<RereadProgress> =>
  waitFor(async () => {
    const status = await engine.handlers['library.rereadStatus']({});
    return status.state === 'idle' && status.left === 0 ? status : undefined;
  }, 20_000);

/** What an older reader left: every imported job at version 1, its prompt and search text not the file's. */
function ageReads(dataDir: string): number {
  const db = new Database(join(dataDir, 'atelier.db'));
  const { changes } = db
    .prepare(
      `UPDATE jobs SET reader_version = 1, prompt = 'misread', search_text = 'misread',
         request_json = json_set(request_json, '$.prompt', 'misread') WHERE reader_version IS NOT NULL`,
    )
    .run();
  db.close();
  return changes;
}

const findPrompt = async (engine: Engine, search: string) =>
  (await engine.handlers['jobs.list']({ view: 'active', search, limit: 50 })).items;

let h: Harness;
let outside: string;
// A held import read is let go before the engine closes, whatever the test did.
let release: () => void = () => undefined;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-reread-'));
});
afterEach(async () => {
  release();
  await h?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('re-reading imported files with newer readers', () => {
  it('after an upgrade re-reads in the background what older readers read, and keeps ratings and tags', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('rr');
    writeAll(join(outside, 'outputs'), files);
    await importFolder(h.engine, join(outside, 'outputs'));
    const [first] = await findPrompt(h.engine, files[0]!.prompt);
    const imageId = first!.images[0]!.id;
    await h.engine.handlers['images.setRating']({ ids: [imageId], rating: 4 });
    await h.engine.handlers['images.tag']({ ids: [imageId], add: ['keeper'] });
    await h.engine.handlers['jobs.correct']({ jobId: first!.id, set: { steps: 42 } });
    await h.engine.handlers['images.setNote']({ imageId, text: 'print this one' });
    await h.engine.close({ graceMs: 0 });

    expect(ageReads(h.dataDir)).toBe(files.length);
    const seen = h.events.length;
    const engine = await h.open();
    const done = await rereadDone(engine);
    expect(done).toMatchObject({ left: 0, imported: files.length, done: files.length, failed: 0 });
    expect(await findPrompt(engine, 'misread')).toEqual([]);
    // Each rewritten job is announced, so open windows show its new settings.
    const changed = h.events.slice(seen).filter((e) => e.name === 'jobs.changed');
    expect(changed.some((e) => (e.payload as { job: { id: string } }).job.id === first!.id)).toBe(true);
    for (const file of files.filter((f) => f.prompt !== '')) {
      const [job] = await findPrompt(engine, file.prompt);
      expect(job?.prompt, file.name).toBe(file.prompt);
    }
    const detail = await engine.handlers['jobs.get']({ id: first!.id });
    expect(detail.images[0]).toMatchObject({ rating: 4, tags: ['keeper'] });
    expect(detail.corrections).toEqual({ steps: 42 });
    // The correction and the note still win in search over the new read of the file.
    expect((await findPrompt(engine, 'steps:42')).map((j) => j.id)).toEqual([first!.id]);
    expect((await findPrompt(engine, 'note:print')).map((j) => j.id)).toEqual([first!.id]);
  });

  it('re-reads the images a person picks at once, and waits while an import reads files', async () => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    h = await startHarness({
      housekeepingDelayMs: 0,
      wrapImportRead: async (path, read) => {
        if (path.includes('later')) await gate;
        return read(path);
      },
    });
    const files = await toolFiles('pk');
    writeAll(join(outside, 'outputs'), files);
    await importFolder(h.engine, join(outside, 'outputs'));
    await rereadDone(h.engine);
    const picked = await findPrompt(h.engine, files[0]!.prompt);
    const ids = picked.map((j) => j.images[0]!.id);

    // An import held mid-read: the re-read asked for now waits for it, then runs.
    writeAll(join(outside, 'later'), await toolFiles('lt', 1));
    const progress: RereadProgress[] = [];
    h.engine.events.on('library.rereadProgress', (p) => progress.push(p));
    const held = h.engine.handlers['library.import']({ paths: [join(outside, 'later')], mode: 'link', watch: false });
    await held;
    await waitFor(async () => ((await h.engine.handlers['library.imports']({})).items.length === 2 ? true : undefined));
    expect(await h.engine.handlers['library.reread']({ ids })).toEqual({ marked: ids.length });
    await waitFor(() => (progress.some((p) => p.state === 'paused') ? true : undefined));
    expect(progress.filter((p) => p.state === 'running')).toEqual([]);
    expect((await h.engine.handlers['library.rereadStatus']({})).left).toBe(ids.length);
    release();
    const done = await rereadDone(h.engine);
    expect(done.done).toBe(ids.length);
    expect(progress.some((p) => p.state === 'running')).toBe(true);
  });

  it('a file that reads the same as before only moves its version: nothing is rewritten or announced', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('sm');
    writeAll(join(outside, 'outputs'), files);
    await importFolder(h.engine, join(outside, 'outputs'));
    await rereadDone(h.engine);
    // The thumbnailer announces each imported job again once its thumbnail is made: those are not the re-read's.
    const { items } = await waitFor(async () => {
      const page = await h!.engine.handlers['jobs.list']({ view: 'active', limit: 50 });
      return page.items.every((j) => j.images.every((i) => i.thumbPending !== true)) ? page : undefined;
    });
    const seen = h.events.length;
    expect(await h.engine.handlers['library.reread']({ ids: items.map((j) => j.images[0]!.id) })).toEqual({
      marked: files.length,
    });
    const done = await rereadDone(h.engine);
    expect(done).toMatchObject({ done: files.length, failed: 0 });
    expect(h.events.slice(seen).filter((e) => e.name === 'jobs.changed')).toEqual([]);
    const after = await h.engine.handlers['jobs.list']({ view: 'active', limit: 50 });
    expect(after.items.map((j) => j.updatedAt)).toEqual(items.map((j) => j.updatedAt));
  });

  it('keeps the read it has for a file that is gone, and says so in the count of failures', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('gn');
    writeAll(join(outside, 'outputs'), files);
    await importFolder(h.engine, join(outside, 'outputs'));
    await rereadDone(h.engine);
    rmSync(join(outside, 'outputs', files[0]!.name));
    const [job] = await findPrompt(h.engine, files[0]!.prompt);
    await h.engine.handlers['library.reread']({ ids: [job!.images[0]!.id] });
    const done = await rereadDone(h.engine);
    expect(done).toMatchObject({ failed: 1, done: 0 });
    expect((await h.engine.handlers['jobs.get']({ id: job!.id })).prompt).toBe(files[0]!.prompt);
  });
});
