import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

const list = async (engine: Engine) => (await engine.handlers['jobs.list']({ limit: 200, view: 'active' })).items;

describe('a watched folder', () => {
  let h: Harness | undefined;
  let outside: string;
  afterEach(async () => {
    await h?.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it('takes in new files as they are written, follows a rename by content, marks a deleted original missing, and catches up after a restart', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-watched-'));
    const root = join(outside, 'ComfyUI', 'output');
    mkdirSync(root, { recursive: true });
    const files = await toolFiles('w');
    writeFileSync(join(root, files[0]!.name), files[0]!.bytes);
    h = await startHarness({ housekeepingDelayMs: 0, watchSettleMs: 100 });
    let engine = h.engine;
    const { import: started } = await engine.handlers['library.import']({ paths: [root], mode: 'link', watch: true });
    await waitFor(async () =>
      (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const [folder] = (await engine.handlers['library.folders']({})).items;
    expect(folder).toMatchObject({ watch: true, watchState: 'watching' });

    // A tool writes a new image into a sub-folder.
    mkdirSync(join(root, 'day2'));
    writeFileSync(join(root, 'day2', files[3]!.name), files[3]!.bytes);
    const fresh = await waitFor(async () =>
      (await list(engine)).find((j) => j.path === join(root, 'day2', files[3]!.name)),
    );
    expect(fresh).toMatchObject({ source: files[3]!.source, prompt: files[3]!.prompt });

    // Renamed: the same image, at its new path; nothing added.
    renameSync(join(root, 'day2', files[3]!.name), join(root, 'day2', 'renamed.png'));
    await waitFor(async () =>
      (await list(engine)).find((j) => j.id === fresh.id)?.path === join(root, 'day2', 'renamed.png')
        ? true
        : undefined,
    );
    expect(await list(engine)).toHaveLength(2);
    const moved = await engine.handlers['jobs.get']({ id: fresh.id });
    expect(moved.metadata!.locations).toEqual([{ path: join(root, 'day2', 'renamed.png'), missing: false }]);

    // Deleted: still in the history, marked missing.
    rmSync(join(root, files[0]!.name));
    const first = (await list(engine)).find((j) => j.id !== fresh.id)!;
    await waitFor(async () =>
      (await engine.handlers['jobs.get']({ id: first.id })).metadata!.locations[0]!.missing ? true : undefined,
    );
    expect(await list(engine)).toHaveLength(2);

    // While Atelier is closed, a new file arrives: it is there after the next start.
    await engine.close();
    writeFileSync(join(root, files[5]!.name), files[5]!.bytes);
    engine = await h.open({ housekeepingDelayMs: 0, watchSettleMs: 100 });
    await waitFor(async () => (await list(engine)).find((j) => j.path === join(root, files[5]!.name)));
    // And it stays live after the restart.
    writeFileSync(join(root, files[6]!.name), files[6]!.bytes);
    await waitFor(async () => (await list(engine)).find((j) => j.path === join(root, files[6]!.name)));
    expect(await list(engine)).toHaveLength(4);
  }, 60_000);
});
