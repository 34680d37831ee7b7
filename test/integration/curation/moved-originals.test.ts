import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/types.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

const list = async (engine: Engine, search?: string) =>
  (await engine.handlers['jobs.list']({ limit: 200, view: 'active', ...(search !== undefined && { search }) })).items;

describe('curation of a linked original', () => {
  let h: Harness | undefined;
  let outside: string;
  afterEach(async () => {
    await h?.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it('keeps its rating, favourite and tags when the file is moved and renamed while Atelier is closed', async () => {
    outside = mkdtempSync(join(tmpdir(), 'atelier-curated-'));
    const root = join(outside, 'outputs');
    mkdirSync(root, { recursive: true });
    const files = await toolFiles('m');
    writeFileSync(join(root, files[0]!.name), files[0]!.bytes);
    writeFileSync(join(root, files[1]!.name), files[1]!.bytes);
    h = await startHarness({ housekeepingDelayMs: 0, watchSettleMs: 100 });
    let engine = h.engine;
    const { import: started } = await engine.handlers['library.import']({ paths: [root], mode: 'link', watch: true });
    await waitFor(async () =>
      (await engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)?.status === 'completed'
        ? true
        : undefined,
    );
    const job = (await list(engine)).find((j) => j.path === join(root, files[0]!.name))!;
    const imageId = job.images[0]!.id;
    await engine.handlers['images.setRating']({ ids: [imageId], rating: 4 });
    await engine.handlers['images.setFavorite']({ ids: [imageId], favorite: true });
    await engine.handlers['images.tag']({ ids: [imageId], add: ['portfolio'] });

    await engine.close();
    mkdirSync(join(root, 'sorted'));
    renameSync(join(root, files[0]!.name), join(root, 'sorted', 'best-one.png'));
    engine = await h.open({ housekeepingDelayMs: 0, watchSettleMs: 100 });
    const moved = await waitFor(async () =>
      (await list(engine)).find((j) => j.path === join(root, 'sorted', 'best-one.png')),
    );

    expect(moved.id).toBe(job.id);
    expect(moved.images.map((i) => [i.id, i.rating, i.favorite, i.tags])).toEqual([[imageId, 4, true, ['portfolio']]]);
    expect((await list(engine, 'tag:portfolio rating:4 path:best-one')).map((j) => j.id)).toEqual([job.id]);
    expect(await list(engine)).toHaveLength(2);
  }, 60_000);
});
