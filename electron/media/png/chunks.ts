import { crc32 } from './crc32.js';

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export interface PngChunk {
  type: string;
  data: Uint8Array;
}

export function isPng(bytes: Uint8Array): boolean {
  if (bytes.length < PNG_SIGNATURE.length) return false;
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function readU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

/**
 * Splits a PNG into chunks. Throws on a missing signature or a chunk running past the end; CRCs are not
 * checked here (readers stay tolerant of other tools' files), `writeChunks` always writes correct ones.
 */
export function readChunks(bytes: Uint8Array): PngChunk[] {
  if (!isPng(bytes)) throw new Error('Not a PNG file (bad signature).');
  const chunks: PngChunk[] = [];
  let at = PNG_SIGNATURE.length;
  while (at + 12 <= bytes.length) {
    const length = readU32(bytes, at);
    const type = chunkType(bytes, at + 4);
    const end = at + 12 + length;
    if (end > bytes.length) throw new Error(`PNG chunk ${type} runs past the end of the file.`);
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at = end;
    if (type === 'IEND') break;
  }
  return chunks;
}

/** The stored CRC of each chunk next to the one computed from its bytes (for tests and diagnostics). */
export function chunkCrcs(bytes: Uint8Array): Array<{ type: string; stored: number; computed: number }> {
  const out: Array<{ type: string; stored: number; computed: number }> = [];
  let at = PNG_SIGNATURE.length;
  while (at + 12 <= bytes.length) {
    const length = readU32(bytes, at);
    const type = chunkType(bytes, at + 4);
    const stored = readU32(bytes, at + 8 + length);
    out.push({ type, stored, computed: crc32(bytes.subarray(at + 4, at + 8 + length)) });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return out;
}

export function writeChunks(chunks: readonly PngChunk[]): Uint8Array {
  const total = PNG_SIGNATURE.length + chunks.reduce((sum, c) => sum + 12 + c.data.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(PNG_SIGNATURE, 0);
  let at = PNG_SIGNATURE.length;
  for (const chunk of chunks) {
    if (!/^[A-Za-z]{4}$/.test(chunk.type)) throw new Error(`Invalid PNG chunk type "${chunk.type}".`);
    view.setUint32(at, chunk.data.length);
    for (let i = 0; i < 4; i += 1) out[at + 4 + i] = chunk.type.charCodeAt(i);
    out.set(chunk.data, at + 8);
    view.setUint32(at + 8 + chunk.data.length, crc32(out.subarray(at + 4, at + 8 + chunk.data.length)));
    at += 12 + chunk.data.length;
  }
  return out;
}
