import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeTextChunk } from '../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../unit/media/helpers.js';
import { importDone } from './import-helpers.js';
import { startHarness, type Harness } from '../engine/harness.js';

let h: Harness;
let outside: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'atelier-hostile-'));
});
afterEach(async () => {
  await h?.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('importing files whose settings were built to stall a reader', () => {
  it('imports a PNG whose parameters are 200,000 letters and one of 6 M letters (kept to 4 M), their prompts read', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    const png = await makePng(16, 16);
    const folder = join(outside, 'hostile');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'letters-200k.png'),
      insertChunks(png, [encodeTextChunk('parameters', 'a'.repeat(200_000))]),
    );
    writeFileSync(
      join(folder, 'letters-6m.png'),
      insertChunks(png, [encodeTextChunk('parameters', 'b'.repeat(6_000_000))]),
    );
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [folder],
      mode: 'link',
      watch: false,
    });
    // Asked while the files are read: answered (an import never holds the host).
    expect((await h.engine.handlers['library.imports']({})).items.map((i) => i.id)).toContain(started.id);
    expect(await importDone(h.engine, started.id)).toMatchObject({ status: 'completed', imported: 2, failed: 0 });

    const { items } = await h.engine.handlers['jobs.list']({ limit: 10, view: 'active', source: 'a1111' });
    expect(items).toHaveLength(2);
    for (const [name, letter] of [
      ['letters-200k.png', 'a'],
      ['letters-6m.png', 'b'],
    ] as const) {
      const job = await h.engine.handlers['jobs.get']({ id: items.find((j) => j.path!.endsWith(name))!.id });
      // The stored request keeps 32,000 characters of a prompt; the raw text is what the file said.
      expect(job.request.prompt).toBe(letter.repeat(32_000));
      expect(job.metadata!.raw[0]!.text.startsWith(letter.repeat(1_000))).toBe(true);
    }
    const big = await h.engine.handlers['jobs.get']({ id: items.find((j) => j.path!.endsWith('letters-6m.png'))!.id });
    expect(big.metadata!.problems).toEqual([expect.stringMatching(/"parameters" is larger than 4 MB/)]);
  });
});
