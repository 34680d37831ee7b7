import { readAvifItems } from './avif-items.js';
import { readExifTexts } from './exif-texts.js';
import { readJpegSegments, type EmbeddedMetadata } from './jpeg-segments.js';
import { readPngTexts } from './png-texts.js';
import { capText, cutProblem } from './text-cap.js';
import type { ImageFormat, RawText, TextMap } from './types.js';
import { readWebpChunks } from './webp-chunks.js';

export interface ContainerTexts {
  raw: RawText[];
  texts: TextMap;
  problems: string[];
}

async function embeddedTexts(found: EmbeddedMetadata): Promise<{ raw: RawText[]; problems: string[] }> {
  const raw: RawText[] = [];
  const problems = [...found.problems];
  if (found.exif !== undefined) {
    const exif = await readExifTexts(found.exif);
    raw.push(...exif.raw);
    problems.push(...exif.problems);
  }
  if (found.xmp !== undefined) raw.push({ key: 'xmp', text: found.xmp });
  if (found.iptcCaption !== undefined) raw.push({ key: 'iptc:Caption', text: found.iptcCaption });
  return { raw, problems };
}

async function rawTexts(bytes: Uint8Array, format: ImageFormat): Promise<{ raw: RawText[]; problems: string[] }> {
  if (format === 'png') return readPngTexts(bytes);
  if (format === 'jpeg') return embeddedTexts(readJpegSegments(bytes));
  if (format === 'avif') return embeddedTexts(readAvifItems(bytes));
  return embeddedTexts(readWebpChunks(bytes));
}

/** Every metadata text of a file, each capped in size, and the same by key (a repeated key: the last one wins). */
export async function readContainerTexts(bytes: Uint8Array, format: ImageFormat): Promise<ContainerTexts> {
  const found = await rawTexts(bytes, format);
  const problems = [...found.problems];
  const raw: RawText[] = [];
  const texts = new Map<string, string>();
  for (const item of found.raw) {
    const capped = capText(item.text);
    if (capped.cut) problems.push(cutProblem(item.key));
    raw.push({ key: item.key, text: capped.text });
    texts.set(item.key, capped.text);
  }
  return { raw, texts, problems };
}
