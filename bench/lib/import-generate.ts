/**
 * The import bench's file set: about 40 base images of realistic size, encoded once with sharp (noise over a
 * gradient, so PNGs really are ~1 MB), then N distinct files made by splicing each one's own metadata into a base.
 */
import { mkdir, readFile, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  firstIdatOffset,
  jpegWithExif,
  pngWith,
  tEXt,
  tIME,
  webpBase,
  webpWithExif,
  type WebpBase,
} from './import-containers.js';
import {
  a1111JpegExif,
  a1111Text,
  a1111WebpExif,
  comfyPrompt,
  comfyWorkflow,
  damageOf,
  fooocusParameters,
  invokeaiMetadata,
  kindOf,
  KINDS,
  novelaiTexts,
  pathOf,
  specOf,
  swarmParameters,
  tokenOf,
  type Kind,
} from './import-tools.js';

export const MANIFEST = '.atelier-bench-manifest.json';
const VERSION = 2;

export interface Manifest {
  version: number;
  files: number;
  avgKb: number;
  totalBytes: number;
  byKind: Record<string, number>;
  /** Files the import must list as failed (empty, cut short) or skipped (not an image). */
  expectFailed: number;
  expectSkipped: number;
  /** A few files' unique search words, to check the import read their prompts. */
  samples: Array<{ path: string; token: string }>;
  /** A PNG with no metadata (for the watched-file row to derive new files from). */
  plainSample: string | null;
  generateSeconds: number;
  baseSeconds: number;
}

type Format = 'png' | 'jpeg' | 'webp';

interface Base {
  format: Format;
  width: number;
  height: number;
  bytes: Buffer;
  idatAt: number;
  webp?: WebpBase;
}

const DIMS: Array<[number, number]> = [
  [832, 1216],
  [1024, 1024],
  [768, 1152],
  [512, 768],
  [896, 1152],
  [1216, 832],
  [768, 768],
  [640, 960],
];

function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

/** RGB noise of ±amplitude over a diagonal gradient: compresses like a detailed render, not like a flat fill. */
function pixels(width: number, height: number, amplitude: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(width * height * 3);
  const next = xorshift(seed);
  const span = amplitude * 2 + 1;
  const [r0, g0, b0] = [(seed * 37) % 160, (seed * 91) % 160, (seed * 53) % 160];
  let at = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const g = ((x + y) * 80) / (width + height);
      const n = next();
      out[at++] = Math.max(0, Math.min(255, r0 + g + ((n & 0xff) % span) - amplitude));
      out[at++] = Math.max(0, Math.min(255, g0 + g + (((n >>> 8) & 0xff) % span) - amplitude));
      out[at++] = Math.max(0, Math.min(255, b0 + g + (((n >>> 16) & 0xff) % span) - amplitude));
    }
  }
  return out;
}

function encode(format: Format, raw: Buffer, width: number, height: number): Promise<Buffer> {
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (format === 'png') return image.png().toBuffer();
  if (format === 'jpeg') return image.jpeg({ quality: 90 }).toBuffer();
  return image.webp({ quality: 90 }).toBuffer();
}

const AMPLITUDES = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 127];

/** Bytes per pixel at each noise amplitude, measured on a 256² patch (the statistics do not depend on size). */
async function calibrate(format: Format): Promise<number[]> {
  const out: number[] = [];
  for (const a of AMPLITUDES) out.push((await encode(format, pixels(256, 256, a, 7), 256, 256)).length / (256 * 256));
  return out;
}

function amplitudeFor(curve: number[], bytesPerPixel: number): number {
  if (bytesPerPixel <= curve[0]!) return AMPLITUDES[0]!;
  for (let k = 1; k < curve.length; k += 1) {
    if (bytesPerPixel <= curve[k]!) {
      const t = (bytesPerPixel - curve[k - 1]!) / (curve[k]! - curve[k - 1]!);
      return Math.round(AMPLITUDES[k - 1]! + t * (AMPLITUDES[k]! - AMPLITUDES[k - 1]!));
    }
  }
  return AMPLITUDES[AMPLITUDES.length - 1]!;
}

