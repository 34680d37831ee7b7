/**
 * The metadata items of an AVIF file: the `Exif` item (a 4-byte offset to the TIFF header, then the block, as
 * A1111/Forge and libheif write it) and the `mime` item of type `application/rdf+xml` (XMP). Pixels are never read.
 */

import { readAvifMeta, type AvifMeta, type ItemLocation } from './avif-meta.js';
import { startsWith, u32be, utf8OrLatin1 } from './bytes.js';
import type { EmbeddedMetadata } from './jpeg-segments.js';

const XMP_TYPE = 'application/rdf+xml';
const EXIF_HEADER = 'Exif\0\0';

/** The file range each extent of an item covers, or a problem when one lies outside the file (or its idat). */
export function itemRanges(
  bytes: Uint8Array,
  meta: AvifMeta,
  location: ItemLocation,
): Array<{ start: number; end: number }> | string {
  const space = location.method === 0 ? { start: 0, end: bytes.length } : location.method === 1 ? meta.idat : undefined;
  if (space === undefined) return 'is stored in a way Atelier does not read';
  const ranges: Array<{ start: number; end: number }> = [];
  for (const extent of location.extents) {
    const start = space.start + extent.offset;
    const end = extent.length === 0 ? space.end : start + extent.length;
    if (start > space.end || end > space.end) return 'lies past the end of the file (cut short?)';
    ranges.push({ start, end });
  }
  return ranges;
}

/** An item's bytes, its extents joined; never more than the file holds (overlapping extents could ask for more). */
function itemBytes(
  bytes: Uint8Array,
  meta: AvifMeta,
  id: number,
  name: string,
  problems: string[],
): Uint8Array | undefined {
  const location = meta.locations.get(id);
  if (location === undefined) {
    problems.push(`The AVIF ${name} item has no location.`);
    return undefined;
  }
  const ranges = itemRanges(bytes, meta, location);
  if (typeof ranges === 'string') {
    problems.push(`The AVIF ${name} item ${ranges}.`);
    return undefined;
  }
  if (ranges.length === 1) return bytes.subarray(ranges[0]!.start, ranges[0]!.end);
  const total = ranges.reduce((n, r) => n + (r.end - r.start), 0);
  if (total > bytes.length) {
    problems.push(`The AVIF ${name} item claims more bytes than the file holds.`);
    return undefined;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const range of ranges) {
    out.set(bytes.subarray(range.start, range.end), at);
    at += range.end - range.start;
  }
  return out;
}

/** The TIFF block of an Exif item: after its offset field and the offset; a stray `Exif\0\0` header is skipped too. */
function tiffOf(item: Uint8Array, problems: string[]): Uint8Array | undefined {
  const offset = u32be(item, 0);
  if (offset === undefined || 4 + offset >= item.length) {
    problems.push('The AVIF Exif item is too short for its own TIFF offset.');
    return undefined;
  }
  const tiff = item.subarray(4 + offset);
  return startsWith(tiff, EXIF_HEADER) ? tiff.subarray(EXIF_HEADER.length) : tiff;
}

function firstItem(
  meta: AvifMeta,
  wanted: (type: string, contentType: string | undefined) => boolean,
): number | undefined {
  for (const [id, info] of meta.items) if (wanted(info.type, info.contentType)) return id;
  return undefined;
}

/** The EXIF and XMP an AVIF file carries, and what in its boxes could not be read. */
export function readAvifItems(bytes: Uint8Array): EmbeddedMetadata {
  const meta = readAvifMeta(bytes);
  const out: EmbeddedMetadata = { problems: meta.problems };
  const exifId = firstItem(meta, (type) => type === 'Exif');
  const exif = exifId === undefined ? undefined : itemBytes(bytes, meta, exifId, 'Exif', out.problems);
  const tiff = exif === undefined ? undefined : tiffOf(exif, out.problems);
  if (tiff !== undefined) out.exif = tiff;
  const xmpId = firstItem(meta, (type, contentType) => type === 'mime' && contentType?.trim() === XMP_TYPE);
  const xmp = xmpId === undefined ? undefined : itemBytes(bytes, meta, xmpId, 'XMP', out.problems);
  if (xmp !== undefined) out.xmp = utf8OrLatin1(xmp);
  return out;
}
