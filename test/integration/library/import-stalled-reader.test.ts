import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeTextChunk } from '../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../unit/media/helpers.js';
import { startHarness, waitFor, type Harness } from '../engine/harness.js';

// The engine's metadata threads run a reader that spins for ever on a marked file, with a short time limit.
vi.mock('../../../electron/library/readers/off-thread.js', async () => {
  const { createMetadataPool } = await import('../../../electron/library/readers/metadata-pool.js');
  const pool = createMetadataPool({
    size: 1,
    timeLimitMs: 5_000,
    workerUrl: new URL('../../fixtures/stalling-metadata-worker.mjs', import.meta.url),
  });
  return { readMetadataOffThread: pool.read, holdMetadataReaders: () => ({ release: async () => undefined }) };
});

let h: Harness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await h?.cleanup();
  if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
});

describe('a file whose settings stall the reader', () => {
  it('fails alone, in words, after the time limit; the host answers meanwhile and the other files are imported', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    outside = mkdtempSync(join(tmpdir(), 'atelier-stall-'));
    const folder = join(outside, 'shoot');
    mkdirSync(folder);
    const png = await makePng(16, 16);
    writeFileSync(join(folder, 'a-stalls.png'), insertChunks(png, [encodeTextChunk('parameters', 'stall-here')]));
    writeFileSync(join(folder, 'b-fine.png'), insertChunks(png, [encodeTextChunk('parameters', 'fine')]));
    const { import: started } = await h.engine.handlers['library.import']({
      paths: [folder],
      mode: 'link',
      watch: false,
    });

    // While a reader spins on the first file, a request is answered and the import is still at work.
    await waitFor(
      async () => (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id)!.found === 2,
    );
    const during = (await h.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id);
    expect(during).toMatchObject({ status: 'running', failed: 0 });

    const done = await waitFor(async () => {
      const found = (await h!.engine.handlers['library.imports']({})).items.find((i) => i.id === started.id);
      return found?.status === 'running' ? undefined : found;
    }, 20_000);
    expect(done).toMatchObject({ status: 'completed', imported: 1, failed: 1 });
    expect(done.problems).toEqual([
      {
        path: join(folder, 'a-stalls.png'),
        reason: 'Its settings could not be read in time (over 5 s).',
        status: 'failed',
      },
    ]);
  });
});
