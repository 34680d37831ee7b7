import { basename } from 'node:path';
import { StoredRequest, type ImportedMetadata, type ImportMode } from '../../../shared/contract.js';
import { uuidv7 } from '../../../shared/ids.js';
import { normalizeSeed, type Seed } from '../../../shared/seed.js';
import type { ImportedImage } from '../../db/import-types.js';
import type { ImportedJobFields } from '../../db/imported-jobs.js';
import { READER_VERSION } from '../readers/reader-version.js';
import type { ImageFormat, ImageRead, ReadSettings } from '../readers/types.js';

/** The Atelier provider an imported file's settings are reused with, when the person asks: its own tool where Atelier drives it. */
const PROVIDER_FOR: Record<string, string> = { a1111: 'a1111', comfyui: 'comfyui', swarmui: 'comfyui' };
const MIME: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
};
export const EXTENSION: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', avif: 'avif' };
/** Searchable text a file's raw metadata adds (a ComfyUI graph is tens of kilobytes: its words are in the prompts). */
const RAW_SEARCH_CHARS = 2_048;
const MAX_RAW_CHARS = 256 * 1024;

/** A seed as the contract carries it: a number while exact, else its decimal digits (or none past 2^64-1). */
function contractSeed(seed: string): Seed | undefined {
  return normalizeSeed(seed) ?? undefined;
}

function settingsRequest(source: string, s: ReadSettings, width: number, height: number): StoredRequest {
  const request: Record<string, unknown> = {
    provider: PROVIDER_FOR[source] ?? 'builtin',
    prompt: (s.prompt ?? '').slice(0, 32_000),
    width: s.width ?? width,
    height: s.height ?? height,
    count: 1,
  };
  if (s.negativePrompt !== undefined && s.negativePrompt.length > 0)
    request.negativePrompt = s.negativePrompt.slice(0, 32_000);
  // The built-in generator has its own one model and sampler: the tool's names stay in the metadata.
  const ownTool = request.provider !== 'builtin';
  if (ownTool && s.model !== undefined && s.model.length > 0) request.model = s.model.slice(0, 200);
  const seed = s.seed === undefined ? undefined : contractSeed(s.seed);
  if (seed !== undefined) request.seed = seed;
  if (s.steps !== undefined) request.steps = s.steps;
  if (s.guidance !== undefined) request.guidance = s.guidance;
  if (ownTool && s.sampler !== undefined && s.sampler.length > 0) request.sampler = s.sampler.slice(0, 64);
  const parsed = StoredRequest.safeParse(request);
  if (parsed.success) return parsed.data;
  // A field outside what Atelier's contract holds (steps 500, a size of 0…) is left out; the raw text keeps it.
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  for (const key of bad) if (!['provider', 'prompt', 'count'].includes(key)) delete request[key];
  if (bad.has('width') || bad.has('height')) Object.assign(request, { width, height });
  return StoredRequest.parse(request);
}

function capRaw(raw: ImageRead['raw']): ImageRead['raw'] {
  let left = MAX_RAW_CHARS;
  return raw.map((r) => {
    const text = r.text.slice(0, Math.max(0, left));
    left -= text.length;
    return { key: r.key, text };
  });
}

function searchExtra(path: string, read: ImageRead): string {
  const s = read.settings;
  const words = [
    basename(path),
    read.source,
    s.model,
    s.modelHash,
    s.sampler,
    s.scheduler,
    s.seed,
    ...(s.loras ?? []).map((l) => l.name),
    read.description,
  ].filter((w): w is string => typeof w === 'string' && w.length > 0);
  let raw = '';
  for (const r of read.raw) {
    if (raw.length >= RAW_SEARCH_CHARS) break;
    const text = searchableRaw(r.text, s.prompt ?? '');
    raw += `\n${text.slice(0, RAW_SEARCH_CHARS - raw.length)}`;
  }
  return `${words.join(' ')}${raw}`;
}

