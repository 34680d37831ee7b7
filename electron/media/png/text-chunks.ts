import { inflateSync } from 'node:zlib';
import type { PngChunk } from './chunks.js';

export type TextChunkType = 'tEXt' | 'zTXt' | 'iTXt';

export interface PngText {
  keyword: string;
  text: string;
  chunk: TextChunkType;
}

/** A compressed text chunk may not inflate past this: a hostile file cannot make the reader allocate gigabytes. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

const TEXT_TYPES: ReadonlySet<string> = new Set(['tEXt', 'zTXt', 'iTXt']);

/** Each byte as the character of that code (ISO-8859-1); natively, forty times faster than fromCharCode in slices. */
function latin1Decode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function latin1Encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) out[i] = text.charCodeAt(i);
  return out;
}

export function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

function validKeyword(keyword: string): boolean {
  // PNG spec: 1-79 printable Latin-1 characters, no leading/trailing/double spaces.
  return /^[\x20-\x7e\xa1-\xff]{1,79}$/.test(keyword) && !/^ | $| {2}/.test(keyword);
}

/**
 * One text chunk the way PIL's `PngInfo.add_text` writes it: tEXt when the text is Latin-1, otherwise an
 * uncompressed iTXt with empty language and translated keyword.
 */
export function encodeTextChunk(keyword: string, text: string): PngChunk {
  if (!validKeyword(keyword)) throw new Error(`Invalid PNG text keyword "${keyword}".`);
  const key = latin1Encode(keyword);
  if (isLatin1(text)) {
    const body = latin1Encode(text);
    const data = new Uint8Array(key.length + 1 + body.length);
    data.set(key, 0);
    data.set(body, key.length + 1);
    return { type: 'tEXt', data };
  }
  const body = new TextEncoder().encode(text);
  // keyword \0 compression-flag(0) method(0) language "" \0 translated "" \0 text
  const data = new Uint8Array(key.length + 5 + body.length);
  data.set(key, 0);
  data.set(body, key.length + 5);
  return { type: 'iTXt', data };
}

function inflateBounded(bytes: Uint8Array): Uint8Array {
  return inflateSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES });
}

/** Decodes a tEXt, zTXt or iTXt chunk; null for other chunks and for malformed ones (tolerant reader). */
export function decodeTextChunk(chunk: PngChunk): PngText | null {
  if (!TEXT_TYPES.has(chunk.type)) return null;
  const data = chunk.data;
  const nul = data.indexOf(0);
  if (nul <= 0) return null;
  const keyword = latin1Decode(data.subarray(0, nul));
  try {
    if (chunk.type === 'tEXt') {
      return { keyword, text: latin1Decode(data.subarray(nul + 1)), chunk: 'tEXt' };
    }
    if (chunk.type === 'zTXt') {
      if (data[nul + 1] !== 0) return null;
      return { keyword, text: latin1Decode(inflateBounded(data.subarray(nul + 2))), chunk: 'zTXt' };
    }
    const compressed = data[nul + 1] === 1;
    const languageEnd = data.indexOf(0, nul + 3);
    if (languageEnd < 0) return null;
    const translatedEnd = data.indexOf(0, languageEnd + 1);
    if (translatedEnd < 0) return null;
    const raw = data.subarray(translatedEnd + 1);
    const body = compressed ? inflateBounded(raw) : raw;
    return { keyword, text: new TextDecoder('utf-8').decode(body), chunk: 'iTXt' };
  } catch {
    return null;
  }
}

export function readTextChunks(chunks: readonly PngChunk[]): PngText[] {
  const out: PngText[] = [];
  for (const chunk of chunks) {
    const text = decodeTextChunk(chunk);
    if (text !== null) out.push(text);
  }
  return out;
}
