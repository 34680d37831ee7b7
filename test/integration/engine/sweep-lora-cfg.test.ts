import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readChunks } from '../../../electron/media/png/chunks.js';
import { readTextChunks } from '../../../electron/media/png/text-chunks.js';
import type { SweepDetail } from '../../../shared/contract.js';
import { startFakeA1111, type FakeA1111 } from '../../fakes/index.js';
import { startHarness, waitFor, type Harness } from './harness.js';

/**
 * What the issue calls done: a LoRA's weight swept against CFG on two servers, read from one labelled grid. Each
 * server gets A1111's own LoRA form, each cell its weight and CFG, and the sheet names both axes.
 */
const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'];

describe('a LoRA weight × CFG sweep on two servers', () => {
  let h: Harness | undefined;
  const fakes: FakeA1111[] = [];
  const temps: string[] = [];
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    for (const fake of fakes.splice(0)) await fake.close();
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every cell with its weight and CFG across both servers and exports one labelled sheet', async () => {
    fakes.push(await startFakeA1111(), await startFakeA1111());
    h = await startHarness({ providers: defaultProviders() });
    const handlers = h.engine.handlers;
    await handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: fakes[0]!.url } } });
    await handlers['providers.add']({ kind: 'a1111', name: 'Second', baseUrl: fakes[1]!.url });
    await handlers['settings.update']({ providers: { 'a1111-2': { enabled: true } } });
    // The servers' LoRA lists are known, so a LoRA neither has would be refused before anything is sent.
    for (const id of ['a1111', 'a1111-2']) expect((await handlers['providers.test']({ id })).ok).toBe(true);

    const { sweep } = await handlers['sweeps.start']({
      base: {
        provider: 'any:a1111',
        prompt: 'a lighthouse in a storm',
        width: 64,
        height: 64,
        count: 1,
        seed: 3,
        steps: 2,
        loras: [{ name: 'add_detail', weight: 1 }],
      },
      axes: [
        { field: 'loraWeight', lora: 'add_detail', values: '0-1 step 0.5' },
        { field: 'guidance', values: '4, 8' },
      ],
    });
    expect(sweep).toMatchObject({ cellCount: 6, name: 'LoRA weight (add_detail) × CFG' });
    const detail = await waitFor<SweepDetail>(async () => {
      const d = await handlers['sweeps.get']({ id: sweep.id });
      return d.cells.every((c) => c.job !== null && TERMINAL.includes(c.job.status)) ? d : undefined;
    }, 30_000);
    expect(detail.succeeded).toBe(6);
    expect(new Set(detail.cells.map((c) => c.job!.instance))).toEqual(new Set(['a1111', 'a1111-2']));

    // What the servers were sent, cell by cell: A1111's <lora:name:weight> tag and the CFG of the cell.
    const sent = fakes
      .flatMap((f) => f.generationRequests())
      .map((r) => JSON.parse(r.body) as { prompt: string; cfg_scale: number });
    const pairs = sent.map((b) => `${/<lora:add_detail:([^>]+)>/.exec(b.prompt)?.[1]} @ ${b.cfg_scale}`).sort();
    expect(pairs).toEqual(['0 @ 4', '0 @ 8', '0.5 @ 4', '0.5 @ 8', '1 @ 4', '1 @ 8']);

    // One labelled sheet: the axes as A1111's X/Y/Z plot records them, each cell's job in place.
    const folder = mkdtempSync(join(tmpdir(), 'atelier-sweep-lora-'));
    temps.push(folder);
    const sheet = await handlers['sweeps.sheet']({ id: sweep.id, z: 0, folder });
    const texts = readTextChunks(readChunks(readFileSync(sheet.path!)));
    const parameters = texts.find((t) => t.keyword === 'parameters')!.text;
    expect(parameters).toContain('X Type: LoRA weight (add_detail)');
    expect(parameters).toContain('X Values: "0, 0.5, 1"');
    expect(parameters).toContain('Y Type: CFG Scale');
    const record = JSON.parse(texts.find((t) => t.keyword === 'atelier-sweep')!.text) as {
      cells: Array<{ x: number; y: number; jobId: string }>;
    };
    expect(record.cells.map((c) => [c.x, c.y, c.jobId])).toEqual(detail.cells.map((c) => [c.x, c.y, c.job!.id]));
  }, 60_000);
});
