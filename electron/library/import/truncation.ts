import { readAvifMeta } from '../readers/avif-meta.js';
import { itemRanges } from '../readers/avif-items.js';
import type { ImageFormat } from '../readers/types.js';

const PNG_IEND = [0x49, 0x45, 0x4e, 0x44];

function endsWithIend(bytes: Uint8Array): boolean {
  // IEND is the last chunk: 4-byte length, "IEND", 4-byte CRC. Anything after it (some tools append text) is allowed.
  for (let at = bytes.length - 8; at >= Math.max(8, bytes.length - 65_536); at -= 1) {
    if (PNG_IEND.every((b, i) => bytes[at + i] === b)) return true;
  }
  return false;
}

function jpegEnds(bytes: Uint8Array): boolean {
  // FF D9 closes the image; trailing bytes after it (a second embedded image, padding) are common and allowed.
  for (let at = bytes.length - 2; at >= Math.max(2, bytes.length - 65_536); at -= 1) {
    if (bytes[at] === 0xff && bytes[at + 1] === 0xd9) return true;
  }
  return false;
}

function webpComplete(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const riffSize = (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24)) >>> 0;
  return riffSize + 8 <= bytes.length;
}

/** Every top-level box (the mdat of the pixels among them) and every item's bytes lie inside the file. */
function avifComplete(bytes: Uint8Array): boolean {
  const meta = readAvifMeta(bytes);
  if (meta.top.broken?.reason === 'past_end') return false;
  for (const location of meta.locations.values()) {
    // Items inside another item (method 2), or in an idat the meta box lacks, are damage of another kind.
    const checked = location.method === 0 || (location.method === 1 && meta.idat !== undefined);
    if (checked && typeof itemRanges(bytes, meta, location) === 'string') return false;
  }
  return true;
}

const COMPLETE: Record<ImageFormat, (bytes: Uint8Array) => boolean> = {
  png: endsWithIend,
  jpeg: jpegEnds,
  webp: webpComplete,
  avif: avifComplete,
};

/** Why a file that starts like an image ends before the image does, or null when it is whole. */
export function truncation(bytes: Uint8Array, format: ImageFormat): string | null {
  return COMPLETE[format](bytes)
    ? null
    : 'The file is cut short (it ends before the image does): was it still being written or copied?';
}
