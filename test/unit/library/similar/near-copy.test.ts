import fc from 'fast-check';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { FLAT_SPREAD, NEAR_COPY_DISTANCE, isNearCopy } from '../../../../electron/library/similar/near-copy.js';
import {
  colourSignature,
  hammingDistance,
  perceptualHash,
  type ColourSignature,
} from '../../../../electron/media/perceptual-hash.js';
import { makeThumbnail } from '../../../../electron/media/thumbnail.js';

const flat = (r: number, g: number, b: number): Sharp =>
  sharp({ create: { width: 512, height: 512, channels: 3, background: { r, g, b } } });

/** A 512x384 picture with structure: a warm diagonal gradient, a dark disc and stripes. */
function picture(): Sharp {
  const [w, h] = [512, 384];
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const inDisc = (x - 150) ** 2 + (y - 170) ** 2 < 90 ** 2;
      const stripe = Math.floor(x / 40) % 2 === 0 && y > 280;
      const v = inDisc ? 25 : stripe ? 230 : Math.round(((x + y) / (w + h)) * 255);
      px.set([v, Math.round(v * 0.7), 255 - v], (y * w + x) * 3);
    }
  }
  return sharp(px, { raw: { width: w, height: h, channels: 3 } });
}

/** What the index compares: the hash and the colour of the image's thumbnail, as the engine makes them. */
async function signed(image: Sharp): Promise<{ hash: string; colour: ColourSignature }> {
  const thumb = await makeThumbnail(await image.toBuffer());
  return { hash: await perceptualHash(thumb), colour: await colourSignature(thumb) };
}

async function nearCopies(a: Sharp, b: Sharp): Promise<{ distance: number; near: boolean }> {
  const [x, y] = await Promise.all([signed(a), signed(b)]);
  const distance = hammingDistance(x.hash, y.hash);
  return { distance, near: isNearCopy(distance, x.colour, y.colour) };
}

describe('near copies: hash and colour together', () => {
  it('a flat light blue and a flat blue hash alike (their hashes are rounding noise) but are not copies', async () => {
    const { distance, near } = await nearCopies(flat(135, 206, 250).png(), flat(0, 0, 255).png());
    // The greyscale hash of a flat picture is degenerate: this is the case the colour check is for.
    expect(distance).toBeLessThanOrEqual(NEAR_COPY_DISTANCE);
    expect(near).toBe(false);
  });

  it('two flat greys one shade apart are not copies either, nor is a flat picture of a textured one', async () => {
    expect((await nearCopies(flat(120, 120, 120).png(), flat(132, 132, 132).png())).near).toBe(false);
    const colour = await signed(flat(128, 128, 128).png());
    expect(colour.colour.spread).toBeLessThan(FLAT_SPREAD);
    const textured = await signed(picture().png());
    expect(isNearCopy(0, colour.colour, textured.colour)).toBe(false);
  });

  it('a flat picture and its JPEG are copies', async () => {
    expect((await nearCopies(flat(173, 216, 230).png(), flat(173, 216, 230).jpeg({ quality: 60 }))).near).toBe(true);
  });

  it('a picture and its half-size, recompressed JPEG are copies', async () => {
    const copy = sharp(await picture().resize(256).jpeg({ quality: 40 }).toBuffer());
    const { distance, near } = await nearCopies(picture().png(), copy);
    expect(distance).toBeLessThanOrEqual(NEAR_COPY_DISTANCE);
    expect(near).toBe(true);
  });

  it('is symmetric, and never links pictures whose colours are far apart', () => {
    const signature = fc.record({
      r: fc.double({ min: 0, max: 255, noNaN: true }),
      g: fc.double({ min: 0, max: 255, noNaN: true }),
      b: fc.double({ min: 0, max: 255, noNaN: true }),
      spread: fc.double({ min: 0, max: 127.5, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), signature, signature, (distance, a, b) => {
        const near = isNearCopy(distance, a, b);
        expect(isNearCopy(distance, b, a)).toBe(near);
        if (Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b)) > 24) expect(near).toBe(false);
        if (distance > NEAR_COPY_DISTANCE) expect(near).toBe(false);
      }),
    );
  });
});
