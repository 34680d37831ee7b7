/**
 * What Atelier reads from an image file made by any generator (docs/metadata-formats.md), in the fields a generated job
 * uses. Readers never throw: what parsed is kept, what did not is named in `problems`, the raw text is always kept.
 */

import type { ImageSource } from '../../../shared/contract/imports.js';
import type { ComfyNodeRule } from './comfyui-node-types.js';

export { IMAGE_SOURCES, type ImageSource } from '../../../shared/contract/imports.js';
export type { ComfyNodeRule } from './comfyui-node-types.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'avif';

export interface LoraRef {
  name: string;
  weight?: number;
  hash?: string;
}

/** One generation's settings. Seeds are decimal strings: ComfyUI and Fooocus seeds go past 2^53. */
export interface ReadSettings {
  prompt?: string | undefined;
  negativePrompt?: string | undefined;
  seed?: string | undefined;
  steps?: number | undefined;
  guidance?: number | undefined;
  sampler?: string | undefined;
  scheduler?: string | undefined;
  model?: string | undefined;
  modelHash?: string | undefined;
  width?: number | undefined;
  height?: number | undefined;
  loras?: LoraRef[] | undefined;
  /** Image-to-image strength, where the tool records one. */
  denoise?: number | undefined;
  /** Guidance a distilled model takes as an input (Flux's FluxGuidance), beside the sampler's CFG in `guidance`. */
  distilledGuidance?: number | undefined;
}

/** What a later pass over the first pass's image does: a refiner, a hires fix, a detailer, an upscale, or a sampler. */
export type PassRole = 'refiner' | 'hires' | 'detailer' | 'upscale' | 'sampler';

/** One pass after the first (ComfyUI graphs): its role, the node class that ran it, and its own settings. */
export interface Pass {
  role: PassRole;
  classType: string;
  settings: ReadSettings;
}

/** A piece of metadata text as the file holds it (PNG keyword, EXIF tag, XMP, sidecar), kept whole and searchable. */
export interface RawText {
  key: string;
  text: string;
}

/** Every text a container holds, by key (PNG keyword, or `exif:<Tag>`, `xmp`, `sidecar`); the last one wins. */
export type TextMap = ReadonlyMap<string, string>;

/** A generator-specific reader: recognises its own keys in the texts, or answers undefined. Never throws. */
export interface GeneratorRead {
  source: ImageSource;
  /** The main generation: for a ComfyUI graph, its first pass. */
  settings: ReadSettings;
  /** Later passes over the same image, in the order they ran (refiner, hires fix, detailers, upscales). */
  passes?: Pass[];
  /** Other generations the file describes, unrelated to the main one (a graph with two independent chains). */
  alternatives?: ReadSettings[];
  /** A caption the file carries that is not known to be a prompt (EXIF ImageDescription, XMP dc:description). */
  description?: string;
  /** Fields that were there but could not be parsed, in words. */
  problems: string[];
}

/** What a reader may be told beyond the texts: a person's own ComfyUI node rules. */
export interface ReaderOptions {
  comfyNodeRules?: readonly ComfyNodeRule[] | undefined;
}

export type GeneratorReader = (texts: TextMap, options?: ReaderOptions) => GeneratorRead | undefined;

export interface ImageRead {
  /** Sniffed from the bytes, never the extension; null when it is none of the formats Atelier reads. */
  format: ImageFormat | null;
  /** Pixel size from the container header, when it could be read. */
  width?: number;
  height?: number;
  source: ImageSource;
  settings: ReadSettings;
  passes?: Pass[];
  alternatives?: ReadSettings[];
  description?: string;
  raw: RawText[];
  problems: string[];
}

/** Decimal digits of a seed, kept exactly; anything else is not a seed. */
export function seedString(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value.toString() : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) return value.trim().replace(/^0+(?=\d)/, '');
  return undefined;
}