/**
 * What of a raw text is worth indexing: JSON (a ComfyUI graph, InvokeAI's metadata) by its distinct string values
 * (node titles, file names; its keys and numbers are the same in every file); other text as it is.
 */
function searchableRaw(text: string, prompt: string): string {
  // The head of a graph is plenty for its names, and bounds the scan of a huge one.
  const trimmed = text.slice(0, 65_536).trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  const values = new Set<string>();
  for (const match of trimmed.matchAll(/"((?:[^"\\]|\\.){3,300})"\s*(?=[,}\]])/g)) {
    const value = match[1]!;
    if (!prompt.includes(value)) values.add(value);
    if (values.size >= 200) break;
  }
  return [...values].join(' ');
}

export interface ImportedFile {
  path: string;
  sha256: string;
  size: number;
  mtimeMs: number;
  format: ImageFormat;
  width: number;
  height: number;
  read: ImageRead;
  mode: ImportMode;
  /** Where the image file is: the original (link) or its copy under library/ (copy), relative to the data dir. */
  storedPath: string;
}

/** The job fields one read of a file gives; `mode` is how the file is kept (the locations are filled by the store). */
export function importedJobFields(
  read: ImageRead,
  file: { path: string; width: number; height: number; mode: ImportMode },
): ImportedJobFields {
  const s = read.settings;
  const metadata: ImportedMetadata = {
    raw: capRaw(read.raw),
    problems: read.problems.slice(0, 50),
    locations: [],
    mode: file.mode,
  };
  if (s.model !== undefined) metadata.model = s.model.slice(0, 1_000);
  if (s.sampler !== undefined) metadata.sampler = s.sampler.slice(0, 200);
  if (s.scheduler !== undefined) metadata.scheduler = s.scheduler;
  if (s.modelHash !== undefined) metadata.modelHash = s.modelHash;
  if (s.loras !== undefined && s.loras.length > 0) metadata.loras = s.loras;
  if (s.denoise !== undefined) metadata.denoise = s.denoise;
  if (s.distilledGuidance !== undefined) metadata.distilledGuidance = s.distilledGuidance;
  if (read.description !== undefined) metadata.description = read.description.slice(0, 32_000);
  if (read.alternatives !== undefined) metadata.alternatives = read.alternatives.slice(0, 20).map((a) => ({ ...a }));
  if (read.passes !== undefined)
    metadata.passes = read.passes.slice(0, 20).map((p) => ({ ...p, settings: { ...p.settings } }));
  return {
    source: read.source,
    request: settingsRequest(read.source, s, file.width, file.height),
    ...(s.model === undefined || s.model.length === 0 ? {} : { model: s.model.slice(0, 200) }),
    ...(s.seed === undefined ? {} : { seed: s.seed }),
    metadata,
    searchExtra: searchExtra(file.path, read),
  };
}

/** The image's seed as the images table keeps it, from the seed the file names. */
export function imageSeedOf(seed: string | undefined): Seed | undefined {
  return seed === undefined ? undefined : contractSeed(seed);
}

/** One imported file as a succeeded job of one image, at the time the file says it was made. */
export function toImportedImage(file: ImportedFile): ImportedImage {
  const createdAt = Math.trunc(file.mtimeMs);
  const fields = importedJobFields(file.read, file);
  const seedNumber = imageSeedOf(fields.seed);
  return {
    jobId: uuidv7(createdAt),
    createdAt,
    ...fields,
    readerVersion: READER_VERSION,
    image: {
      id: uuidv7(createdAt),
      index: 0,
      path: file.storedPath,
      sha256: file.sha256,
      bytes: file.size,
      width: file.width,
      height: file.height,
      mime: MIME[file.format],
      thumbPath: null,
      ...(seedNumber === undefined ? {} : { seed: seedNumber }),
      linked: file.mode === 'link',
    },
  };
}
