import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveMediaFile } from '../../../electron/host/media-request.js';
import { COMFY_SEED, toolFiles, type ToolFile } from '../../fixtures/images/tool-files.js';
import { importDone } from './import-helpers.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../engine/harness.js';

function writeAll(dir: string, files: ToolFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
}

// One engine and one folder of "other tools' outputs" per test, both removed after it.
let h: Harness;
let outside: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-outputs-'));
});
afterEach(async () => {
  await h?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe("importing a folder of other tools' images", () => {
  it('makes one succeeded job per file with its tool, settings, raw texts and original path, filterable by source', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('zq');
    writeAll(join(outside, 'outputs', 'txt2img'), files);
    writeFileSync(join(outside, 'outputs', 'notes.md'), '# not an image');
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'outputs')],
      mode: 'link',
      watch: false,
    });
    expect(started.status).toBe('running');
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({
      status: 'completed',
      found: files.length + 1,
      imported: files.length,
      skipped: 1,
      failed: 0,
      duplicates: 0,
    });
    expect(done.problems).toEqual([
      {
        path: join(outside, 'outputs', 'notes.md'),
        reason: expect.stringContaining('Not a PNG, JPEG, WebP or AVIF'),
        status: 'skipped',
      },
    ]);

    const page = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' });
    expect(page.items).toHaveLength(files.length);
    for (const file of files) {
      const path = join(outside, 'outputs', 'txt2img', file.name);
      const job = page.items.find((j) => j.path === path);
      expect(job, file.name).toMatchObject({ status: 'succeeded', source: file.source, prompt: file.prompt, count: 1 });
      // Created at the file's own time, not the import's.
      expect(job!.createdAt).toBe(Math.trunc(statSync(path).mtimeMs));
    }
    const comfy = page.items.find((j) => j.source === 'comfyui')!;
    const detail = await h.engine.handlers['jobs.get']({ id: comfy.id });
    expect(detail.request).toMatchObject({
      provider: 'comfyui',
      prompt: 'a glass harbour comfyzq',
      seed: COMFY_SEED,
      steps: 25,
      guidance: 6.5,
      sampler: 'dpmpp_2m',
      model: 'dream.safetensors',
    });
    expect(detail.metadata).toMatchObject({
      scheduler: 'karras',
      mode: 'link',
      locations: [{ path: comfy.path, missing: false }],
    });
    expect(detail.metadata!.raw.map((r) => r.key)).toContain('prompt');
    expect(detail.events.map((e) => e.kind)).toEqual(['imported']);

    const a1111 = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active', source: 'a1111' });
    expect(a1111.items.map((j) => j.source)).toEqual(['a1111', 'a1111', 'a1111']);
    const lora = await h.engine.handlers['jobs.get']({ id: a1111.items.find((j) => j.path!.endsWith('.png'))!.id });
    expect(lora.metadata!.modelHash).toBe('6ce0161689');
  });

  it('finds imported images by prompt words, model, seed and file name', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    writeAll(join(outside, 'a'), await toolFiles('kx'));
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'a')],
      mode: 'link',
      watch: false,
    });
    await importDone(h.engine, started.id);
    const search = async (q: string) =>
      (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active', search: q })).items.map((j) => j.source);
    expect(await search('fooocuskx')).toEqual(['fooocus']);
    expect(await search('juggernaut')).toEqual(['fooocus']);
    expect(await search(COMFY_SEED)).toEqual(['comfyui']);
    expect(await search('novelai-0.png')).toEqual(['novelai']);
    // A raw metadata text is searchable too: here a node type that only the ComfyUI graph names.
    expect(await search('CheckpointLoaderSimple')).toEqual(['comfyui']);
  });

  it('keeps the same content once: a second copy of a file is another location of the same image', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const [first] = await toolFiles('dup');
    writeAll(join(outside, 'one'), [first!]);
    writeAll(join(outside, 'two'), [{ ...first!, name: 'renamed copy.png' }]);
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'one'), join(outside, 'two')],
      mode: 'link',
      watch: false,
    });
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({ imported: 1, duplicates: 1 });
    const { items } = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' });
    expect(items).toHaveLength(1);
    const detail = await h.engine.handlers['jobs.get']({ id: items[0]!.id });
    expect(detail.metadata!.locations.map((l) => l.path).sort()).toEqual(
      [join(outside, 'one', first!.name), join(outside, 'two', 'renamed copy.png')].sort(),
    );

    // Importing the same folder again reads nothing new and adds nothing.
    const again = await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'one')], mode: 'link', watch: false })).import
        .id,
    );
    expect(again).toMatchObject({ imported: 0, duplicates: 1 });
    expect((await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items).toHaveLength(1);
  });

  it('lists damaged images as failed and empty or non-image files as skipped, with their reasons, and imports the rest', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const [good, , , comfy] = await toolFiles('dmg');
    const dir = join(outside, 'mixed');
    writeAll(dir, [good!]);
    writeFileSync(join(dir, 'empty.png'), '');
    writeFileSync(join(dir, 'cut.png'), comfy!.bytes.subarray(0, Math.floor(comfy!.bytes.length / 2)));
    writeFileSync(join(dir, 'photo.png'), 'GIF89a not really');
    const done = await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false })).import.id,
    );
    // An empty file holds no image, whatever its name: skipped like any other non-image, not a failure.
    expect(done).toMatchObject({ imported: 1, failed: 1, skipped: 2 });
    const problems = Object.fromEntries(done.problems.map((p) => [p.path.split('/').pop(), p]));
    expect(problems['empty.png']).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/empty/) });
    expect(problems['cut.png']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/cut short/) });
    expect(problems['photo.png']).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/Not a PNG, JPEG, WebP or AVIF/),
    });
  });

  it('sniffs by content: a PNG named .jpg and a JPEG named .txt are imported as what they are', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('lie');
    const dir = join(outside, 'lying');
    writeAll(dir, [
      { ...files[0]!, name: 'really-a-png.jpg' },
      { ...files[1]!, name: 'really-a-jpeg.txt' },
    ]);
    const done = await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false })).import.id,
    );
    expect(done).toMatchObject({ imported: 2, skipped: 0 });
    const mimes = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items.map((j) => [
      j.path!.split('/').pop(),
      j.images[0]!.mime,
    ]);
    expect(Object.fromEntries(mimes)).toEqual({ 'really-a-png.jpg': 'image/png', 'really-a-jpeg.txt': 'image/jpeg' });
  });

  it('never touches the originals: trash, empty trash and removing the folder leave every file as it was', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('keep');
    const dir = join(outside, 'precious');
    writeAll(dir, files);
    const before = files.map((f) => readFileSync(join(dir, f.name)));
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false })).import.id,
    );
    const ids = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items.map((j) => j.id);
    await h.engine.handlers['jobs.trash']({ ids: ids.slice(0, 3) });
    const removed = await h.engine.handlers['jobs.emptyTrash']({});
    expect(removed.removed).toBe(3);
    await h.engine.handlers['jobs.purge']({ ids: ids.slice(3, 5) });
    const [folder] = (await h.engine.handlers['library.folders']({})).items;
    expect(folder).toMatchObject({ path: dir, mode: 'link', images: files.length - 5 });
    expect(await h.engine.handlers['library.removeFolder']({ id: folder!.id })).toEqual({ trashed: files.length - 5 });
    await h.engine.handlers['jobs.emptyTrash']({});
    files.forEach((f, i) => expect(readFileSync(join(dir, f.name)).equals(before[i]!), f.name).toBe(true));
    await expect(h.engine.handlers['library.removeFolder']({ id: folder!.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('serves a linked original only from inside its imported folder: a symlink out of it is refused', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const [file, second] = await toolFiles('srv');
    const dir = join(outside, 'served');
    writeAll(dir, [file!]);
    writeAll(join(outside, 'secret'), [second!]);
    symlinkSync(join(outside, 'secret', second!.name), join(dir, 'link-out.png'));
    const done = await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [dir], mode: 'link', watch: false })).import.id,
    );
    expect(done.imported).toBe(1);
    const { items } = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' });
    expect(items.map((j) => j.path)).toEqual([join(dir, file!.name)]);
    const served = await resolveMediaFile(h.engine, { kind: 'image', imageId: items[0]!.images[0]!.id });
    expect(served).toMatchObject({ path: join(dir, file!.name), mime: 'image/png' });
    // The original is swapped for a symlink that leads out of the folder: refused, like an unknown id.
    rmSync(join(dir, file!.name));
    symlinkSync(join(outside, 'secret', second!.name), join(dir, file!.name));
    expect(await resolveMediaFile(h.engine, { kind: 'image', imageId: items[0]!.images[0]!.id })).toBeNull();
  });

  it('makes thumbnails in the background and announces the job again with it', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    writeAll(join(outside, 't'), (await toolFiles('th')).slice(0, 2));
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 't')], mode: 'link', watch: false })).import
        .id,
    );
    const items = await waitFor(async () => {
      const page = await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' });
      return page.items.every((j) => j.images[0]!.thumbPending === undefined) ? page.items : undefined;
    });
    for (const job of items) {
      const thumb = await resolveMediaFile(h.engine, { kind: 'thumb', imageId: job.images[0]!.id });
      expect(thumb!.path.startsWith(join(h.dataDir, 'thumbs'))).toBe(true);
    }
  });

  it('copy mode puts the file into the library, so it survives the original being deleted', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const [file] = await toolFiles('cp');
    writeAll(join(outside, 'c'), [file!]);
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'c')], mode: 'copy', watch: false })).import
        .id,
    );
    rmSync(join(outside, 'c', file!.name));
    const [job] = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items;
    const served = await resolveMediaFile(h.engine, { kind: 'image', imageId: job!.images[0]!.id });
    expect(served!.path.startsWith(join(h.dataDir, 'library'))).toBe(true);
    expect(readFileSync(served!.path).equals(Buffer.from(file!.bytes))).toBe(true);
  });

  it('retention limits count and move only the jobs Atelier made, never imported images', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('ret');
    writeAll(join(outside, 'r'), files);
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'r')], mode: 'link', watch: false })).import
        .id,
    );
    for (let i = 0; i < 3; i += 1) {
      const { job } = await h.engine.handlers['jobs.submit']({
        provider: 'builtin',
        prompt: `made here ${i}`,
        width: 64,
        height: 64,
        count: 1,
      });
      await waitFor(async () =>
        (await h.engine.handlers['jobs.get']({ id: job.id })).status === 'succeeded' ? true : undefined,
      );
    }
    const preview = await h.engine.handlers['jobs.previewRetention']({ maxJobs: 1, maxBytes: null, maxAgeDays: null });
    expect(preview.jobs).toBe(2);
    await h.engine.handlers['settings.update']({ retention: { maxJobs: 1 } });
    const left = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items;
    expect(left.filter((j) => j.source === 'atelier')).toHaveLength(1);
    expect(left.filter((j) => j.source !== 'atelier')).toHaveLength(files.length);
  });

  it('Retry on an imported image runs its settings again, here on the built-in generator, linked to the original', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const fooocus = (await toolFiles('rty')).find((f) => f.source === 'fooocus')!;
    writeAll(join(outside, 'y'), [fooocus]);
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'y')], mode: 'link', watch: false })).import
        .id,
    );
    const [imported] = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items;
    const { job } = await h.engine.handlers['jobs.retry']({ id: imported!.id });
    expect(job.request).toMatchObject({
      provider: 'builtin',
      prompt: fooocus.prompt,
      seed: '9007199254740993',
      width: 896,
      height: 1152,
    });
    const done = await waitFor(async () => {
      const d = await h.engine.handlers['jobs.get']({ id: job.id });
      return d.status === 'succeeded' || d.status === 'failed' ? d : undefined;
    }, 30_000);
    expect(done.status).toBe('succeeded');
    expect(done.retryOf).toBe(imported!.id);
    expect(done.source).toBe('atelier');
  });

  it('refuses paths that do not exist, are relative, or lie inside the data dir', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    await expect(
      h.engine.handlers['library.import']({ paths: [join(outside, 'nope')], mode: 'link', watch: false }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      h.engine.handlers['library.import']({ paths: [h.dataDir], mode: 'link', watch: false }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('originals that change while Atelier is closed', () => {
  it('marks a deleted original missing on the next start (never dropped), and present again once it is back', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = (await toolFiles('gone')).slice(0, 3);
    writeAll(join(outside, 'g'), files);
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'g')], mode: 'link', watch: false })).import
        .id,
    );
    await h.engine.close();
    const victim = join(outside, 'g', files[0]!.name);
    const kept = readFileSync(victim);
    rmSync(victim);

    let engine = await h.open({ housekeepingDelayMs: 0 });
    const job = (await engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items.find(
      (j) => j.path === victim,
    )!;
    const missing = await waitFor(async () => {
      const d = await engine.handlers['jobs.get']({ id: job.id });
      return d.metadata!.locations[0]!.missing ? d : undefined;
    });
    expect(missing.metadata!.locations).toEqual([{ path: victim, missing: true }]);
    expect((await engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items).toHaveLength(3);
    const [folder] = (await engine.handlers['library.folders']({})).items;
    expect(folder).toMatchObject({ images: 3, missing: 1 });

    await engine.close();
    writeFileSync(victim, kept);
    engine = await h.open({ housekeepingDelayMs: 0 });
    await waitFor(async () =>
      (await engine.handlers['jobs.get']({ id: job.id })).metadata!.locations[0]!.missing ? undefined : true,
    );
  });
});

