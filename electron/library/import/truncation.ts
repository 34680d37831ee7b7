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

/** Why a file that starts like an image ends before the image does, or null when it is whole. */
export function truncation(bytes: Uint8Array, format: ImageFormat): string | null {
  const whole = format === 'png' ? endsWithIend(bytes) : format === 'jpeg' ? jpegEnds(bytes) : webpComplete(bytes);
  return whole ? null : 'The file is cut short (it ends before the image does): was it still being written or copied?';
}
