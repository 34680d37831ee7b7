/**
 * The layout of an AVIF (HEIF) file from its top-level `meta` box: the items (iinf), where their bytes are (iloc),
 * the primary item (pitm) and each item's pixel size (the `ispe` property, through iprp → ipco/ipma). Read in one
 * bounded pass; anything out of place is a problem in words, never a throw (isobmff-boxes.ts).
 */

import { ascii, u32be } from './bytes.js';
import {
  BoxCursor,
  boxesIn,
  childrenOf,
  firstBox,
  fullBoxFlags,
  fullBoxVersion,
  type Box,
  type Boxes,
} from './isobmff-boxes.js';

export interface ItemInfo {
  /** The item type: `av01` (an image), `Exif`, `mime` (XMP and other typed data), `grid`… */
  type: string;
  /** A `mime` item's content type (`application/rdf+xml` for XMP). */
  contentType?: string;
}

export interface Extent {
  offset: number;
  /** The extent's length; 0 means "to the end of the file (or of idat)". */
  length: number;
}

export interface ItemLocation {
  /** 0: offsets into the file; 1: offsets into the meta box's idat; 2: into another item (not read here). */
  method: number;
  extents: Extent[];
}

export interface AvifMeta {
  /** The top-level meta and mdat boxes, up to the first box that does not fit. */
  top: Boxes;
  items: Map<number, ItemInfo>;
  locations: Map<number, ItemLocation>;
  primary?: number;
  /** The `ispe` size of each item that has one, and the first `ispe` of the file whatever it belongs to. */
  sizes: Map<number, { width: number; height: number }>;
  firstSize?: { width: number; height: number };
  /** The body of the meta box's `idat`, where method-1 extents point. */
  idat?: { start: number; end: number };
  problems: string[];
}

const MAX_FTYP_BYTES = 1024;
const MAX_PROPERTIES = 0x7fff;