describe('rebuilding a lost history from the files', () => {
  it('reads copied imports back with their tool and settings, including one the orphan collection had set aside', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = (await toolFiles('rb')).slice(0, 4);
    writeAll(join(outside, 'c'), files);
    await importDone(
      h.engine,
      (await h.engine.handlers['library.import']({ paths: [join(outside, 'c')], mode: 'copy', watch: false })).import
        .id,
    );
    const before = (await h.engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items;
    const stored = await Promise.all(
      before.map(async (j) => (await resolveMediaFile(h.engine, { kind: 'image', imageId: j.images[0]!.id }))!.path),
    );
    await h.engine.close();
    rmSync(join(outside, 'c'), { recursive: true });
    for (const f of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm']) rmSync(join(h.dataDir, f), { force: true });
    // One copy was set aside by a sweep: it is brought back.
    const aside = stored[0]!.replace(join(h.dataDir, 'library'), join(h.dataDir, 'orphans', 'library'));
    mkdirSync(join(aside, '..'), { recursive: true });
    renameSync(stored[0]!, aside);

    const engine = await h.open({ housekeepingDelayMs: 0 });
    await waitFor(async () =>
      (await engine.handlers['jobs.stats']({})).recovery.state === 'needed' ? true : undefined,
    );
    const rebuilt = await engine.handlers['library.rebuild']({});
    expect(rebuilt).toEqual({ jobs: 4, images: 4, known: 0, unreadable: 0 });
    const after = (await engine.handlers['jobs.list']({ limit: 60, view: 'active' })).items;
    expect(after.map((j) => `${j.source}:${j.prompt}`).sort()).toEqual(
      before.map((j) => `${j.source}:${j.prompt}`).sort(),
    );
    expect(readFileSync(stored[0]!).length).toBeGreaterThan(0);
    expect((await engine.handlers['jobs.stats']({})).orphans.files).toBe(0);
    expect(await engine.handlers['library.rebuild']({})).toMatchObject({ jobs: 0, known: 4 });
  });
});

describe('pausing, resuming and cancelling an import', () => {
  async function manyFiles(dir: string, folders: number): Promise<number> {
    let n = 0;
    for (let i = 0; i < folders; i += 1) {
      const files = await toolFiles(`p${i}`, i);
      writeAll(join(dir, `f${i}`), files);
      n += files.length;
    }
    return n;
  }

  it('pauses where it is, resumes to the end, and a finished import cannot be paused or cancelled', async () => {
    const total = await manyFiles(join(outside, 'big'), 30);
    const reads = countedReads();
    h = await startHarness({ housekeepingDelayMs: 0, wrapImportRead: reads.wrap });
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'big')],
      mode: 'link',
      watch: false,
    });
    await waitFor(async () =>
      (await h.engine.handlers['library.imports']({})).items[0]!.imported > 0 ? true : undefined,
    );
    const { import: paused } = await h.engine.handlers['library.pauseImport']({ id: started.id });
    expect(paused.status).toBe('paused');
    expect(paused.imported).toBeLessThan(total);
    // Paused means paused, with no wait to prove it: when the pause answers no read is under way (a worker that
    // went on would be in one), and every file read is committed, so nothing is left that could still arrive.
    expect(reads.inFlight()).toBe(0);
    expect(reads.settled()).toBe(paused.imported);
    expect((await h.engine.handlers['library.imports']({})).items[0]!.imported).toBe(paused.imported);
    expect((await list(h)).length).toBe(paused.imported);

    const readBeforeResume = reads.settled();
    const { import: resumed } = await h.engine.handlers['library.resumeImport']({ id: started.id });
    expect(resumed.status).toBe('running');
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({ status: 'completed', found: total, imported: total, duplicates: 0 });
    // The resumed run read exactly the files the pause left: none read twice, none read during the pause.
    expect(reads.settled() - readBeforeResume).toBe(total - paused.imported);
    await expect(h.engine.handlers['library.pauseImport']({ id: started.id })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(h.engine.handlers['library.cancelImport']({ id: started.id })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('cancels: the images imported so far stay, nothing more is read, and it is not resumed on the next start', async () => {
    const total = await manyFiles(join(outside, 'big'), 30);
    h = await startHarness({ housekeepingDelayMs: 0 });
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [join(outside, 'big')],
      mode: 'link',
      watch: false,
    });
    await waitFor(async () =>
      (await h.engine.handlers['library.imports']({})).items[0]!.imported > 0 ? true : undefined,
    );
    const { import: cancelled } = await h.engine.handlers['library.cancelImport']({ id: started.id });
    expect(cancelled).toMatchObject({ status: 'cancelled', finishedAt: expect.any(Number) });
    expect(cancelled.imported).toBeLessThan(total);
    await expect(h.engine.handlers['library.resumeImport']({ id: started.id })).rejects.toMatchObject({
      code: 'conflict',
    });
    await h.engine.close();
    const reads = countedReads();
    const logged: string[] = [];
    const log = { info: (message: string) => logged.push(message), warn: () => {}, error: () => {} };
    const engine = await h.open({ housekeepingDelayMs: 0, wrapImportRead: reads.wrap, log });
    // A barrier, not a wait: a job runs only once start-up has started the scheduler, in the same step that resumes
    // interrupted imports; by the time it has succeeded, a resumed import would have logged and read.
    const { job } = await engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'after the restart',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    await waitForStatus(engine, job.id, ['succeeded']);
    expect(logged).not.toContain('resuming imports');
    expect(reads.started()).toBe(0);
    expect((await engine.handlers['library.imports']({})).items[0]).toMatchObject({
      status: 'cancelled',
      imported: cancelled.imported,
    });
    expect(
      (await engine.handlers['jobs.list']({ limit: 200, view: 'active' })).items.filter((j) => j.id !== job.id),
    ).toHaveLength(cancelled.imported);
  });
});

/** Counts the importer's reads (through its read seam): started, and finished either way. */
function countedReads() {
  let started = 0;
  let settled = 0;
  return {
    wrap: async <T>(path: string, read: (path: string) => Promise<T>): Promise<T> => {
      started += 1;
      try {
        return await read(path);
      } finally {
        settled += 1;
      }
    },
    started: () => started,
    settled: () => settled,
    inFlight: () => started - settled,
  };
}

async function list(harness: Harness) {
  return (await harness.engine.handlers['jobs.list']({ limit: 200, view: 'active' })).items;
}
