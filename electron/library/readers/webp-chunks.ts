import { ascii, startsWith, u32le, utf8OrLatin1 } from './bytes.js';
import type { EmbeddedMetadata } from './jpeg-segments.js';

const EXIF_HEADER = 'Exif\0\0';

/** The RIFF chunks of a WebP: EXIF (a TIFF block, some writers prefix `Exif\0\0`) and `XMP `; image data is skipped. */
export function readWebpChunks(bytes: Uint8Array): EmbeddedMetadata {
  const out: EmbeddedMetadata = { problems: [] };
  const riffEnd = Math.min(bytes.length, 8 + (u32le(bytes, 4) ?? 0));
  let at = 12;
  while (at + 8 <= riffEnd) {
    const fourcc = ascii(bytes, at, 4);
    const size = u32le(bytes, at + 4)!;
    const end = at + 8 + size;
    if (end > bytes.length) {
      out.problems.push(
        `The file is cut short inside its ${JSON.stringify(fourcc)} chunk; what came before it was read.`,
      );
      return out;
    }
    const body = bytes.subarray(at + 8, end);
    if (fourcc === 'EXIF' && out.exif === undefined)
      out.exif = startsWith(body, EXIF_HEADER) ? body.subarray(EXIF_HEADER.length) : body;
    else if (fourcc === 'XMP ' && out.xmp === undefined) out.xmp = utf8OrLatin1(body);
    // Chunks are padded to an even size.
    at = end + (size % 2);
  }
  if (riffEnd < 8 + (u32le(bytes, 4) ?? 0))
    out.problems.push('The WebP is shorter than its RIFF header says (cut short?).');
  return out;
}