/** The major brand and compatible brands of a leading `ftyp` box, or undefined when the file does not open with one. */
export function ftypBrands(bytes: Uint8Array): string[] | undefined {
  if (ascii(bytes, 4, 4) !== 'ftyp') return undefined;
  // A file cut inside its ftyp box still names its brands; real files list a handful (the cap bounds a lying size).
  const end = Math.min(bytes.length, u32be(bytes, 0)!, MAX_FTYP_BYTES);
  const brands = [ascii(bytes, 8, 4)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
  return brands;
}

function brokenProblem(where: string, broken: NonNullable<Boxes['broken']>, top: boolean): string {
  const type = JSON.stringify(broken.type);
  if (broken.reason === 'bad_size') return `The AVIF ${where} has a box (${type}) whose size cannot be right.`;
  return top
    ? `The file is cut short inside its ${type} box; what came before it was read.`
    : `A box (${type}) runs past the end of the AVIF ${where} that holds it.`;
}

/** Children of a box (of the wanted types, or the first `limit`), telling the problem when one does not fit. */
function children(
  bytes: Uint8Array,
  box: Box,
  skip: number,
  problems: string[],
  wanted?: readonly string[],
  limit?: number,
): Box[] {
  const found = childrenOf(bytes, box, skip, wanted, limit);
  if (found.broken !== undefined) problems.push(brokenProblem(`${JSON.stringify(box.type)} box`, found.broken, false));
  return found.boxes;
}

function readPitm(bytes: Uint8Array, box: Box): number | undefined {
  const cursor = new BoxCursor(bytes, box.body + 4, box.end);
  return cursor.uint(fullBoxVersion(bytes, box) === 0 ? 2 : 4);
}

function readInfe(bytes: Uint8Array, box: Box): { id: number; info: ItemInfo } | undefined {
  const version = fullBoxVersion(bytes, box);
  // Versions 0 and 1 have no item type: AVIF writers use 2 and 3.
  if (version === undefined || version < 2) return undefined;
  const cursor = new BoxCursor(bytes, box.body + 4, box.end);
  const id = cursor.uint(version === 2 ? 2 : 4);
  cursor.uint(2); // item_protection_index
  const type = cursor.fourcc();
  if (id === undefined || type === undefined) return undefined;
  if (type !== 'mime') return { id, info: { type } };
  cursor.cString(); // item_name
  const contentType = cursor.cString();
  return { id, info: contentType === undefined ? { type } : { type, contentType } };
}

function readIinf(bytes: Uint8Array, box: Box, meta: AvifMeta): void {
  const skip = fullBoxVersion(bytes, box) === 0 ? 6 : 8;
  for (const infe of children(bytes, box, skip, meta.problems, ['infe'])) {
    const item = readInfe(bytes, infe);
    if (item !== undefined && !meta.items.has(item.id)) meta.items.set(item.id, item.info);
  }
}

/** iloc: for each item its construction method and extents; each read consumes bytes, so the loops end with the box. */
function readIloc(bytes: Uint8Array, box: Box, meta: AvifMeta): void {
  const version = fullBoxVersion(bytes, box);
  if (version === undefined || version > 2) return;
  const cursor = new BoxCursor(bytes, box.body + 4, box.end);
  const sizes = cursor.uint(1);
  const more = cursor.uint(1);
  const count = cursor.uint(version < 2 ? 2 : 4);
  if (sizes === undefined || more === undefined || count === undefined) return;
  const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
  const indexSize = version === 0 ? 0 : more & 15;
  for (let i = 0; i < count; i += 1) {
    const id = cursor.uint(version < 2 ? 2 : 4);
    const method = version === 0 ? 0 : (cursor.uint(2) ?? 0) & 15;
    cursor.uint(2); // data_reference_index
    const base = cursor.uint(baseSize);
    const extentCount = cursor.uint(2);
    if (id === undefined || base === undefined || extentCount === undefined) {
      meta.problems.push('The AVIF item locations (iloc) end before their last item.');
      return;
    }
    const extents: Extent[] = [];
    // Extents of no bytes at all would let a small box ask for 65535 reads per item: one stands for them all.
    const perExtent = indexSize + offsetSize + lengthSize;
    for (let e = 0; e < (perExtent === 0 ? Math.min(extentCount, 1) : extentCount); e += 1) {
      cursor.uint(indexSize);
      const offset = cursor.uint(offsetSize);
      const length = cursor.uint(lengthSize);
      if (offset === undefined || length === undefined) {
        meta.problems.push('The AVIF item locations (iloc) end before their last extent.');
        return;
      }
      extents.push({ offset: base + offset, length });
    }
    if (!meta.locations.has(id)) meta.locations.set(id, { method, extents });
  }
}

function readIspe(bytes: Uint8Array, box: Box): { width: number; height: number } | undefined {
  const cursor = new BoxCursor(bytes, box.body + 4, box.end);
  const width = cursor.uint(4);
  const height = cursor.uint(4);
  return width !== undefined && height !== undefined && width > 0 && height > 0 ? { width, height } : undefined;
}

/** ipma: each item's properties, by 1-based index into ipco; only `ispe` is kept. */
function readIpma(bytes: Uint8Array, box: Box, properties: Box[], meta: AvifMeta): void {
  const version = fullBoxVersion(bytes, box);
  const wide = ((fullBoxFlags(bytes, box) ?? 0) & 1) === 1;
  const cursor = new BoxCursor(bytes, box.body + 4, box.end);
  const count = cursor.uint(4) ?? 0;
  for (let i = 0; i < count; i += 1) {
    const id = cursor.uint(version === 0 ? 2 : 4);
    const associations = cursor.uint(1);
    if (id === undefined || associations === undefined) return;
    for (let a = 0; a < associations; a += 1) {
      const raw = cursor.uint(wide ? 2 : 1);
      if (raw === undefined) return;
      const property = properties[(wide ? raw & 0x7fff : raw & 0x7f) - 1];
      if (property?.type !== 'ispe' || meta.sizes.has(id)) continue;
      const size = readIspe(bytes, property);
      if (size !== undefined) meta.sizes.set(id, size);
    }
  }
}

function readIprp(bytes: Uint8Array, box: Box, meta: AvifMeta): void {
  const boxes = children(bytes, box, 0, meta.problems, ['ipco', 'ipma']);
  const ipco = firstBox(boxes, 'ipco');
  // ipma's indexes are at most 15 bits: properties past them cannot be any item's.
  const properties = ipco === undefined ? [] : children(bytes, ipco, 0, meta.problems, undefined, MAX_PROPERTIES);
  const ispe = firstBox(properties, 'ispe');
  const first = ispe === undefined ? undefined : readIspe(bytes, ispe);
  if (first !== undefined) meta.firstSize = first;
  const ipma = firstBox(boxes, 'ipma');
  if (ipma !== undefined) readIpma(bytes, ipma, properties, meta);
}

/** The items, locations and sizes of an AVIF file, from its first top-level `meta` box. */
export function readAvifMeta(bytes: Uint8Array): AvifMeta {
  const top = boxesIn(bytes, 0, bytes.length, ['meta', 'mdat']);
  const meta: AvifMeta = { top, items: new Map(), locations: new Map(), sizes: new Map(), problems: [] };
  if (top.broken !== undefined) meta.problems.push(brokenProblem('file', top.broken, true));
  const metaBox = firstBox(top.boxes, 'meta');
  if (metaBox === undefined) {
    meta.problems.push('The AVIF has no readable "meta" box: its items and size are unknown.');
    return meta;
  }
  const boxes = children(bytes, metaBox, 4, meta.problems, ['pitm', 'iinf', 'iloc', 'iprp', 'idat']);
  const pitm = firstBox(boxes, 'pitm');
  const primary = pitm === undefined ? undefined : readPitm(bytes, pitm);
  if (primary !== undefined) meta.primary = primary;
  const iinf = firstBox(boxes, 'iinf');
  if (iinf !== undefined) readIinf(bytes, iinf, meta);
  const iloc = firstBox(boxes, 'iloc');
  if (iloc !== undefined) readIloc(bytes, iloc, meta);
  const iprp = firstBox(boxes, 'iprp');
  if (iprp !== undefined) readIprp(bytes, iprp, meta);
  const idat = firstBox(boxes, 'idat');
  if (idat !== undefined) meta.idat = { start: idat.body, end: idat.end };
  return meta;
}

/** The pixel size of the primary item, else of the first `ispe` in the file. */
export function avifSize(meta: AvifMeta): { width: number; height: number } | undefined {
  return (meta.primary === undefined ? undefined : meta.sizes.get(meta.primary)) ?? meta.firstSize;
}
