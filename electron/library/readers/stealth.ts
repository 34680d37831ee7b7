import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { MAX_TEXT_CHARS } from './text-cap.js';

/** Decoding pixels is the one costly step: refuse images past this size (about 8K × 8K). */
const MAX_PIXELS = 64 * 1024 * 1024;
const SIGNATURE_BITS = 15 * 8;

export interface StealthText {
  text?: string;
  problems: string[];
}

type Mode = 'alpha' | 'rgb';

interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Bit i of the hidden stream: pixels are taken column by column; RGB mode packs three bits (R, G, B) per pixel. */
function bitReader(px: Pixels, mode: Mode): { capacity: number; bit: (i: number) => number } {
  const perPixel = mode === 'alpha' ? 1 : 3;
  return {
    capacity: px.width * px.height * perPixel,
    bit(i) {
      const p = Math.floor(i / perPixel);
      const x = Math.floor(p / px.height);
      const y = p % px.height;
      const channel = mode === 'alpha' ? 3 : i % perPixel;
      return px.data[(y * px.width + x) * px.channels + channel]! & 1;
    },
  };
}

function readBytes(bit: (i: number) => number, from: number, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let b = 0; b < count; b += 1) {
    let v = 0;
    for (let k = 0; k < 8; k += 1) v = (v << 1) | bit(from + b * 8 + k);
    out[b] = v;
  }
  return out;
}

function readU32(bit: (i: number) => number, from: number): number {
  let v = 0;
  for (let k = 0; k < 32; k += 1) v = v * 2 + bit(from + k);
  return v;
}

const SIGNATURES: Record<Mode, { plain: string; gzip: string }> = {
  alpha: { plain: 'stealth_pnginfo', gzip: 'stealth_pngcomp' },
  rgb: { plain: 'stealth_rgbinfo', gzip: 'stealth_rgbcomp' },
};

function decodePayload(payload: Uint8Array, gzip: boolean): string {
  const bytes = gzip ? gunzipSync(payload, { maxOutputLength: MAX_TEXT_CHARS * 4 }) : payload;
  return new TextDecoder('utf-8').decode(bytes);
}

function readMode(px: Pixels, mode: Mode): StealthText | undefined {
  const { capacity, bit } = bitReader(px, mode);
  if (capacity < SIGNATURE_BITS + 32) return undefined;
  const signature = String.fromCharCode(...readBytes(bit, 0, 15));
  const names = SIGNATURES[mode];
  if (signature !== names.plain && signature !== names.gzip) return undefined;
  const bits = readU32(bit, SIGNATURE_BITS);
  const start = SIGNATURE_BITS + 32;
  if (bits % 8 !== 0 || bits > capacity - start || bits / 8 > MAX_TEXT_CHARS * 4) {
    return { problems: [`The hidden ${mode} settings claim ${bits} bits, more than the image holds; they were not read.`] };
  }
  try {
    return { text: decodePayload(readBytes(bit, start, bits / 8), signature === names.gzip), problems: [] };
  } catch {
    return { problems: ['The hidden (stealth) settings are damaged and could not be unpacked.'] };
  }
}

async function rawPixels(bytes: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'none' }).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: info.channels };
}

/**
 * The A1111 "stealth" settings hidden in the lowest bit of the alpha channel (or of RGB): a signature, a 32-bit
 * big-endian bit length, then the text (gzip for the `*comp` signatures). Only reads as many pixels as the data needs.
 */
export async function readStealth(bytes: Uint8Array): Promise<StealthText> {
  let px: Pixels;
  try {
    px = await rawPixels(bytes);
  } catch (error) {
    return { problems: [`The pixels could not be decoded to look for hidden settings (${error instanceof Error ? error.message : String(error)}).`] };
  }
  const alpha = px.channels === 4 ? readMode(px, 'alpha') : undefined;
  return alpha ?? readMode(px, 'rgb') ?? { problems: [] };
}
