import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles, type ToolFile } from '../../fixtures/images/tool-files.js';
import { importDone, importFolder } from './import-helpers.js';
import { startHarness, type Harness } from '../engine/harness.js';

let h: Harness | undefined;
let outside: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-lands-'));
});
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  rmSync(outside, { recursive: true, force: true });
});

function writeAll(dir: string, files: readonly ToolFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f.name), f.bytes);
}

const paths = async (engine: Engine, search?: string) =>
  (
    await engine.handlers['jobs.list']({ limit: 200, view: 'active', ...(search === undefined ? {} : { search }) })
  ).items
    .map((j) => j.path)
    .sort();

/** Resolves with the job announced for this original, however it comes in (subscribed before the file is written). */
function arrivalOf(engine: Engine, path: string): Promise<JobSummary> {
  return new Promise((resolve) => {
    const off = engine.events.on('jobs.changed', ({ job }) => {
      if (job.path !== path) return;
      off();
      resolve(job);
    });
  });
}

describe('what an import brought in, and what it left out', () => {
  it('import:<id> finds exactly the images that import added (not those the library had); empty and non-image files are skipped, a damaged image failed', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const files = await toolFiles('lands');
    const [known, ...fresh] = files.slice(0, 4) as [ToolFile, ...ToolFile[]];
    writeAll(join(outside, 'earlier'), [known]);
    await importFolder(h.engine, join(outside, 'earlier'));

    const folder = join(outside, 'outputs');
    writeAll(folder, [known, ...fresh]);
    mkdirSync(join(folder, 'scripts'));
    writeFileSync(join(folder, 'scripts', '__init__.py'), '');
    writeFileSync(join(folder, 'readme.txt'), 'prompts I liked');
    writeFileSync(join(folder, 'cut.png'), fresh[0]!.bytes.subarray(0, Math.floor(fresh[0]!.bytes.length / 2)));
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [folder],
      mode: 'link',
      watch: false,
    });
    const done = await importDone(h.engine, started.id);
    expect(done).toMatchObject({ imported: fresh.length, duplicates: 1, skipped: 2, failed: 1 });
    const byPath = new Map(done.problems.map((p) => [p.path, p]));
    expect(byPath.get(join(folder, 'scripts', '__init__.py'))).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('empty'),
    });
    expect(byPath.get(join(folder, 'readme.txt'))).toMatchObject({ status: 'skipped' });
    expect(byPath.get(join(folder, 'cut.png'))).toMatchObject({ status: 'failed' });

    expect(await paths(h.engine, `import:${started.id}`)).toEqual(fresh.map((f) => join(folder, f.name)).sort());
    // It composes with the rest of the language, and another import's id finds none of these.
    expect(await paths(h.engine, `import:${started.id} source:${fresh[0]!.source}`)).toEqual(
      fresh
        .filter((f) => f.source === fresh[0]!.source)
        .map((f) => join(folder, f.name))
        .sort(),
    );
    expect(await paths(h.engine, 'import:0190a6e2-0000-7000-8000-000000000000')).toEqual([]);
  }, 60_000);

  it('library.sources lists only the tools the library holds images of, with their counts', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    expect((await h.engine.handlers['library.sources']({})).items).toEqual([]);
    const files = (await toolFiles('src')).slice(0, 5);
    writeAll(join(outside, 'outputs'), files);
    await importFolder(h.engine, join(outside, 'outputs'));
    const expected = new Map<string, number>();
    for (const f of files) expected.set(f.source, (expected.get(f.source) ?? 0) + 1);
    const { items } = await h.engine.handlers['library.sources']({});
    expect(new Map(items.map((i) => [i.source, i.images]))).toEqual(expected);
    expect(items.every((i) => !i.capped)).toBe(true);
  }, 60_000);
});

describe('watch switched on and off later, per folder', () => {
  it('on: a new file comes in by itself (and what arrived meanwhile is caught up on); off: a new file stays out; a restart keeps the choice', async () => {
    h = await startHarness({ housekeepingDelayMs: 0, watchSettleMs: 50 });
    let engine = h.engine;
    const files = await toolFiles('toggle');
    const folder = join(outside, 'plain');
    const other = join(outside, 'watched');
    writeAll(folder, [files[0]!]);
    writeAll(other, [files[1]!]);
    await importFolder(engine, folder);
    const { import: watched } = await engine.handlers['library.import']({ paths: [other], mode: 'link', watch: true });
    await importDone(engine, watched.id);
    const plain = (await engine.handlers['library.folders']({})).items.find((f) => f.path.endsWith('plain'))!;
    expect(plain).toMatchObject({ watch: false, watchState: 'off' });

    // Written while not watched: the switch's catch-up brings it in.
    const meanwhile = join(folder, files[2]!.name);
    writeFileSync(meanwhile, files[2]!.bytes);
    const caughtUp = arrivalOf(engine, meanwhile);
    const { folder: on } = await engine.handlers['library.setFolderWatch']({ id: plain.id, watch: true });
    expect(on).toMatchObject({ id: plain.id, watch: true, watchState: 'watching' });
    await caughtUp;
    // Written after: the live watcher brings it in.
    const later = join(folder, files[3]!.name);
    const live = arrivalOf(engine, later);
    writeFileSync(later, files[3]!.bytes);
    expect(await live).toMatchObject({ source: files[3]!.source });

    const { folder: off } = await engine.handlers['library.setFolderWatch']({ id: plain.id, watch: false });
    expect(off).toMatchObject({ watch: false, watchState: 'off' });
    // A file in the switched-off folder, then one in a folder still watched: once the second is in, the first is not.
    const ignored = join(folder, files[4]!.name);
    writeFileSync(ignored, files[4]!.bytes);
    const marker = join(other, files[5]!.name);
    const markerIn = arrivalOf(engine, marker);
    writeFileSync(marker, files[5]!.bytes);
    await markerIn;
    expect(await paths(engine)).not.toContain(ignored);
    expect(await paths(engine)).toContain(later);

    // The choice is kept: after a restart the folder is still not watched.
    await engine.close();
    engine = await h.open({ housekeepingDelayMs: 0, watchSettleMs: 50 });
    const again = (await engine.handlers['library.folders']({})).items.find((f) => f.id === plain.id);
    expect(again).toMatchObject({ watch: false, watchState: 'off' });
    expect(await paths(engine)).not.toContain(ignored);
  }, 60_000);

  it('a single imported file cannot be watched, and an unknown folder is not found', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const [file] = await toolFiles('single');
    writeAll(outside, [file!]);
    await importFolder(h.engine, join(outside, file!.name));
    const [single] = (await h.engine.handlers['library.folders']({})).items;
    expect(single).toMatchObject({ isFile: true });
    await expect(h.engine.handlers['library.setFolderWatch']({ id: single!.id, watch: true })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(
      h.engine.handlers['library.setFolderWatch']({ id: '0190a6e2-0000-7000-8000-000000000000', watch: true }),
    ).rejects.toMatchObject({ code: 'not_found' });
  }, 60_000);
});
