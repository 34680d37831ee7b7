import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  clearMask,
  coverage,
  createMask,
  encodeMaskPng,
  invertMask,
  stamp,
  strokeLine,
  toBase64,
  toSourcePoint,
  UndoStack,
} from '../../../../renderer/src/iterate/mask-brush';

/** The PNG's pixels as sharp reads them back: one channel, its width and height. */
async function decode(png: Uint8Array) {
  const meta = await sharp(Buffer.from(png)).metadata();
  const { data, info } = await sharp(Buffer.from(png)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data, info: { ...info, channels: meta.channels, space: meta.space, depth: meta.depth } };
}

describe('the mask brush', () => {
  it('a painted stroke is white in the PNG exactly where it was painted, black elsewhere, at the source size', async () => {
    const mask = createMask(40, 30);
    // A 3-pixel brush dragged along row 10 from x=5 to x=30.
    strokeLine(mask, { x: 5.5, y: 10.5 }, { x: 30.5, y: 10.5 }, 3, false);
    const { data, info } = await decode(await encodeMaskPng(mask));
    expect([info.width, info.height, info.channels, info.space, info.depth]).toEqual([40, 30, 1, 'b-w', 'uchar']);
    expect(data[10 * 40 + 5]).toBe(255);
    expect(data[10 * 40 + 18]).toBe(255);
    expect(data[12 * 40 + 30]).toBe(255);
    expect(data[10 * 40 + 35]).toBe(0);
    expect(data[20 * 40 + 18]).toBe(0);
    expect(data[0]).toBe(0);
    // Nothing but pure white and pure black: a provider reads it as a mask, not a picture.
    expect(new Set(data)).toEqual(new Set([0, 255]));
  });

  it('the PNG is the mask byte for byte, for any strokes (8-bit grayscale, any size)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(
          fc.record({
            x: fc.double({ min: -5, max: 55, noNaN: true }),
            y: fc.double({ min: -5, max: 55, noNaN: true }),
            r: fc.double({ min: 0.5, max: 9, noNaN: true }),
            erase: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        async (width, height, stamps) => {
          const mask = createMask(width, height);
          for (const s of stamps) stamp(mask, s.x, s.y, s.r, s.erase);
          const { data, info } = await decode(await encodeMaskPng(mask));
          expect([info.width, info.height]).toEqual([width, height]);
          expect(Buffer.compare(data, Buffer.from(mask.data))).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('erase takes paint away; invert swaps repaint and keep; clear keeps everything', () => {
    const mask = createMask(10, 10);
    stamp(mask, 5, 5, 3, false);
    const painted = coverage(mask);
    expect(painted).toBeGreaterThan(0.2);
    stamp(mask, 5, 5, 1, true);
    expect(mask.data[5 * 10 + 5]).toBe(0);
    expect(mask.data[5 * 10 + 3]).toBe(255);
    const before = mask.data.slice();
    invertMask(mask);
    for (let i = 0; i < before.length; i++) expect(mask.data[i]).toBe(before[i] === 0 ? 255 : 0);
    clearMask(mask);
    expect(coverage(mask)).toBe(0);
  });

  it('undo puts the mask back as it was before each change, newest first, then has nothing left', () => {
    const mask = createMask(8, 8);
    const undo = new UndoStack();
    undo.push(mask);
    stamp(mask, 2, 2, 1.5, false);
    const afterFirst = mask.data.slice();
    undo.push(mask);
    invertMask(mask);
    expect(undo.undo(mask)).toBe(true);
    expect(mask.data).toEqual(afterFirst);
    expect(undo.undo(mask)).toBe(true);
    expect(coverage(mask)).toBe(0);
    expect(undo.undo(mask)).toBe(false);
  });

  it('undo keeps to its byte budget by dropping the oldest steps, never the newest', () => {
    const mask = createMask(100, 100);
    const undo = new UndoStack(25_000);
    for (let i = 0; i < 5; i++) {
      stamp(mask, i * 20, 50, 4, false);
      undo.push(mask);
    }
    expect(undo.size).toBe(2);
  });

  it('a point on a canvas shown at half size lands on the source pixel twice as far in', () => {
    expect(toSourcePoint({ x: 100, y: 40 }, { width: 512, height: 256 }, { width: 1024, height: 512 })).toEqual({
      x: 200,
      y: 80,
    });
  });

  it('base64 of a large PNG survives the round trip (no argument-count overflow)', () => {
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
    expect(Buffer.from(toBase64(bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});
