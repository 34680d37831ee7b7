import { utf8OrLatin1 } from './bytes.js';

/** EXIF UserComment (0x9286): an 8-byte character-code prefix, then the text. */
const UNICODE = 'UNICODE\0';
const ASCII = 'ASCII\0\0\0';
const JIS = 'JIS\0\0\0\0\0';

function prefixIs(bytes: Uint8Array, prefix: string): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i += 1) if (bytes[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/**
 * piexif (A1111) writes big-endian UTF-16, other tools little-endian, mostly without a BOM: the side that holds the
 * zero high bytes of ASCII characters tells which.
 */
function utf16Endian(body: Uint8Array): 'utf-16be' | 'utf-16le' {
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  let evenZeros = 0;
  let oddZeros = 0;
  const end = Math.min(body.length, 4096);
  for (let i = 0; i + 1 < end; i += 2) {
    if (body[i] === 0) evenZeros += 1;
    if (body[i + 1] === 0) oddZeros += 1;
  }
  return evenZeros > oddZeros ? 'utf-16be' : 'utf-16le';
}

function decodeUtf16(body: Uint8Array): string {
  const endian = utf16Endian(body);
  const even = body.subarray(0, body.length - (body.length % 2));
  return new TextDecoder(endian).decode(even).replace(/^\ufeff/, '');
}

function decodeJis(body: Uint8Array): string {
  try {
    return new TextDecoder('shift_jis').decode(body);
  } catch {
    return utf8OrLatin1(body);
  }
}

/** Without its trailing NULs, counted from the end: `/\0+$/` retries every start in a long run of NULs, quadratic. */
export function trimTrailingNuls(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** The text of a UserComment, whichever character code it declares; plain bytes (no prefix) as UTF-8 or Latin-1. */
export function decodeUserComment(bytes: Uint8Array): string {
  let text: string;
  if (prefixIs(bytes, UNICODE)) text = decodeUtf16(bytes.subarray(8));
  else if (prefixIs(bytes, ASCII) || prefixIs(bytes, '\0\0\0\0\0\0\0\0')) text = utf8OrLatin1(bytes.subarray(8));
  else if (prefixIs(bytes, JIS)) text = decodeJis(bytes.subarray(8));
  else text = utf8OrLatin1(bytes);
  return trimTrailingNuls(text);
}
