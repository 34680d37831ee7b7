import { u16be } from './bytes.js';

/** How a walk of JPEG segments ended: at the image data, out of step, cut inside a segment, or at the file's end. */
export type JpegWalkEnd = 'scan' | 'out_of_step' | 'cut' | 'ended';

export interface JpegSegment {
  marker: number;
  /** Offset of the segment's 0xFF marker byte. */
  at: number;
  /** The segment's length field (it counts itself, not the marker). */
  length: number;
  /** False for the last segment of a file cut inside it: only what the file holds may be read. */
  complete: boolean;
}

/**
 * Visits each marker segment up to the first scan (SOS) or the end marker, never the compressed image data; the
 * visitor returns true to stop early. Fill bytes and markers without a length (RSTn, TEM) are stepped over.
 */
export function walkJpegSegments(bytes: Uint8Array, visit: (segment: JpegSegment) => boolean | void): JpegWalkEnd {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return 'out_of_step';
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return 'scan';
    const length = u16be(bytes, at + 2)!;
    if (length < 2) return 'out_of_step';
    const end = at + 2 + length;
    const complete = end <= bytes.length;
    if (visit({ marker, at, length, complete }) === true) return 'scan';
    if (!complete) return 'cut';
    at = end;
  }
  return 'ended';
}
