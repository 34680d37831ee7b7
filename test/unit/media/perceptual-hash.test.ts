import fc from 'fast-check';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  hammingDistance,
  hashHalves,
  hashOfFrequencies,
  lowFrequencies,
  perceptualHash,
  popcount32,
} from '../../../electron/media/perceptual-hash.js';

const hex64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((v) => v.toString(16).padStart(16, '0'));
const naiveDistance = (a: string, b: string): number => {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let d = 0;
  for (; x !== 0n; x >>= 1n) d += Number(x & 1n);
  return d;
};

/** A 96x64 picture: a diagonal gradient with a dark disc, as raw RGB. */
function picture(flip = false): Sharp {
  const [w, h] = [96, 64];
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const inDisc = (x - (flip ? 70 : 26)) ** 2 + (y - 30) ** 2 < 300;
      const v = inDisc ? 20 : Math.round(((x + y) / (w + h)) * 255);
      px.set([v, 255 - v, 128], (y * w + x) * 3);
    }
  }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } });
}

describe('hamming distance', () => {
  it('counts the differing bits of any two hashes, as a bit-by-bit count does', () => {
    fc.assert(fc.property(hex64, hex64, (a, b) => hammingDistance(a, b) === naiveDistance(a, b)));
  });
  it('is a metric: zero only to itself, symmetric, within 0…64, and the triangle holds', () => {
    fc.assert(
      fc.property(hex64, hex64, hex64, (a, b, c) => {
        expect(hammingDistance(a, a)).toBe(0);
        expect(hammingDistance(a, b)).toBe(hammingDistance(b, a));
        expect(hammingDistance(a, b)).toBeLessThanOrEqual(64);
        if (a !== b) expect(hammingDistance(a, b)).toBeGreaterThan(0);
        expect(hammingDistance(a, c)).toBeLessThanOrEqual(hammingDistance(a, b) + hammingDistance(b, c));
      }),
    );
  });
  it('popcount32 agrees with counting bits one by one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        (x) => popcount32(x) === x.toString(2).replace(/0/g, '').length,
      ),
    );
  });
  it('refuses text that is not 16 hex digits', () => {
    expect(() => hashHalves('abc')).toThrow(RangeError);
    expect(() => hammingDistance('zzzzzzzzzzzzzzzz', '0000000000000000')).toThrow(RangeError);
  });
});

describe('perceptual hash', () => {
  it('is 16 hex digits, the same for the same pixels', async () => {
    const png = await picture().png().toBuffer();
    const hash = await perceptualHash(png);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await perceptualHash(Buffer.from(png))).toBe(hash);
  });
  it('barely moves for a resized or re-encoded copy, and moves far for a different picture', async () => {
    const original = await perceptualHash(await picture().png().toBuffer());
    const half = await perceptualHash(await picture().resize(48).png().toBuffer());
    const jpeg = await perceptualHash(await picture().jpeg({ quality: 30 }).toBuffer());
    const other = await perceptualHash(await picture(true).png().toBuffer());
    expect(hammingDistance(original, half)).toBeLessThanOrEqual(4);
    expect(hammingDistance(original, jpeg)).toBeLessThanOrEqual(6);
    expect(hammingDistance(original, other)).toBeGreaterThan(16);
  });
  it('applies the EXIF orientation first: a JPEG stored sideways and tagged to turn upright hashes as the upright one', async () => {
    const upright = await perceptualHash(await picture().jpeg({ quality: 95 }).toBuffer());
    // Pixels turned 90° anticlockwise, with orientation 6 ("turn 90° clockwise to view").
    const sideways = await picture().rotate(-90).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect(hammingDistance(upright, await perceptualHash(sideways))).toBeLessThanOrEqual(4);
    const unturned = await picture().rotate(-90).jpeg({ quality: 95 }).toBuffer();
    expect(hammingDistance(upright, await perceptualHash(unturned))).toBeGreaterThan(10);
  });
  it('sets each bit by its coefficient against the median of the 63 that are not the mean', () => {
    const coefficients = Float64Array.from({ length: 64 }, (_, i) => (i === 0 ? 200 * 1024 : i));
    // Coefficients 1…63: the median is 32, so bits 33…63 are set; the mean (200) is above mid-grey.
    const bits = hashOfFrequencies(coefficients);
    expect(BigInt(`0x${bits}`).toString(2).padStart(64, '0')).toBe('1' + '0'.repeat(32) + '1'.repeat(31));
  });
  it('reads a flat square as its mean alone', () => {
    const flat = lowFrequencies(new Uint8Array(1024).fill(100));
    expect(flat[0]).toBeCloseTo(100 * 1024, 6);
    for (const c of flat.subarray(1)) expect(Math.abs(c)).toBeLessThan(1e-9);
  });
  it('fails on bytes that are not an image', async () => {
    await expect(perceptualHash(new Uint8Array([1, 2, 3, 4]))).rejects.toThrow();
  });
});
