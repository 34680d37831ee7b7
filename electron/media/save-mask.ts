import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import type { MediaFs } from './media-fs.js';

export const MASKS_DIR = 'masks';
/** The largest mask read (a 16384² image's): past it libvips would be asked for gigabytes. */
export const MAX_MASK_PIXELS = 16384 * 16384;
/** Base64 checked and decoded this many characters at a time (a multiple of 4), the event loop turning between. */
const BASE64_CHUNK = 1 << 20;
const BASE64_BODY = /^[A-Za-z0-9+/]*$/;
const BASE64_END = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const DAMAGED = 'The mask PNG is cut short or damaged: its pixels cannot be read.';
const invalid = (message: string): AppError =>
  new AppError('invalid_request', message, { details: { fields: { png: message } } });
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Up to 32 MB of base64 decoded in slices: never one long block of the main thread. */
async function fromBase64(text: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let at = 0; at < text.length; at += BASE64_CHUNK) {
    const last = at + BASE64_CHUNK >= text.length;
    const piece = text.slice(at, at + BASE64_CHUNK);
    if (!(last ? BASE64_END : BASE64_BODY).test(piece)) throw invalid('The mask is not base64 PNG data.');
    parts.push(Buffer.from(piece, 'base64'));
    if (!last) await yieldToLoop();
  }
  return Buffer.concat(parts);
}

/** Width and height from the PNG's IHDR, read before any decoding; null when the bytes do not start as a PNG does. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * A mask from the viewer's brush, made canonical: 8-bit grayscale PNG at the source's size, white repaints. Painted
 * strokes on a transparent canvas count by their alpha (drawn over black). Writes masks/ab/<id>.png atomically.
 * Its size is checked from the header first; every pixel operation runs in libvips' threads, off the main thread.
 */
export async function saveMask(input: {
  dataDir: string;
  maskId: string;
  base64: string;
  width: number;
  height: number;
  fs?: MediaFs;
}): Promise<{ path: string; bytes: number; coverage: number }> {
  const raw = await fromBase64(input.base64.replace(/^data:image\/png;base64,/, ''));
  const size = pngSize(raw);
  if (size === null) throw invalid('The mask is not a PNG image.');
  const { width, height } = size;
  if (width === 0 || height === 0) throw invalid('The mask PNG is damaged: its header gives it no pixels.');
  if (width * height > MAX_MASK_PIXELS) {
    throw invalid(
      `The mask is ${width}×${height} pixels: a mask is at most ${Math.round(MAX_MASK_PIXELS / 1e6)} megapixels (16384×16384).`,
    );
  }
  if (width !== input.width || height !== input.height) {
    throw invalid(`The mask is ${width}×${height} but its image is ${input.width}×${input.height}: they must match.`);
  }
  const options = { limitInputPixels: MAX_MASK_PIXELS };
  let png: Buffer;
  let mean: number;
  try {
    png = await sharp(raw, options).flatten({ background: '#000000' }).toColourspace('b-w').png().toBuffer();
    // The share of pixels above half grey, as the mean of the mask thresholded to 0 and 255.
    mean = (await sharp(png, options).threshold(128, { grayscale: false }).stats()).channels[0]!.mean;
  } catch (error) {
    throw new AppError('invalid_request', DAMAGED, { details: { fields: { png: DAMAGED } }, cause: error });
  }
  const pixels = width * height;
  const painted = Math.round((mean * pixels) / 255);
  if (painted === 0) throw invalid('The mask is empty: paint the area to repaint first.');
  const path = `${MASKS_DIR}/${input.maskId.slice(-2)}/${input.maskId}.png`;
  await writeFileAtomic(input.dataDir, path, png, input.fs === undefined ? {} : { fs: input.fs });
  return { path, bytes: png.length, coverage: painted / pixels };
}
