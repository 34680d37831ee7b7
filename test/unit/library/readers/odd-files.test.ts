import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { readChunks, writeChunks, type PngChunk } from '../../../../electron/media/png/chunks.js';
import { baseWebp, webpWith } from '../../../fixtures/images/containers.js';
import { buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';
import { insertChunks, makePng, tEXt } from '../../media/helpers.js';

const INFOTEXT = 'a lantern\nNegative prompt: fog\nSteps: 20, Sampler: Euler, CFG scale: 6, Seed: 11, Size: 16x12';
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

describe('odd files', () => {
  it('a 16-bit PNG: its texts are read and its size comes from the header', async () => {
    const png16 = new Uint8Array(
      await sharp(await makePng(16, 12))
        .toColourspace('rgb16')
        .png()
        .toBuffer(),
    );
    expect(png16[24]).toBe(16);
    const read = await readImageMetadata(insertChunks(png16, [tEXt('parameters', INFOTEXT)]));
    expect(read).toMatchObject({ format: 'png', width: 16, height: 12, source: 'a1111' });
    expect(read.settings.seed).toBe('11');
  });

  it('an APNG (acTL, fcTL and fdAT frames around the text): the text after the frames is read', async () => {
    const chunks = readChunks(await makePng(16, 12));
    const idat = chunks.find((c) => c.type === 'IDAT')!;
    const actl: PngChunk = { type: 'acTL', data: Uint8Array.from([...be32(2), ...be32(0)]) };
    const fctl = (seq: number): PngChunk => ({
      type: 'fcTL',
      data: Uint8Array.from([...be32(seq), ...be32(16), ...be32(12), ...be32(0), ...be32(0), 0, 1, 0, 10, 0, 0]),
    });
    const fdat: PngChunk = { type: 'fdAT', data: Uint8Array.from([...be32(2), ...idat.data]) };
    const apng = writeChunks([
      chunks[0]!,
      actl,
      fctl(0),
      ...chunks.filter((c) => c.type === 'IDAT'),
      fctl(1),
      fdat,
      tEXt('parameters', INFOTEXT),
      chunks.at(-1)!,
    ]);
    const read = await readImageMetadata(apng);
    expect(read).toMatchObject({ format: 'png', width: 16, height: 12, source: 'a1111', problems: [] });
  });

  it('an animated WebP (ANIM, ANMF frames, then EXIF): the EXIF after the frames is read', async () => {
    const still = webpWith(await baseWebp(8, 8), 8, 8, {
      exif: buildExif({ UserComment: unicodeComment(INFOTEXT, 'le') }),
    });
    // The animation flag and ANIM/ANMF chunks as libwebp's muxer writes them, before the EXIF chunk.
    const bytes = [...still];
    bytes[20] = bytes[20]! | 0x02;
    const chunk = (fourcc: string, body: number[]) => {
      const n = body.length;
      return [...new TextEncoder().encode(fourcc), n & 0xff, (n >> 8) & 0xff, 0, 0, ...body, ...(n % 2 ? [0] : [])];
    };
    const anim = chunk('ANIM', [0, 0, 0, 0, 0, 0]);
    const imageStart = 30;
    const imageSize = bytes[imageStart + 4]! | (bytes[imageStart + 5]! << 8) | (bytes[imageStart + 6]! << 16);
    const image = bytes.slice(imageStart, imageStart + 8 + imageSize + (imageSize % 2));
    const anmf = chunk('ANMF', [0, 0, 0, 0, 0, 0, 7, 0, 0, 7, 0, 0, 100, 0, 0, 0, ...image]);
    const body = [...bytes.slice(12, imageStart), ...anim, ...anmf, ...anmf, ...bytes.slice(imageStart + image.length)];
    const n = body.length + 4;
    const animated = Uint8Array.from([
      ...new TextEncoder().encode('RIFF'),
      n & 0xff,
      (n >> 8) & 0xff,
      (n >> 16) & 0xff,
      0,
      ...new TextEncoder().encode('WEBP'),
      ...body,
    ]);
    const read = await readImageMetadata(animated);
    expect(read).toMatchObject({ format: 'webp', width: 8, height: 8, source: 'a1111', problems: [] });
    expect(read.settings.prompt).toBe('a lantern');
  });
});
