/**
 * Cheap per-file metadata splices for the import bench: one encoded base image, many distinct files. Each splice copies
 * the base once (Buffer.concat) instead of re-encoding pixels: PNG text chunks before the first IDAT, a JPEG APP1 Exif
 * segment after SOI, a WebP re-muxed as VP8X with an EXIF chunk.
 */
import { crc32 } from 'node:zlib';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

function u32be(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
}

function u32le(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
}

/** A PNG chunk with its length and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([latin1(type), data]);
  return Buffer.concat([u32be(data.length), typed, u32be(crc32(typed))]);
}

/** tEXt is Latin-1 by the spec; the tools write ASCII JSON (Python's ensure_ascii) or Latin-1 text there. */
export const tEXt = (keyword: string, text: string): Buffer =>
  pngChunk('tEXt', Buffer.concat([latin1(keyword), Buffer.of(0), latin1(text)]));

/** tIME (last modification): lets a PNG with no metadata text still differ from its base by a few bytes. */
export function tIME(at: Date): Buffer {
  const d = Buffer.alloc(7);
  d.writeUInt16BE(at.getUTCFullYear(), 0);
  d.writeUInt8(at.getUTCMonth() + 1, 2);
  d.writeUInt8(at.getUTCDate(), 3);
  d.writeUInt8(at.getUTCHours(), 4);
  d.writeUInt8(at.getUTCMinutes(), 5);
  d.writeUInt8(at.getUTCSeconds(), 6);
  return pngChunk('tIME', d);
}

/** Byte offset of the first IDAT chunk (where PIL and the tools put their text chunks). */
export function firstIdatOffset(png: Buffer): number {
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') return at;
    at += 12 + length;
  }
  throw new Error('base PNG has no IDAT');
}

export function pngWith(png: Buffer, idatAt: number, chunks: Buffer[]): Buffer {
  return Buffer.concat([png.subarray(0, idatAt), ...chunks, png.subarray(idatAt)]);
}

export function jpegWithExif(jpeg: Buffer, exif: Uint8Array): Buffer {
  const payload = Buffer.concat([latin1('Exif\0\0'), exif]);
  if (payload.length + 2 > 0xffff) throw new Error('EXIF too large for one APP1 segment');
  const header = Buffer.of(0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

function riffChunk(fourcc: string, payload: Buffer | Uint8Array): Buffer {
  const parts = [
    latin1(fourcc),
    u32le(payload.length),
    Buffer.from(payload.buffer, payload.byteOffset, payload.length),
  ];
  if (payload.length % 2 === 1) parts.push(Buffer.of(0));
  return Buffer.concat(parts);
}

/** The image chunk of a simple (VP8 / VP8L) WebP as sharp writes one without metadata. */
export interface WebpBase {
  fourcc: string;
  payload: Buffer;
  width: number;
  height: number;
}

export function webpBase(webp: Buffer, width: number, height: number): WebpBase {
  const fourcc = webp.toString('latin1', 12, 16);
  if (fourcc !== 'VP8 ' && fourcc !== 'VP8L')
    throw new Error(`base WebP is ${fourcc}, expected a simple VP8/VP8L file`);
  const n = webp.readUInt32LE(16);
  return { fourcc, payload: webp.subarray(20, 20 + n), width, height };
}

/** An extended WebP with an EXIF chunk after the image, the way libwebp's muxer (and A1111's piexif path) lays it out. */
export function webpWithExif(base: WebpBase, exif: Uint8Array): Buffer {
  const w = base.width - 1;
  const h = base.height - 1;
  const vp8x = Buffer.of(
    0x08,
    0,
    0,
    0,
    w & 0xff,
    (w >> 8) & 0xff,
    (w >> 16) & 0xff,
    h & 0xff,
    (h >> 8) & 0xff,
    (h >> 16) & 0xff,
  );
  const body = Buffer.concat([
    latin1('WEBP'),
    riffChunk('VP8X', vp8x),
    riffChunk(base.fourcc, base.payload),
    riffChunk('EXIF', exif),
  ]);
  return Buffer.concat([latin1('RIFF'), u32le(body.length), body]);
}
