import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../../../electron/library/readers/sniff.js';
import { baseJpeg, baseWebp, webpWith } from '../../../fixtures/images/containers.js';
import { makePng } from '../../media/helpers.js';

describe('sniffImage', () => {
  it('reads PNG size from IHDR', async () => {
    expect(sniffImage(await makePng(33, 21))).toEqual({ format: 'png', width: 33, height: 21 });
  });

  it('reads JPEG size from the SOF segment', async () => {
    expect(sniffImage(await baseJpeg(41, 17))).toEqual({ format: 'jpeg', width: 41, height: 17 });
  });

  it('reads WebP size from VP8L, VP8 and VP8X headers', async () => {
    const lossless = await baseWebp(29, 13, true);
    const lossy = await baseWebp(30, 14, false);
    expect(String.fromCharCode(...lossless.subarray(12, 16))).toBe('VP8L');
    expect(String.fromCharCode(...lossy.subarray(12, 16))).toBe('VP8 ');
    expect(sniffImage(lossless)).toEqual({ format: 'webp', width: 29, height: 13 });
    expect(sniffImage(lossy)).toEqual({ format: 'webp', width: 30, height: 14 });
    expect(sniffImage(webpWith(lossless, 29, 13, { xmp: '<x/>' }))).toEqual({ format: 'webp', width: 29, height: 13 });
  });

  it('goes by content, not name, and knows no other format', async () => {
    expect(sniffImage(new Uint8Array())).toEqual({ format: null });
    expect(sniffImage(new TextEncoder().encode('GIF89a....'))).toEqual({ format: null });
    // A PNG cut after its signature is still a PNG, without a size.
    expect(sniffImage((await makePng(8, 8)).subarray(0, 12))).toEqual({ format: 'png' });
  });
});