/** 28 PNG, 6 JPEG and 6 WebP bases, sized from 0.6× to 1.4× the wanted average. */
async function makeBases(avgBytes: number): Promise<Record<Format, Base[]>> {
  const counts: Record<Format, number> = { png: 28, jpeg: 6, webp: 6 };
  const bases: Record<Format, Base[]> = { png: [], jpeg: [], webp: [] };
  let seed = 1;
  for (const format of ['png', 'jpeg', 'webp'] as const) {
    const curve = await calibrate(format);
    const n = counts[format];
    for (let b = 0; b < n; b += 1) {
      const [w0, h0] = DIMS[(b + seed) % DIMS.length]!;
      const target = avgBytes * (0.6 + (0.8 * b) / Math.max(1, n - 1));
      // Outside what noise can do at this size (faintest to strongest), fewer or more pixels reach the target.
      const bpp = target / (w0 * h0);
      const lowest = curve[0]!;
      const highest = curve[curve.length - 1]! * 0.9;
      const scale = bpp < lowest ? Math.sqrt(bpp / lowest) : bpp > highest ? Math.min(2, Math.sqrt(bpp / highest)) : 1;
      const width = Math.max(64, Math.round((w0 * scale) / 8) * 8);
      const height = Math.max(64, Math.round((h0 * scale) / 8) * 8);
      // The patch's curve is a first guess: two corrections by the full image's own size bring it within ~10 %.
      let wanted = target / (width * height);
      let bytes = await encode(format, pixels(width, height, amplitudeFor(curve, wanted), seed), width, height);
      for (let k = 0; k < 2 && Math.abs(bytes.length / target - 1) > 0.1; k += 1) {
        wanted *= target / bytes.length;
        bytes = await encode(format, pixels(width, height, amplitudeFor(curve, wanted), seed), width, height);
      }
      seed += 1;
      const base: Base = { format, width, height, bytes, idatAt: format === 'png' ? firstIdatOffset(bytes) : 0 };
      if (format === 'webp') base.webp = webpBase(bytes, width, height);
      bases[format].push(base);
    }
  }
  return bases;
}

const FORMAT_OF: Record<Kind, Format> = {
  'a1111-png': 'png',
  'a1111-jpeg': 'jpeg',
  'a1111-webp': 'webp',
  'comfyui-png': 'png',
  'invokeai-png': 'png',
  'fooocus-png': 'png',
  'novelai-png': 'png',
  'swarmui-png': 'png',
  'plain-png': 'png',
};

function fileBytes(kind: Kind, i: number, base: Base): Buffer {
  const s = specOf(i, base.width, base.height);
  const png = (texts: Array<[string, string]>): Buffer =>
    pngWith(
      base.bytes,
      base.idatAt,
      texts.map(([k, v]) => tEXt(k, v)),
    );
  switch (kind) {
    case 'a1111-png':
      return png([['parameters', a1111Text(s)]]);
    case 'a1111-jpeg':
      return jpegWithExif(base.bytes, a1111JpegExif(s));
    case 'a1111-webp':
      return webpWithExif(base.webp!, a1111WebpExif(s));
    case 'comfyui-png':
      return png([
        ['prompt', comfyPrompt(s)],
        ['workflow', comfyWorkflow(s)],
      ]);
    case 'invokeai-png':
      return png([['invokeai_metadata', invokeaiMetadata(s)]]);
    case 'fooocus-png':
      return png([
        ['parameters', fooocusParameters(s)],
        ['fooocus_scheme', 'fooocus'],
      ]);
    case 'novelai-png':
      return png(novelaiTexts(s));
    case 'swarmui-png':
      return png([['parameters', swarmParameters(s)]]);
    case 'plain-png':
      // No metadata at all; a distinct modification time keeps its hash its own.
      return pngWith(base.bytes, base.idatAt, [tIME(new Date(Date.UTC(2026, 10, 1) + i * 1000))]);
  }
}

