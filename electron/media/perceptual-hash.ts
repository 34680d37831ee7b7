import sharp from 'sharp';

/** Side of the greyscale square the DCT reads: 32 keeps the low frequencies robust to resizing and re-encoding. */
const SIZE = 32;
/** The top-left 8x8 of the DCT: 64 coefficients, one bit each. */
const LOW = 8;

// cos((2x + 1) u π / 2N) for every (u, x), computed once: the DCT is then two small matrix products.
const COS = (() => {
  const table = new Float64Array(LOW * SIZE);
  for (let u = 0; u < LOW; u += 1) {
    for (let x = 0; x < SIZE; x += 1) table[u * SIZE + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE));
  }
  return table;
})();

/** The 8x8 lowest DCT-II coefficients of a 32x32 greyscale square (row-major, [0] is the mean). */
export function lowFrequencies(pixels: Uint8Array | Buffer): Float64Array {
  if (pixels.length !== SIZE * SIZE)
    throw new RangeError(`expected ${SIZE * SIZE} greyscale pixels, got ${pixels.length}`);
  // Rows first: for each pixel row y, its first 8 horizontal frequencies.
  const rows = new Float64Array(SIZE * LOW);
  for (let y = 0; y < SIZE; y += 1) {
    for (let u = 0; u < LOW; u += 1) {
      let sum = 0;
      for (let x = 0; x < SIZE; x += 1) sum += pixels[y * SIZE + x]! * COS[u * SIZE + x]!;
      rows[y * LOW + u] = sum;
    }
  }
  const out = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v += 1) {
    for (let u = 0; u < LOW; u += 1) {
      let sum = 0;
      for (let y = 0; y < SIZE; y += 1) sum += rows[y * LOW + u]! * COS[v * SIZE + y]!;
      out[v * LOW + u] = sum;
    }
  }
  return out;
}

/**
 * The 64-bit hash of 64 low frequencies: bit i (most significant first) is set when coefficient i is above the
 * median of the 63 that are not the mean (the mean says only how bright the image is, and would skew the median).
 */
export function hashOfFrequencies(coefficients: Float64Array): string {
  const sorted = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble += 1) {
    let value = 0;
    for (let bit = 0; bit < 4; bit += 1) {
      const i = nibble * 4 + bit;
      // The mean's own bit says whether the picture is brighter than mid-grey.
      const set = i === 0 ? coefficients[0]! / (SIZE * SIZE) > 127.5 : coefficients[i]! > median;
      value = (value << 1) | (set ? 1 : 0);
    }
    hex += value.toString(16);
  }
  return hex;
}

/**
 * A DCT perceptual hash (pHash) of an encoded image: 16 hex digits. The EXIF orientation is applied first and any
 * transparency is laid on white, so a rotated JPEG and its upright PNG hash alike. Throws when sharp cannot decode it.
 */
export async function perceptualHash(image: Uint8Array): Promise<string> {
  const pixels = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return hashOfFrequencies(lowFrequencies(pixels));
}

const POPCOUNT_M1 = 0x55555555;
const POPCOUNT_M2 = 0x33333333;
const POPCOUNT_M4 = 0x0f0f0f0f;

/** Set bits of a 32-bit value (SWAR: no table, no branches). */
export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & POPCOUNT_M1);
  v = (v & POPCOUNT_M2) + ((v >>> 2) & POPCOUNT_M2);
  v = (v + (v >>> 4)) & POPCOUNT_M4;
  return Math.imul(v, 0x01010101) >>> 24;
}

/** The two 32-bit halves of a 16-hex-digit hash, high first. */
export function hashHalves(hash: string): [number, number] {
  if (!/^[0-9a-f]{16}$/.test(hash)) throw new RangeError(`not a 64-bit hash: ${hash}`);
  return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8), 16)];
}

/** Bits in which two hashes differ, 0 (alike) … 64. */
export function hammingDistance(a: string, b: string): number {
  const [ah, al] = hashHalves(a);
  const [bh, bl] = hashHalves(b);
  return popcount32((ah ^ bh) >>> 0) + popcount32((al ^ bl) >>> 0);
}

/** An image's mean colour (0…255 a channel) and contrast (the spread of its grey, 0…127.5), from the hash's square. */
export interface ColourSignature {
  r: number;
  g: number;
  b: number;
  spread: number;
}

/**
 * The colour the greyscale hash cannot see: the mean of each channel over the same 32x32 square, and how much its grey
 * varies. Throws when sharp cannot decode the image.
 */
export async function colourSignature(image: Uint8Array): Promise<ColourSignature> {
  const pixels = await sharp(image)
    .rotate()
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .resize(SIZE, SIZE, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  const n = SIZE * SIZE;
  let r = 0;
  let g = 0;
  let b = 0;
  let grey = 0;
  let greySquares = 0;
  for (let i = 0; i < n; i += 1) {
    const [pr, pg, pb] = [pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!];
    r += pr;
    g += pg;
    b += pb;
    const y = 0.299 * pr + 0.587 * pg + 0.114 * pb;
    grey += y;
    greySquares += y * y;
  }
  const meanGrey = grey / n;
  return { r: r / n, g: g / n, b: b / n, spread: Math.sqrt(Math.max(0, greySquares / n - meanGrey * meanGrey)) };
}
