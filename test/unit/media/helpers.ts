import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { readChunks, writeChunks, type PngChunk } from '../../../electron/media/png/chunks.js';

export async function makePng(width = 32, height = 24, colour = { r: 200, g: 40, b: 90 }): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

export async function makeJpeg(width = 40, height = 30): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer(),
  );
}

/** Inserts chunks before the first IDAT (as PIL does) or before IEND (as some tools do). */
export function insertChunks(png: Uint8Array, added: PngChunk[], where: 'IDAT' | 'IEND' = 'IDAT'): Uint8Array {
  const chunks = readChunks(png);
  const at = chunks.findIndex((c) => c.type === where);
  return writeChunks([...chunks.slice(0, at), ...added, ...chunks.slice(at)]);
}

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export function tEXt(keyword: string, text: string): PngChunk {
  return { type: 'tEXt', data: Uint8Array.from([...latin1(keyword), 0, ...latin1(text)]) };
}

export function zTXt(keyword: string, text: string): PngChunk {
  return { type: 'zTXt', data: Uint8Array.from([...latin1(keyword), 0, 0, ...deflateSync(latin1(text))]) };
}

export function iTXt(keyword: string, text: string, compressed: boolean, language = '', translated = ''): PngChunk {
  const utf8 = new TextEncoder().encode(text);
  const body = compressed ? deflateSync(utf8) : utf8;
  return {
    type: 'iTXt',
    data: Uint8Array.from([
      ...latin1(keyword),
      0,
      compressed ? 1 : 0,
      0,
      ...latin1(language),
      0,
      ...new TextEncoder().encode(translated),
      0,
      ...body,
    ]),
  };
}

/** Python's json.dumps default (ensure_ascii=True): non-ASCII as \uXXXX, so ComfyUI chunks are plain ASCII. */
export function pythonJsonDumps(value: unknown): string {
  return JSON.stringify(value, null, 0)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/,"/g, ', "')
    .replace(/":/g, '": ');
}

export async function tempDir(prefix = 'atelier-media-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
