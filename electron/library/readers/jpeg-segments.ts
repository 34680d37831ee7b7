import { startsWith, u16be, utf8OrLatin1 } from './bytes.js';

export interface EmbeddedMetadata {
  /** TIFF bytes of the EXIF block (after any `Exif\0\0` header). */
  exif?: Uint8Array;
  xmp?: string;
  problems: string[];
}

const EXIF_HEADER = 'Exif\0\0';
const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';

/** JPEG APP1 segments up to the first scan (SOS): EXIF and XMP, never the compressed image data. */
export function readJpegSegments(bytes: Uint8Array): EmbeddedMetadata {
  const out: EmbeddedMetadata = { problems: [] };
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) {
      out.problems.push('The JPEG segments are out of step before the image data; the rest was not read.');
      return out;
    }
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return out;
    const length = u16be(bytes, at + 2)!;
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) {
      out.problems.push('The file is cut short inside a JPEG segment; what came before it was read.');
      return out;
    }
    const body = bytes.subarray(at + 4, end);
    if (marker === 0xe1 && out.exif === undefined && startsWith(body, EXIF_HEADER)) out.exif = body.subarray(EXIF_HEADER.length);
    else if (marker === 0xe1 && out.xmp === undefined && startsWith(body, XMP_HEADER)) out.xmp = utf8OrLatin1(body.subarray(XMP_HEADER.length));
    at = end;
  }
  out.problems.push('The JPEG ends before its image data (cut short?).');
  return out;
}
