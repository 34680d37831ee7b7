import { readA1111Sidecar, a1111FromText } from './a1111.js';
import { readContainerTexts } from './containers.js';
import { parseJsonObject } from './fields.js';
import { READERS } from './registry.js';
import { sniffImage, type Sniffed } from './sniff.js';
import { readStealth } from './stealth.js';
import { capText, cutProblem } from './text-cap.js';
import type { ComfyNodeRule, GeneratorRead, ImageRead, RawText, ReaderOptions, TextMap } from './types.js';

export interface ReadImageOptions {
  /** The text of `<name>.txt` beside the image (A1111 "save text information"), when the caller found one. */
  sidecarText?: string;
  /** A person's own ComfyUI node rules: this class's input holds that setting (comfyui-node-table.ts). */
  comfyNodeRules?: readonly ComfyNodeRule[];
}

function firstRecognised(texts: TextMap, problems: string[], options: ReaderOptions): GeneratorRead | undefined {
  for (const reader of READERS) {
    try {
      const read = reader(texts, options);
      if (read !== undefined) return read;
    } catch (error) {
      // Readers promise not to throw; one that does must not cost the file its other readers.
      problems.push(`A settings reader failed: ${error instanceof Error ? error.message : String(error)}.`);
    }
  }
  return undefined;
}

/** NovelAI hides a JSON object of its PNG texts (`Software`, `Description`, `Comment`, …) the stealth way. */
function jsonTexts(text: string): TextMap | undefined {
  const json = parseJsonObject(text);
  if (json === undefined) return undefined;
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(json)) {
    if (typeof value === 'string') map.set(key, value);
    else if (value !== null && typeof value === 'object') map.set(key, JSON.stringify(value));
  }
  return map;
}

/** A sidecar or stealth text read as settings, its raw text kept under `key`. */
function fromExtraText(
  key: string,
  text: string,
  raw: RawText[],
  problems: string[],
  options: ReaderOptions,
): GeneratorRead | undefined {
  const capped = capText(text);
  if (capped.cut) problems.push(cutProblem(key));
  raw.push({ key, text: capped.text });
  if (key === 'sidecar') return readA1111Sidecar(capped.text);
  const texts = jsonTexts(capped.text);
  return texts === undefined ? a1111FromText(capped.text) : firstRecognised(texts, problems, options);
}

function result(sniffed: Sniffed, read: GeneratorRead | undefined, raw: RawText[], problems: string[]): ImageRead {
  const out: ImageRead = {
    format: sniffed.format,
    source: read?.source ?? 'unknown',
    settings: read?.settings ?? {},
    raw,
    problems: [...problems, ...(read?.problems ?? [])],
  };
  if (sniffed.width !== undefined && sniffed.height !== undefined) {
    out.width = sniffed.width;
    out.height = sniffed.height;
  }
  if (read?.passes !== undefined && read.passes.length > 0) out.passes = read.passes;
  if (read?.alternatives !== undefined && read.alternatives.length > 0) out.alternatives = read.alternatives;
  if (read?.description !== undefined) out.description = read.description;
  return out;
}

async function read(bytes: Uint8Array, options: ReadImageOptions): Promise<ImageRead> {
  const sniffed = sniffImage(bytes);
  if (sniffed.format === null) {
    return result(
      sniffed,
      undefined,
      [],
      [bytes.length === 0 ? 'The file is empty.' : 'The file is not a PNG, JPEG, WebP or AVIF image.'],
    );
  }
  const found = await readContainerTexts(bytes, sniffed.format);
  const raw = [...found.raw];
  const problems = [...found.problems];
  const readerOptions: ReaderOptions = { comfyNodeRules: options.comfyNodeRules };
  let chosen = firstRecognised(found.texts, problems, readerOptions);
  const recognised = (r: GeneratorRead | undefined): boolean => r !== undefined && r.source !== 'unknown';
  if (!recognised(chosen) && options.sidecarText !== undefined) {
    chosen = fromExtraText('sidecar', options.sidecarText, raw, problems, readerOptions) ?? chosen;
  }
  // Stealth needs the pixels: only tried when nothing else said what made the image, and never for lossy JPEG.
  if (!recognised(chosen) && sniffed.format !== 'jpeg') {
    const stealth = await readStealth(bytes);
    problems.push(...stealth.problems);
    if (stealth.text !== undefined) {
      const description = chosen?.description;
      chosen = fromExtraText('stealth', stealth.text, raw, problems, readerOptions);
      if (chosen !== undefined && description !== undefined) chosen = { ...chosen, description };
    }
  }
  return result(sniffed, chosen, raw, problems);
}

/**
 * Everything Atelier can learn about an image from its bytes: format and size, the settings of the tool that made it,
 * and every metadata text. Never throws: a damaged or foreign file answers with `problems` saying why.
 */
export async function readImageMetadata(bytes: Uint8Array, options: ReadImageOptions = {}): Promise<ImageRead> {
  try {
    return await read(bytes, options);
  } catch (error) {
    const sniffed = (() => {
      try {
        return sniffImage(bytes);
      } catch {
        return { format: null } satisfies Sniffed;
      }
    })();
    return result(
      sniffed,
      undefined,
      [],
      [`The file could not be read: ${error instanceof Error ? error.message : String(error)}.`],
    );
  }
}
