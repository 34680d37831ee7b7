/**
 * ISO base media file format boxes (ISO/IEC 14496-12), as AVIF and HEIF files are built: each box is a 32-bit size
 * and a four-character type, then its body. Every read is bounds-checked and every walk moves forward by at least a
 * box header, so a lying or hostile file ends in linear time with a problem in words, never a throw.
 */

import { ascii, u16be, u32be } from './bytes.js';

export interface Box {
  type: string;
  /** Where the box starts (its size field). */
  at: number;
  /** Where its body starts, after the header (and, for a full box, not yet past version and flags). */
  body: number;
  /** Where it ends: at most the end of what holds it. */
  end: number;
}

export interface Boxes {
  boxes: Box[];
  /** The box that runs past the end of what holds it, or is not a box at all; the boxes before it were kept. */
  broken?: { type: string; at: number; reason: 'past_end' | 'bad_size' };
}

/** 2^32 as a multiplier: 64-bit sizes are read as two halves (anything past 2^53 is past any file's end anyway). */
const HIGH = 4_294_967_296;

/** An unsigned big-endian integer of 0, 1, 2, 4 or 8 bytes at `at`, or undefined past the end. */
export function uintBe(bytes: Uint8Array, at: number, size: number): number | undefined {
  if (size === 0) return 0;
  if (size === 1) return at >= 0 && at < bytes.length ? bytes[at] : undefined;
  if (size === 2) return u16be(bytes, at);
  if (size === 4) return u32be(bytes, at);
  if (size !== 8) return undefined;
  const high = u32be(bytes, at);
  const low = u32be(bytes, at + 4);
  return high === undefined || low === undefined ? undefined : high * HIGH + low;
}

/** A four-character code as the number its bytes spell, to compare types without making strings. */
function codeOf(type: string): number {
  return (
    ((type.charCodeAt(0) << 24) | (type.charCodeAt(1) << 16) | (type.charCodeAt(2) << 8) | type.charCodeAt(3)) >>> 0
  );
}

/**
 * The boxes laid side by side in bytes[from, to), up to the first that does not fit (`broken` says which). With
 * `wanted`, only boxes of those types are kept (the walk still checks every box); without it, the first `limit`.
 */
export function boxesIn(
  bytes: Uint8Array,
  from: number,
  to: number,
  wanted?: readonly string[],
  limit = Number.POSITIVE_INFINITY,
): Boxes {
  const codes = wanted?.map(codeOf);
  const boxes: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    const size = u32be(bytes, at)!;
    const code = u32be(bytes, at + 4)!;
    const keep = codes === undefined ? boxes.length < limit : codes.includes(code);
    const type = keep ? ascii(bytes, at + 4, 4) : '';
    let body = at + 8;
    let end = at + size;
    if (size === 1) {
      // A 64-bit size follows the type.
      const large = at + 16 <= to ? uintBe(bytes, at + 8, 8) : undefined;
      if (large === undefined) return { boxes, broken: { type: ascii(bytes, at + 4, 4), at, reason: 'past_end' } };
      body = at + 16;
      end = at + large;
    } else if (size === 0) end = to; // The box runs to the end of what holds it.
    if (end < body) return { boxes, broken: { type: ascii(bytes, at + 4, 4), at, reason: 'bad_size' } };
    if (end > to) return { boxes, broken: { type: ascii(bytes, at + 4, 4), at, reason: 'past_end' } };
    if (keep) boxes.push({ type, at, body, end });
    at = end;
  }
  return { boxes };
}

/** The first box of a type among `boxes`. */
export function firstBox(boxes: readonly Box[], type: string): Box | undefined {
  return boxes.find((box) => box.type === type);
}

/** A full box's version (the byte after its header); its flags are the next three bytes. */
export function fullBoxVersion(bytes: Uint8Array, box: Box): number | undefined {
  return box.body + 4 <= box.end ? bytes[box.body] : undefined;
}

/** A full box's 24-bit flags. */
export function fullBoxFlags(bytes: Uint8Array, box: Box): number | undefined {
  if (box.body + 4 > box.end) return undefined;
  return (bytes[box.body + 1]! << 16) | (bytes[box.body + 2]! << 8) | bytes[box.body + 3]!;
}

/** The children of a container box, after `skip` bytes of its own fields (4 for a full box's version and flags). */
export function childrenOf(
  bytes: Uint8Array,
  box: Box,
  skip: number,
  wanted?: readonly string[],
  limit?: number,
): Boxes {
  return boxesIn(bytes, Math.min(box.body + skip, box.end), box.end, wanted, limit);
}

/** Reads fields in order from one box's body; every read past the box's end answers undefined. */
export class BoxCursor {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
    private readonly end: number,
  ) {}

  /** An unsigned big-endian integer of 0, 1, 2, 4 or 8 bytes. */
  uint(size: number): number | undefined {
    if (this.at + size > this.end) return undefined;
    const value = uintBe(this.bytes, this.at, size);
    this.at += size;
    return value;
  }

  /** A four-character code. */
  fourcc(): string | undefined {
    if (this.at + 4 > this.end) return undefined;
    const value = ascii(this.bytes, this.at, 4);
    this.at += 4;
    return value;
  }

  /** A NUL-terminated string of at most `max` characters (its NUL read too); undefined when no NUL ends it in time. */
  cString(max = 255): string | undefined {
    const nul = this.bytes.subarray(this.at, Math.min(this.end, this.at + max + 1)).indexOf(0);
    if (nul < 0) return undefined;
    const value = ascii(this.bytes, this.at, nul);
    this.at += nul + 1;
    return value;
  }
}
