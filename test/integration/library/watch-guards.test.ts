import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { memoryKeyring, startHarness, waitFor, waitForStatus, type Harness } from '../engine/harness.js';

const list = async (engine: Engine) => (await engine.handlers['jobs.list']({ limit: 200, view: 'active' })).items;

async function importDone(engine: Engine, id: string): Promise<void> {
  await waitFor(
    async () =>
      (await engine.handlers['library.imports']({})).items.find((i) => i.id === id)?.status === 'completed'
        ? true
        : undefined,
    30_000,
  );
}

let outside = '';
let engine: Engine | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await engine?.close({ graceMs: 0 });
  engine = undefined;
  await h?.cleanup();
  h = undefined;
  if (outside !== '') rmSync(outside, { recursive: true, force: true });
});

describe('a watched folder that holds the data dir', () => {
  it("never imports Atelier's own originals and thumbnails as pictures", async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-self-'));
    const comfy = join(outside, 'ComfyUI');
    const dataDir = join(comfy, 'Atelier');
    mkdirSync(dataDir, { recursive: true });
    engine = await createEngine(
      {
        dataDir,
        keyring: memoryKeyring(),
      },
      {
        housekeepingDelayMs: 60_000,
        maintenanceIntervalMs: 0,
        watchSettleMs: 100,
      },
    );
    const { import: started } = await engine.handlers['library.import']({ paths: [comfy], mode: 'link', watch: true });
    await importDone(engine, started.id);
    expect((await engine.handlers['library.folders']({})).items[0]).toMatchObject({ watchState: 'watching' });

    // A job writes its originals and thumbnails into the data dir, inside the watched folder.
    const { job } = await engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'a lighthouse',
      width: 256,
      height: 192,
      count: 2,
      seed: 3,
      steps: 4,
    });
    const done = await waitForStatus(engine, job.id, ['succeeded', 'failed'], 30_000);
    expect(done.status).toBe('succeeded');
    await waitFor(
      () => done.images.every((image) => existsSync(engine!.resolveMedia('thumb', image.id)?.path ?? '')),
      30_000,
    );

    // A sentinel written after them: once it is in, anything the watcher took from the data dir would be in too.
    const [file] = await toolFiles('self');
    const sentinel = join(comfy, 'output', file!.name);
    mkdirSync(join(comfy, 'output'));
    writeFileSync(sentinel, file!.bytes);
    await waitFor(async () => (await list(engine!)).find((j) => j.path === sentinel), 30_000);
    const jobs = await list(engine);
    expect(jobs.filter((j) => j.path?.startsWith(dataDir) === true)).toEqual([]);
    expect(jobs.map((j) => j.id).sort()).toEqual([job.id, jobs.find((j) => j.path === sentinel)!.id].sort());
  }, 90_000);
});

describe('a watched folder deleted while Atelier runs', () => {
  it('marks its images missing at once, and takes the folder back (images present again, new files in) when it is recreated', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-gone-'));
    const root = join(outside, 'output');
    mkdirSync(root);
    const files = await toolFiles('gone');
    writeFileSync(join(root, files[0]!.name), files[0]!.bytes);
    writeFileSync(join(root, files[1]!.name), files[1]!.bytes);
    h = await startHarness({ housekeepingDelayMs: 60_000, watchSettleMs: 100 });
    const e = h.engine;
    const { import: started } = await e.handlers['library.import']({ paths: [root], mode: 'link', watch: true });
    await importDone(e, started.id);
    const ids = (await list(e)).map((j) => j.id);
    expect(ids).toHaveLength(2);
    const missing = async (): Promise<boolean[]> =>
      Promise.all(
        ids.map(async (id) => (await e.handlers['jobs.get']({ id })).metadata!.locations.every((l) => l.missing)),
      );

    rmSync(root, { recursive: true });
    await waitFor(async () => ((await missing()).every(Boolean) ? true : undefined), 30_000);
    expect((await e.handlers['library.folders']({})).items[0]).toMatchObject({ watchState: 'failed', missing: 2 });

    // The tool makes its folder again: one old file back, one new.
    mkdirSync(root);
    writeFileSync(join(root, files[0]!.name), files[0]!.bytes);
    writeFileSync(join(root, files[2]!.name), files[2]!.bytes);
    await waitFor(
      async () => ((await list(e)).some((j) => j.path === join(root, files[2]!.name)) ? true : undefined),
      30_000,
    );
    await waitFor(
      async () =>
        (await missing())[ids.indexOf((await list(e)).find((j) => j.path === join(root, files[0]!.name))!.id)] === false
          ? true
          : undefined,
      30_000,
    );
    expect((await e.handlers['library.folders']({})).items[0]).toMatchObject({ watchState: 'watching', missing: 1 });
    expect(await list(e)).toHaveLength(3);
  }, 90_000);
});
