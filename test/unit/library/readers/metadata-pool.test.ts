import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../../../../electron/library/import/probe-file.js';
import {
  createMetadataPool,
  MetadataReadFailed,
  type MetadataPool,
} from '../../../../electron/library/readers/metadata-pool.js';
import { encodeTextChunk } from '../../../../electron/media/png/text-chunks.js';
import { insertChunks, makePng } from '../../media/helpers.js';

const STALLING = new URL('../../../fixtures/stalling-metadata-worker.mjs', import.meta.url);

let png: Uint8Array;
const withText = (keyword: string, text: string): Uint8Array => insertChunks(png, [encodeTextChunk(keyword, text)]);
const dir = mkdtempSync(join(tmpdir(), 'atelier-metadata-pool-'));
let pool: MetadataPool | undefined;

beforeAll(async () => {
  png = await makePng(8, 8);
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('metadata pool', () => {
  it('reads settings on a worker thread, the thread reused for the next file', async () => {
    pool = createMetadataPool({ size: 1 });
    const { read } = await pool.read(withText('parameters', 'a fox\nSteps: 20, Sampler: Euler, Seed: 5, Size: 8x8'));
    expect(read).toMatchObject({ format: 'png', source: 'a1111', settings: { prompt: 'a fox', steps: 20, seed: '5' } });
    expect(
      (await pool.read(withText('Comment', 'a note'), { sidecarText: 'a cat\nSteps: 3, Seed: 4, Size: 8x8' })).read
        .settings.prompt,
    ).toBe('a cat');
    expect(pool.workerCount).toBe(1);
  });

  it('terminates a thread that outlasts the time limit: its file fails in words, the next file gets a fresh thread', async () => {
    pool = createMetadataPool({ size: 1, timeLimitMs: 300, workerUrl: STALLING });
    const stalled = pool.read(withText('parameters', 'stall-here'));
    // The host goes on meanwhile: a timer set after the stall started fires before the stalled read ends.
    const order: string[] = [];
    await Promise.all([
      stalled.catch(() => order.push('stalled read failed')),
      sleep(1).then(() => order.push('timer')),
    ]);
    expect(order).toEqual(['timer', 'stalled read failed']);
    await expect(stalled).rejects.toThrow(
      new MetadataReadFailed('timeout', 'Its settings could not be read in time (over 0.3 s).'),
    );
    expect((await pool.read(withText('parameters', 'fine'))).read).toMatchObject({ source: 'unknown' });
    expect(pool.workerCount).toBe(1);
  });

  it("hands a file's bytes to the thread and back, never copying them on this thread; a view into a larger buffer is copied", async () => {
    pool = createMetadataPool({ size: 1 });
    const file = withText('parameters', 'a fox\nSteps: 20, Sampler: Euler, Seed: 5, Size: 8x8');
    const whole = file.slice();
    const reading = pool.read(whole);
    // Moved, not cloned: the caller's view is empty until the bytes come back with the answer.
    expect(whole.byteLength).toBe(0);
    const back = await reading;
    expect(back.bytes).toEqual(file);
    expect(back.read.source).toBe('a1111');
    const shared = new Uint8Array(file.length + 8);
    shared.set(file, 8);
    const view = shared.subarray(8);
    const copied = await pool.read(view);
    expect(copied.bytes).toBe(view);
    expect(copied.read.source).toBe('a1111');
  });

  it('fails only the file whose reader stopped; the files queued behind it are read', async () => {
    pool = createMetadataPool({ size: 1, workerUrl: STALLING });
    const reads = [
      pool.read(withText('a', 'crash-here')),
      pool.read(withText('b', 'fine')),
      pool.read(withText('c', 'fine')),
    ];
    const [crashed, ...rest] = await Promise.allSettled(reads);
    expect(crashed).toMatchObject({
      status: 'rejected',
      reason: {
        code: 'crashed',
        message: expect.stringMatching(/^Its settings could not be read: the reader stopped/),
      },
    });
    expect(rest.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  it('on close, fails what is queued or running and refuses more', async () => {
    pool = createMetadataPool({ size: 1, workerUrl: STALLING });
    const reads = Promise.allSettled([
      pool.read(withText('parameters', 'stall-here')),
      pool.read(withText('parameters', 'fine')),
    ]);
    await pool.close();
    expect(await reads).toMatchObject([
      { status: 'rejected', reason: { code: 'closing' } },
      { status: 'rejected', reason: { code: 'closing' } },
    ]);
    await expect(pool.read(png)).rejects.toMatchObject({ code: 'closing', message: 'Atelier is closing.' });
  });

  it('a file whose settings stall the reader fails its probe with the reason, never hangs it', async () => {
    pool = createMetadataPool({ size: 1, timeLimitMs: 300, workerUrl: STALLING });
    const path = join(dir, 'stalls.png');
    writeFileSync(path, withText('parameters', 'stall-here'));
    expect(await probeFile(path, undefined, undefined, path, pool.read)).toEqual({
      kind: 'failed',
      reason: 'Its settings could not be read in time (over 0.3 s).',
    });
  });
});
