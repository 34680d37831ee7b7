import { decodeTextChunk } from '../../media/png/text-chunks.js';
import { ascii, u32be, utf8OrLatin1 } from './bytes.js';
import { MAX_TEXT_CHARS } from './text-cap.js';
import type { RawText } from './types.js';

export interface FoundTexts {
  raw: RawText[];
  problems: string[];
}

const TEXT_TYPES = new Set(['tEXt', 'zTXt', 'iTXt']);

/** Longer chunks are cut before decoding, so a 1 GB tEXt never becomes a 1 GB string (4 bytes per char at most). */
const MAX_CHUNK_BYTES = MAX_TEXT_CHARS * 4 + 80;

/** Cuts at a UTF-8 character boundary, so a cut UTF-8 text still decodes as UTF-8. */
function cutBytes(data: Uint8Array): Uint8Array {
  if (data.length <= MAX_CHUNK_BYTES) return data;
  let end = MAX_CHUNK_BYTES;
  while (end > 0 && (data[end]! & 0xc0) === 0x80) end -= 1;
  return data.subarray(0, end);
}

function decodeText(type: string, data: Uint8Array): RawText | undefined {
  const decoded = decodeTextChunk({ type, data: type === 'tEXt' ? cutBytes(data) : data });
  if (decoded === null) return undefined;
  if (decoded.chunk === 'iTXt') return { key: decoded.keyword, text: decoded.text };
  // tEXt and zTXt are Latin-1 by the spec; many writers put UTF-8 in them, so read it as UTF-8 when valid.
  if (!/[\x80-\xff]/.test(decoded.text)) return { key: decoded.keyword, text: decoded.text };
  // Natively: Uint8Array.from with a callback takes over a second for a 16 MB chunk.
  const bytes = Buffer.from(decoded.text, 'latin1');
  return { key: decoded.keyword, text: utf8OrLatin1(bytes) };
}

/**
 * Every text chunk of a PNG, in any position: before and after IDAT, up to IEND. Walks chunk headers only (IDAT is
 * skipped by its length); unlike `readChunks` it keeps what it found when the file is cut or a length lies.
 */
export function readPngTexts(bytes: Uint8Array): FoundTexts {
  const raw: RawText[] = [];
  const problems: string[] = [];
  let at = 8;
  let ended = false;
  while (at + 8 <= bytes.length) {
    const length = u32be(bytes, at)!;
    const type = ascii(bytes, at + 4, 4);
    const end = at + 12 + length;
    if (end > bytes.length) {
      problems.push(`The file is cut short inside its ${JSON.stringify(type)} chunk; what came before it was read.`);
      ended = true;
      break;
    }
    if (TEXT_TYPES.has(type)) {
      const text = decodeText(type, bytes.subarray(at + 8, at + 8 + length));
      if (text === undefined)
        problems.push(`A ${type} chunk could not be decoded (damaged, or over 16 MB unpacked) and was skipped.`);
      else raw.push(text);
    }
    at = end;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!ended) problems.push('The file ends without an IEND chunk (cut short?).');
  return { raw, problems };
}
