import { parseAtelierChunk, ATELIER_KEYWORD, type AtelierChunk } from './atelier-chunk.js';
import { parseParameters, type A1111Parameters } from './a1111-parameters.js';
import { readChunks } from './chunks.js';
import { readComfyMetadata, type ComfyMetadata } from './comfyui.js';
import { readInvokeMetadata, type InvokeMetadata } from './invokeai.js';
import { readTextChunks, type PngText } from './text-chunks.js';
import type { Seed } from '../../../shared/seed.js';

/** Generation settings in one shape, whichever tool wrote them. */
export interface GenerationSettings {
  prompt?: string;
  negativePrompt?: string;
  seed?: Seed;
  steps?: number;
  guidance?: number;
  sampler?: string;
  width?: number;
  height?: number;
  model?: string;
}

export type MetadataSource = 'atelier' | 'a1111' | 'comfyui' | 'invokeai';

export interface ImageMetadata {
  texts: PngText[];
  /** Which tool's record `settings` came from; null when none was recognised. */
  source: MetadataSource | null;
  settings: GenerationSettings;
  atelier?: AtelierChunk;
  a1111?: A1111Parameters;
  comfyui?: ComfyMetadata;
  invokeai?: InvokeMetadata;
}

function pick(from: object, map: Record<string, keyof GenerationSettings>): GenerationSettings {
  const out: GenerationSettings = {};
  for (const [src, dst] of Object.entries(map)) {
    const value = (from as Record<string, unknown>)[src];
    if (value !== undefined && value !== '') (out as Record<string, unknown>)[dst] = value;
  }
  return out;
}

const COMMON = {
  prompt: 'prompt',
  negativePrompt: 'negativePrompt',
  seed: 'seed',
  steps: 'steps',
  cfgScale: 'guidance',
  sampler: 'sampler',
  width: 'width',
  height: 'height',
  model: 'model',
} as const;

/**
 * Reads every text chunk of a PNG (tEXt, zTXt, iTXt, in any position) and interprets the ones known tools
 * write. `settings` prefers Atelier's own record, then A1111 `parameters`, ComfyUI, InvokeAI (the order of
 * docs/provider-protocols.md §4.4).
 */
export function readPngMetadata(png: Uint8Array): ImageMetadata {
  const texts = readTextChunks(readChunks(png));
  // A repeated keyword: the last chunk wins, as in PIL's `info` dict.
  const byKey = new Map<string, string>();
  for (const t of texts) byKey.set(t.keyword, t.text);
  const out: ImageMetadata = { texts, source: null, settings: {} };

  const candidates: Array<[MetadataSource, GenerationSettings]> = [];
  const atelierText = byKey.get(ATELIER_KEYWORD);
  const atelier = atelierText === undefined ? undefined : parseAtelierChunk(atelierText);
  if (atelier !== undefined) {
    out.atelier = atelier;
    const r = atelier.request;
    candidates.push([
      'atelier',
      pick(
        {
          prompt: r.prompt,
          negativePrompt: r.negativePrompt,
          seed: atelier.seed ?? r.seed,
          steps: r.steps,
          cfgScale: r.guidance,
          sampler: r.sampler,
          width: r.width,
          height: r.height,
          model: atelier.model ?? r.model,
        },
        COMMON,
      ),
    ]);
  }
  const parameters = byKey.get('parameters');
  if (parameters !== undefined) {
    out.a1111 = parseParameters(parameters);
    candidates.push(['a1111', pick(out.a1111, COMMON)]);
  }
  if (byKey.has('prompt') || byKey.has('workflow')) {
    out.comfyui = readComfyMetadata(byKey.get('prompt'), byKey.get('workflow'));
    candidates.push(['comfyui', pick(out.comfyui, COMMON)]);
  }
  const invoke = readInvokeMetadata(byKey);
  if (invoke !== undefined) {
    out.invokeai = invoke;
    candidates.push(['invokeai', pick(invoke, COMMON)]);
  }
  const first = candidates[0];
  if (first !== undefined) {
    out.source = first[0];
    out.settings = first[1];
  }
  return out;
}
