/**
 * A huge mask never holds the main thread: its pixels stay in libvips' threads (no buffer of them ever reaches
 * JavaScript, where a loop over 256 million of them stalled the host 3.9 s), and its base64 is decoded in slices
 * with the event loop turning between. Counted, not timed: what sharp hands back, and the turns taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type SharpModule from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ handed: [] as number[], onSharp: undefined as (() => void) | undefined }));

vi.mock('sharp', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof SharpModule }>()).default;
  const wrapped = (...args: Parameters<typeof real>) => {
    seen.onSharp?.();
    const instance = real(...args);
    const toBuffer = instance.toBuffer.bind(instance) as (...a: unknown[]) => Promise<Buffer | { data: Buffer }>;
    (instance as unknown as { toBuffer: unknown }).toBuffer = async (...a: unknown[]) => {
      const out = await toBuffer(...a);
      seen.handed.push(Buffer.isBuffer(out) ? out.length : out.data.length);
      return out;
    };
    return instance;
  };
  return { default: Object.assign(wrapped, real) };
});

const { saveMask } = await import('../../../electron/media/save-mask.js');
const sharp = (await import('sharp')).default;

describe('saving a mask off the main thread', () => {
  let dir: string;
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    seen.handed.length = 0;
    seen.onSharp = undefined;
  });

  it('no buffer of the mask’s pixels reaches JavaScript: coverage is counted in libvips', async () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-mask-'));
    const size = 2048;
    const band = Buffer.alloc(size * size, 0);
    band.fill(255, 0, size * 512);
    const png = (
      await sharp(band, { raw: { width: size, height: size, channels: 1 } })
        .png()
        .toBuffer()
    ).toString('base64');
    seen.handed.length = 0;
    const saved = await saveMask({
      dataDir: dir,
      maskId: '0190a6e2-0000-7000-8000-0000000000ab',
      base64: png,
      width: size,
      height: size,
    });
    expect(saved.coverage).toBe(0.25);
    // Only encoded PNGs come back, far smaller than a byte per pixel.
    expect(seen.handed.length).toBeGreaterThan(0);
    expect(Math.max(...seen.handed)).toBeLessThan((size * size) / 16);
  });

  it('24 MB of base64 is checked and decoded a slice at a time, the event loop turning between', async () => {
    dir = mkdtempSync(join(tmpdir(), 'atelier-mask-'));
    const white = Buffer.alloc(8 * 8, 255);
    const small = await sharp(white, { raw: { width: 8, height: 8, channels: 1 } })
      .png()
      .toBuffer();
    // A real 8×8 mask padded to 18 MB after its end: 24 MB of base64 to check before any PNG work.
    const text = Buffer.concat([small, Buffer.alloc(18 * 1024 * 1024)]).toString('base64');
    let turns = 0;
    let turnsAtSharp = -1;
    let running = true;
    const tick = () => {
      turns += 1;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    seen.onSharp = () => {
      if (turnsAtSharp < 0) turnsAtSharp = turns;
    };
    await saveMask({
      dataDir: dir,
      maskId: '0190a6e2-0000-7000-8000-0000000000ac',
      base64: text,
      width: 8,
      height: 8,
    }).catch(() => undefined);
    running = false;
    // About one turn per 1 MB slice before the first sharp call (a single synchronous decode would allow none).
    expect(turnsAtSharp).toBeGreaterThanOrEqual(20);
  });
});
