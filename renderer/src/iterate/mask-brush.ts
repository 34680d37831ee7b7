/**
 * The mask a person paints over an image: one byte per source pixel (255 repaint, 0 keep), kept at the source's
 * resolution however small it is shown, with an undo stack and an 8-bit grayscale PNG encoder. Pure: no DOM.
 */

export interface Mask {
  readonly width: number;
  readonly height: number;
  /** Row-major, one byte per pixel: 255 repaint, 0 keep. */
  data: Uint8Array;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function createMask(width: number, height: number): Mask {
  return { width, height, data: new Uint8Array(width * height) };
}

/** Paints (or with `erase`, clears) a round stamp of `radius` source pixels at (cx, cy); returns the touched area. */
export function stamp(mask: Mask, cx: number, cy: number, radius: number, erase: boolean): Rect | null {
  const r = Math.max(0.5, radius);
  const x0 = Math.max(0, Math.floor(cx - r));
  const x1 = Math.min(mask.width - 1, Math.ceil(cx + r));
  const y0 = Math.max(0, Math.floor(cy - r));
  const y1 = Math.min(mask.height - 1, Math.ceil(cy + r));
  if (x0 > x1 || y0 > y1) return null;
  const value = erase ? 0 : 255;
  const r2 = r * r;
  for (let y = y0; y <= y1; y++) {
    // Pixel centres: a 1-pixel brush at (3.5, 3.5) paints exactly pixel (3, 3).
    const dy = y + 0.5 - cy;
    const row = y * mask.width;
    for (let x = x0; x <= x1; x++) {
      const dx = x + 0.5 - cx;
      if (dx * dx + dy * dy <= r2) mask.data[row + x] = value;
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** A stroke segment from one pointer position to the next: stamps close enough that a fast drag leaves no gaps. */
export function strokeLine(
  mask: Mask,
  from: { x: number; y: number },
  to: { x: number; y: number },
  radius: number,
  erase: boolean,
): Rect | null {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const spacing = Math.max(0.5, radius / 3);
  const steps = Math.max(1, Math.ceil(distance / spacing));
  let dirty: Rect | null = null;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    dirty = union(dirty, stamp(mask, from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, radius, erase));
  }
  return dirty;
}

export function union(a: Rect | null, b: Rect | null): Rect | null {
  if (a === null) return b;
  if (b === null) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

export function invertMask(mask: Mask): void {
  for (let i = 0; i < mask.data.length; i++) mask.data[i] = mask.data[i] === 0 ? 255 : 0;
}

export function clearMask(mask: Mask): void {
  mask.data.fill(0);
}

/** The share of the image marked for repainting, 0–1. */
export function coverage(mask: Mask): number {
  let painted = 0;
  for (const v of mask.data) if (v !== 0) painted++;
  return mask.data.length === 0 ? 0 : painted / mask.data.length;
}

/** Source pixel under a point shown at `shown` size (the canvas is scaled to fit; the mask never is). */
export function toSourcePoint(
  point: { x: number; y: number },
  shown: { width: number; height: number },
  mask: Pick<Mask, 'width' | 'height'>,
): { x: number; y: number } {
  return { x: (point.x * mask.width) / shown.width, y: (point.y * mask.height) / shown.height };
}

/**
 * Snapshots taken before each change (a stroke, invert, clear), newest last. Bounded by bytes so a 4096² mask keeps
 * a few steps and a small one many.
 */
export class UndoStack {
  private readonly snapshots: Uint8Array[] = [];
  constructor(
    private readonly maxBytes = 256 * 1024 * 1024,
    private readonly maxSteps = 50,
  ) {}

  push(mask: Mask): void {
    this.snapshots.push(mask.data.slice());
    let bytes = this.snapshots.reduce((sum, s) => sum + s.byteLength, 0);
    // The newest step always stays, even when one snapshot is over the budget.
    while (this.snapshots.length > 1 && (this.snapshots.length > this.maxSteps || bytes > this.maxBytes))
      bytes -= this.snapshots.shift()!.byteLength;
  }

  /** Puts the mask back as it was before the last change; false when there is nothing to undo. */
  undo(mask: Mask): boolean {
    const last = this.snapshots.pop();
    if (last === undefined) return false;
    mask.data.set(last);
    return true;
  }

  get size(): number {
    return this.snapshots.length;
  }
}

/** RGBA for the on-screen tint over `rect`: painted pixels take `tint`, kept ones stay clear. */
export function tintPixels(
  mask: Mask,
  rect: Rect,
  tint: readonly [number, number, number, number],
): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(rect.width * rect.height * 4);
  for (let y = 0; y < rect.height; y++) {
    const src = (rect.y + y) * mask.width + rect.x;
    for (let x = 0; x < rect.width; x++) {
      if (mask.data[src + x] === 0) continue;
      const o = (y * rect.width + x) * 4;
      out[o] = tint[0];
      out[o + 1] = tint[1];
      out[o + 2] = tint[2];
      out[o + 3] = tint[3];
    }
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlibDeflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  // 'deflate' is the zlib format PNG wants (RFC 1950), in browsers and Node alike.
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The mask as an 8-bit grayscale PNG at its own (the source's) size: white repaints, black keeps. */
export async function encodeMaskPng(mask: Mask): Promise<Uint8Array> {
  const { width, height } = mask;
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter byte 0 (none) before each row.
    raw.set(mask.data.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grayscale
  const signature = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [
    signature,
    chunk('IHDR', header),
    chunk('IDAT', await zlibDeflate(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let text = '';
  // In slices: String.fromCharCode with millions of arguments overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
