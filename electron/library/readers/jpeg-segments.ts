import { startsWith, utf8OrLatin1 } from './bytes.js';
import { iptcCaption } from './iptc.js';
import { walkJpegSegments } from './jpeg-walk.js';

export interface EmbeddedMetadata {
  /** TIFF bytes of the EXIF block (after any `Exif\0\0` header). */
  exif?: Uint8Array;
  xmp?: string;
  /** The IPTC caption (2:120) of a Photoshop APP13 segment. */
  iptcCaption?: string;
  problems: string[];
}

const EXIF_HEADER = 'Exif\0\0';
const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';

/** JPEG APP1 and APP13 segments up to the first scan (SOS): EXIF, XMP, IPTC; never the compressed image data. */
export function readJpegSegments(bytes: Uint8Array): EmbeddedMetadata {
  const out: EmbeddedMetadata = { problems: [] };
  const end = walkJpegSegments(bytes, ({ marker, at, length, complete }) => {
    if (!complete || (marker !== 0xe1 && marker !== 0xed)) return;
    const body = bytes.subarray(at + 4, at + 2 + length);
    if (marker === 0xed) {
      const caption = out.iptcCaption === undefined ? iptcCaption(body) : undefined;
      if (caption !== undefined) out.iptcCaption = caption;
      return;
    }
    if (out.exif === undefined && startsWith(body, EXIF_HEADER)) out.exif = body.subarray(EXIF_HEADER.length);
    else if (out.xmp === undefined && startsWith(body, XMP_HEADER))
      out.xmp = utf8OrLatin1(body.subarray(XMP_HEADER.length));
  });
  if (end === 'out_of_step')
    out.problems.push('The JPEG segments are out of step before the image data; the rest was not read.');
  if (end === 'cut') out.problems.push('The file is cut short inside a JPEG segment; what came before it was read.');
  if (end === 'ended') out.problems.push('The JPEG ends before its image data (cut short?).');
  return out;
}
