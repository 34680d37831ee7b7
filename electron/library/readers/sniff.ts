import type { ImageFormat } from './types.js';
import { ascii, startsWith, u16be, u16le, u24le, u32be, u32le } from './bytes.js';
import { avifSize, ftypBrands, readAvifMeta } from './avif-meta.js';
import { walkJpegSegments } from './jpeg-walk.js';

export interface Sniffed {
  format: ImageFormat | null;
  width?: number;
  height?: number;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 8 && PNG_MAGIC.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (startsWith(bytes, 'RIFF') && startsWith(bytes, 'WEBP', 8)) return 'webp';
  // AVIF is an ISOBMFF file whose ftyp names `avif` (a still) or `avis` (a sequence) as its major or compatible brand.
  if (ftypBrands(bytes)?.some((brand) => brand === 'avif' || brand === 'avis')) return 'avif';
  return null;
}

function sized(format: ImageFormat, width: number | undefined, height: number | undefined): Sniffed {
  return width !== undefined && height !== undefined && width > 0 && height > 0
    ? { format, width, height }
    : { format };
}

function pngSize(bytes: Uint8Array): Sniffed {
  if (ascii(bytes, 12, 4) !== 'IHDR') return { format: 'png' };
  return sized('png', u32be(bytes, 16), u32be(bytes, 20));
}

/** SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Uint8Array): Sniffed {
  let size: Sniffed = { format: 'jpeg' };
  walkJpegSegments(bytes, ({ marker, at }) => {
    if (!isStartOfFrame(marker)) return false;
    size = sized('jpeg', u16be(bytes, at + 7), u16be(bytes, at + 5));
    return true;
  });
  return size;
}

function webpSize(bytes: Uint8Array): Sniffed {
  const fourcc = ascii(bytes, 12, 4);
  const body = 20;
  if (fourcc === 'VP8X') {
    const w = u24le(bytes, body + 4);
    const h = u24le(bytes, body + 7);
    return sized('webp', w === undefined ? w : w + 1, h === undefined ? h : h + 1);
  }
  if (fourcc === 'VP8 ') {
    // Key frame: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height (top 2 bits: scale).
    if (bytes[body + 3] !== 0x9d || bytes[body + 4] !== 0x01 || bytes[body + 5] !== 0x2a) return { format: 'webp' };
    const w = u16le(bytes, body + 6);
    const h = u16le(bytes, body + 8);
    return sized('webp', w === undefined ? w : w & 0x3fff, h === undefined ? h : h & 0x3fff);
  }
  if (fourcc === 'VP8L') {
    if (bytes[body] !== 0x2f) return { format: 'webp' };
    const bits = u32le(bytes, body + 1);
    if (bits === undefined) return { format: 'webp' };
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  return { format: 'webp' };
}

function avifSniffed(bytes: Uint8Array): Sniffed {
  const size = avifSize(readAvifMeta(bytes));
  return sized('avif', size?.width, size?.height);
}

/** The format by magic bytes (never the extension) and the pixel size from the container header, without decoding. */
export function sniffImage(bytes: Uint8Array): Sniffed {
  const format = sniffFormat(bytes);
  if (format === 'png') return pngSize(bytes);
  if (format === 'jpeg') return jpegSize(bytes);
  if (format === 'webp') return webpSize(bytes);
  if (format === 'avif') return avifSniffed(bytes);
  return { format: null };
}
