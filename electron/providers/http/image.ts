import type { EncodedImage } from '../types.js';
import { type CallScope, malformedError } from './errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes standard, padded RFC 4648 base64 strictly (Buffer.from silently skips junk, which would turn a corrupt reply
 * into a corrupt image on disk). Line breaks are tolerated; anything else outside the alphabet is an error.
 */
export function decodeBase64(text: string, scope: CallScope, what: string): Buffer {
  const clean = text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, '') : text;
  if (clean.length === 0 || clean.length % 4 !== 0 || !BASE64.test(clean)) {
    throw malformedError(scope, `invalid base64 in ${what}`, { length: text.length });
  }
  return Buffer.from(clean, 'base64');
}

/** Splits `data:image/png;base64,...` into mime and bytes; bare base64 is accepted too. */
export function decodeDataUri(text: string, scope: CallScope, what: string): { mime?: string; data: Buffer } {
  const match = /^data:([^;,]+)?(;base64)?,/.exec(text.slice(0, 200));
  if (match === null) return { data: decodeBase64(text, scope, what) };
  const mime = match[1];
  const payload = text.slice(match[0].length);
  if (match[2] === undefined) throw malformedError(scope, `a data URI that is not base64 in ${what}`);
  const data = decodeBase64(payload, scope, what);
  return mime === undefined ? { data } : { mime, data };
}

export interface SniffedImage {
  mime: string;
  width?: number;
  height?: number;
}

/** Recognises PNG, JPEG, WebP and GIF by their magic bytes; PNG and GIF also give their size. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  const b = bytes;
  if (
    b.length >= 24 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { mime: 'image/png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { mime: 'image/jpeg' };
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return { mime: 'image/webp' };
  if (b.length >= 10 && ascii(b, 0, 4) === 'GIF8') {
    return { mime: 'image/gif', width: b[6]! | (b[7]! << 8), height: b[8]! | (b[9]! << 8) };
  }
  return null;
}

/** Bytes that must be an image; anything else (HTML error page, truncated data) is a provider_error. */
export function toImage(bytes: Uint8Array, scope: CallScope, what: string): EncodedImage {
  const sniffed = sniffImage(bytes);
  if (sniffed === null)
    throw malformedError(scope, `${what} that is not a PNG, JPEG, WebP or GIF image`, { bytes: bytes.byteLength });
  const image: EncodedImage = { data: bytes, mime: sniffed.mime };
  if (sniffed.width !== undefined) image.width = sniffed.width;
  if (sniffed.height !== undefined) image.height = sniffed.height;
  return image;
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}
