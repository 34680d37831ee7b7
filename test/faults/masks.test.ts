/**
 * Hostile masks over the headless host's HTTP API: a PNG cut short in its pixel data, one past the pixel limit, one
 * that is not base64 or too long, each answered 400 with the real reason (never 500 `internal`, never "not a PNG" for
 * a size), and a 16000² mask of a 16000² image saved with its exact coverage, the host answering throughout.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/contract.js';
import type { Db } from '../../electron/db/connection.js';
import { createEngine } from '../../electron/engine/create-engine.js';
import { startServer } from '../../electron/serve/server.js';
import { createScriptedProvider, scriptedEntry } from '../fakes/scripted-provider.js';
import { memoryKeyring, waitFor } from '../integration/engine/harness.js';
import { watchProcessCrashes } from './helpers.js';

const TOKEN = 'fault-token-0123456789abcdefghijklmnop';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A real 1-bit grayscale PNG, white in rows [y0, y1): tiny even at 20000², so a test can send one. */
function bitPng(width: number, height: number, y0: number, y1: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1;
  const stride = 1 + Math.ceil(width / 8);
  const rows = Buffer.alloc(stride * height);
  for (let y = y0; y < y1; y += 1) rows.fill(0xff, y * stride + 1, (y + 1) * stride);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('masks over HTTP: truncated, oversized and huge inputs', () => {
  let root: string;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    rmSync(root, { recursive: true, force: true });
  });

  it('answer 400 with the real reason, and a 16000² mask of a 16000² image is saved whole', async () => {
    const crashes = watchProcessCrashes();
    try {
      root = mkdtempSync(join(tmpdir(), 'atelier-mask-faults-'));
      let db: Db | undefined;
      const engine = await createEngine(
        {
          dataDir: join(root, 'data'),
          keyring: memoryKeyring(),
        },
        {
          providers: [scriptedEntry(createScriptedProvider())],
          orphanGraceMs: 0,
          housekeepingDelayMs: 0,
          maintenanceIntervalMs: 0,
          wrapDatabase: (raw) => (db = raw),
        },
      );
      cleanups.push(() => engine.close({ graceMs: 0 }));
      const rendererDir = join(root, 'renderer');
      mkdirSync(rendererDir, { recursive: true });
      writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
      const server = await startServer({ engine, rendererDir, token: TOKEN });
      cleanups.push(() => server.close());
      const call = async (channel: string, input: unknown) => {
        const response = await fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
        return {
          status: response.status,
          body: (await response.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } },
        };
      };
      const made = async () => {
        const { job } = (
          await call('jobs.submit', { provider: 'scripted', prompt: 'a lighthouse', width: 96, height: 64, count: 1 })
        ).body.value as { job: JobDetail };
        return waitFor(async () => {
          const detail = (await call('jobs.get', { id: job.id })).body.value as JobDetail;
          return detail.status === 'succeeded' ? detail.images[0]!.id : undefined;
        });
      };
      const imageId = await made();
      const refusal = async (png: string) => {
        const reply = await call('images.saveMask', { imageId, png });
        expect(reply.status).toBe(400);
        expect(reply.body.error?.code).toBe('invalid_request');
        return reply.body.error!.message;
      };

      // Cut short inside its pixel data: the header reads, the pixels do not (it answered 500 `internal`).
      const noise = Buffer.alloc(96 * 64 * 4);
      for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919) % 251;
      const whole = await sharp(noise, { raw: { width: 96, height: 64, channels: 4 } })
        .png()
        .toBuffer();
      expect(await refusal(whole.subarray(0, Math.floor(whole.length * 0.6)).toString('base64'))).toBe(
        'The mask PNG is cut short or damaged: its pixels cannot be read.',
      );
      // Past the pixel limit, said as such (it was called "not a PNG image").
      expect(await refusal(bitPng(20000, 20000, 0, 10).toString('base64'))).toBe(
        'The mask is 20000×20000 pixels: a mask is at most 268 megapixels (16384×16384).',
      );
      expect(await refusal(Buffer.from('not an image at all').toString('base64'))).toBe('The mask is not a PNG image.');
      expect(await refusal(`${'A'.repeat(3 * 1024 * 1024)}!`)).toBe('The mask is not base64 PNG data.');
      expect(await refusal('A'.repeat(32_000_004))).toBe('A mask is at most 24 MB.');
      expect(await refusal(bitPng(64, 96, 0, 10).toString('base64'))).toBe(
        'The mask is 64×96 but its image is 96×64: they must match.',
      );
      expect(await refusal(bitPng(96, 64, 0, 0).toString('base64'))).toBe(
        'The mask is empty: paint the area to repaint first.',
      );

      // A 16000² image (imported ones may be that large): its mask is read in libvips' threads, its coverage exact.
      const huge = await made();
      db!.prepare('UPDATE images SET width = 16000, height = 16000 WHERE id = ?').run(huge);
      const saved = await call('images.saveMask', {
        imageId: huge,
        png: bitPng(16000, 16000, 0, 4000).toString('base64'),
      });
      expect(saved.status).toBe(200);
      expect(saved.body.value).toMatchObject({ width: 16000, height: 16000, coverage: 0.25 });
      expect((await call('jobs.stats', {})).status).toBe(200);
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  }, 120_000);
});