/** Runs `task` over 0..n-1 with `width` in flight. */
async function pool(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/**
 * The set's size from the real bases (not the asked average), against the free space: the disk is shared, so at
 * least a quarter of what is free (and 5 GB) stays free.
 */
async function checkRoom(dir: string, files: number, bases: Record<Format, Base[]>): Promise<void> {
  const mean = (list: Base[]): number => list.reduce((n, b) => n + b.bytes.length, 0) / list.length;
  const perFile = mean(bases.png) * 0.86 + mean(bases.jpeg) * 0.08 + mean(bases.webp) * 0.06 + 4096;
  const need = perFile * files;
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  const spare = Math.max(5 * 1024 ** 3, free / 4);
  if (need > free - spare) {
    const gb = (n: number): string => (n / 1024 ** 3).toFixed(1);
    throw new Error(
      `the set would take about ${gb(need)} GB (${Math.round(perFile / 1024)} KB a file); ${gb(free)} GB are free and ${gb(spare)} GB must stay free: use fewer --files or a smaller --avg-kb`,
    );
  }
}

export async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    const m = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
    return m.version === VERSION ? m : null;
  } catch {
    return null;
  }
}

export async function generateSet(
  dir: string,
  files: number,
  avgKb: number,
  onProgress?: (done: number) => void,
): Promise<Manifest> {
  const t0 = performance.now();
  const bases = await makeBases(avgKb * 1024);
  const baseSeconds = (performance.now() - t0) / 1000;
  await checkRoom(dir, files, bases);
  const byKind: Record<string, number> = Object.fromEntries([...KINDS, 'damaged'].map((k) => [k, 0]));
  const made = new Map<string, Promise<void>>();
  let totalBytes = 0;
  let expectFailed = 0;
  let expectSkipped = 0;
  let done = 0;
  const samples: Manifest['samples'] = [];
  let plainSample: string | null = null;
  // Four files spread over the set, each the first with a prompt at or after its position.
  const withPrompt = (i: number): boolean => damageOf(i) === null && kindOf(i) !== 'plain-png';
  const sampleAt = new Set(
    [0, Math.floor(files / 3), Math.floor((2 * files) / 3), files - 10].map((p) => {
      let i = Math.max(0, p);
      while (i < files - 1 && !withPrompt(i)) i += 1;
      return i;
    }),
  );
  await pool(files, 16, async (i) => {
    const damage = damageOf(i);
    const kind = kindOf(i);
    const list = bases[damage === null ? FORMAT_OF[kind] : 'png'];
    const base = list[(i * 7) % list.length]!;
    let bytes: Buffer;
    let rel: string;
    if (damage === null) {
      bytes = fileBytes(kind, i, base);
      rel = pathOf(kind, i, files, specOf(i, base.width, base.height).seed);
      byKind[kind]! += 1;
    } else {
      const whole = fileBytes('a1111-png', i, base);
      bytes =
        damage === 'empty'
          ? Buffer.alloc(0)
          : damage === 'truncated'
            ? whole.subarray(0, whole.length >> 1)
            : Buffer.from(`not an image, file ${i}\n`.repeat(40));
      rel = pathOf('damaged', i, files, i);
      byKind.damaged! += 1;
      if (damage === 'not-an-image') expectSkipped += 1;
      else expectFailed += 1;
    }
    if (withPrompt(i) && sampleAt.has(i)) samples.push({ path: rel, token: tokenOf(i) });
    if (damage === null && kind === 'plain-png' && plainSample === null) plainSample = rel;
    const path = join(dir, rel);
    const folder = join(path, '..');
    let ready = made.get(folder);
    if (ready === undefined) made.set(folder, (ready = mkdir(folder, { recursive: true }).then(() => undefined)));
    await ready;
    await writeFile(path, bytes);
    totalBytes += bytes.length;
    done += 1;
    if (done % 1000 === 0) onProgress?.(done);
  });
  const manifest: Manifest = {
    version: VERSION,
    files,
    avgKb,
    totalBytes,
    byKind,
    expectFailed,
    expectSkipped,
    samples,
    plainSample,
    generateSeconds: (performance.now() - t0) / 1000,
    baseSeconds,
  };
  await writeFile(join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
  return manifest;
}
