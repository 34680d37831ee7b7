import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { MAX_TEXT_CHARS } from './text-cap.js';

/** Decoding pixels is the one costly step: refuse images past this size (about 8K × 8K). */
const MAX_PIXELS = 64 * 1024 * 1024;
const SIGNATURE_BITS = 15 * 8;
const HEADER_BITS = SIGNATURE_BITS + 32;

export interface StealthText {
  text?: string;
  problems: string[];
}

type Mode = 'alpha' | 'rgb';

/** The leftmost `width` columns of the image: the hidden stream runs column by column, so it starts there. */
interface Strip {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

const PER_PIXEL: Record<Mode, number> = { alpha: 1, rgb: 3 };

/** Bit i of the hidden stream; RGB mode packs three bits (R, G, B) per pixel. */
function bitAt(strip: Strip, mode: Mode, i: number): number {
  const perPixel = PER_PIXEL[mode];
  const p = Math.floor(i / perPixel);
  const x = Math.floor(p / strip.height);
  const y = p % strip.height;
  const channel = mode === 'alpha' ? 3 : i % perPixel;
  return strip.data[(y * strip.width + x) * strip.channels + channel]! & 1;
}

function readBytes(strip: Strip, mode: Mode, from: number, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let b = 0; b < count; b += 1) {
    let v = 0;
    for (let k = 0; k < 8; k += 1) v = (v << 1) | bitAt(strip, mode, from + b * 8 + k);
    out[b] = v;
  }
  return out;
}

function readU32(strip: Strip, mode: Mode, from: number): number {
  let v = 0;
  for (let k = 0; k < 32; k += 1) v = v * 2 + bitAt(strip, mode, from + k);
  return v;
}

const SIGNATURES: Record<Mode, { plain: string; gzip: string }> = {
  alpha: { plain: 'stealth_pnginfo', gzip: 'stealth_pngcomp' },
  rgb: { plain: 'stealth_rgbinfo', gzip: 'stealth_rgbcomp' },
};

function columnsFor(bits: number, mode: Mode, height: number): number {
  return Math.ceil(Math.ceil(bits / PER_PIXEL[mode]) / height);
}

async function decodeStrip(bytes: Uint8Array, width: number): Promise<Strip> {
  const image = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'none' });
  const { data, info } = await image
    .extract({ left: 0, top: 0, width, height: (await image.metadata()).height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    channels: info.channels,
  };
}

interface Header {
  mode: Mode;
  gzip: boolean;
  bits: number;
}

function readHeader(strip: Strip, mode: Mode): Header | undefined {
  if (strip.width * strip.height * PER_PIXEL[mode] < HEADER_BITS) return undefined;
  const signature = String.fromCharCode(...readBytes(strip, mode, 0, 15));
  const names = SIGNATURES[mode];
  if (signature !== names.plain && signature !== names.gzip) return undefined;
  return { mode, gzip: signature === names.gzip, bits: readU32(strip, mode, SIGNATURE_BITS) };
}

async function readPayload(
  bytes: Uint8Array,
  header: Header,
  size: { width: number; height: number },
): Promise<StealthText> {
  const columns = columnsFor(HEADER_BITS + header.bits, header.mode, size.height);
  if (header.bits % 8 !== 0 || columns > size.width || header.bits / 8 > MAX_TEXT_CHARS * 4) {
    return {
      problems: [
        `The hidden ${header.mode} settings claim ${header.bits} bits, more than the image holds; they were not read.`,
      ],
    };
  }
  const strip = await decodeStrip(bytes, columns);
  const payload = readBytes(strip, header.mode, HEADER_BITS, header.bits / 8);
  try {
    const body = header.gzip ? gunzipSync(payload, { maxOutputLength: MAX_TEXT_CHARS * 4 }) : payload;
    return { text: new TextDecoder('utf-8').decode(body), problems: [] };
  } catch {
    return { problems: ['The hidden (stealth) settings are damaged and could not be unpacked.'] };
  }
}

async function find(bytes: Uint8Array): Promise<StealthText> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  const size = { width: meta.width, height: meta.height };
  if (!(size.width > 0 && size.height > 0)) return { problems: [] };
  // First only the columns that hold the signature and length: most images hide nothing.
  const strip = await decodeStrip(bytes, Math.min(size.width, columnsFor(HEADER_BITS, 'alpha', size.height)));
  const header = (strip.channels === 4 ? readHeader(strip, 'alpha') : undefined) ?? readHeader(strip, 'rgb');
  return header === undefined ? { problems: [] } : readPayload(bytes, header, size);
}

/**
 * The A1111 "stealth" settings hidden in the lowest bit of the alpha channel (or of RGB): a signature, a 32-bit
 * big-endian bit length, then the text (gzip for the `*comp` signatures). Keeps only the leftmost columns it needs.
 */
export async function readStealth(bytes: Uint8Array): Promise<StealthText> {
  try {
    return await find(bytes);
  } catch (error) {
    return {
      problems: [
        `The pixels could not be decoded to look for hidden settings (${error instanceof Error ? error.message : String(error)}).`,
      ],
    };
  }
}
