import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import type { MediaFs } from './media-fs.js';

export const MASKS_DIR = 'masks';

const invalid = (message: string): AppError => new AppError('invalid_request', message, { details: { fields: { png: message } } });

/**
 * A mask from the viewer's brush, made canonical: 8-bit grayscale PNG at the source's size, white repaints. Painted
 * strokes on a transparent canvas count by their alpha (drawn over black). Writes masks/ab/<id>.png atomically.
 */
export async function saveMask(input: {
  dataDir: string;
  maskId: string;
  base64: string;
  width: number;
  height: number;
  fs?: MediaFs;
}): Promise<{ path: string; bytes: number; coverage: number }> {
  const text = input.base64.replace(/^data:image\/png;base64,/, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalid('The mask is not base64 PNG data.');
  const raw = Buffer.from(text, 'base64');
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(raw).metadata();
  } catch {
    throw invalid('The mask is not a PNG image.');
  }
  if (meta.format !== 'png') throw invalid(`The mask must be a PNG, not ${meta.format ?? 'this format'}.`);
  if (meta.width !== input.width || meta.height !== input.height) {
    throw invalid(`The mask is ${meta.width}×${meta.height} but its image is ${input.width}×${input.height}: they must match.`);
  }
  const gray = await sharp(raw).flatten({ background: '#000000' }).toColourspace('b-w').raw().toBuffer();
  let painted = 0;
  for (const v of gray) if (v > 127) painted += 1;
  const coverage = painted / (input.width * input.height);
  if (painted === 0) throw invalid('The mask is empty: paint the area to repaint first.');
  const png = await sharp(gray, { raw: { width: input.width, height: input.height, channels: 1 } }).toColourspace('b-w').png().toBuffer();
  const path = `${MASKS_DIR}/${input.maskId.slice(-2)}/${input.maskId}.png`;
  await writeFileAtomic(input.dataDir, path, png, input.fs === undefined ? {} : { fs: input.fs });
  return { path, bytes: png.length, coverage };
}
