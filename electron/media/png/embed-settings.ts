import type { GenerateRequest } from '../../../shared/contract.js';
import { buildAtelierChunk, ATELIER_KEYWORD } from './atelier-chunk.js';
import { formatParameters } from './a1111-parameters.js';
import { readChunks, writeChunks, type PngChunk } from './chunks.js';
import { decodeTextChunk, encodeTextChunk } from './text-chunks.js';
import type { Seed } from '../../../shared/seed.js';

export interface ImageSettings {
  request: GenerateRequest;
  jobId: string;
  index: number;
  provider: string;
  /** The model that actually ran, when the provider said. */
  model?: string;
  seed?: Seed;
  /** Position in a batch drawn from one shared seed, and that batch's size (both or neither). */
  batchIndex?: number;
  batchSize?: number;
  width: number;
  height: number;
  createdAt: number;
  appVersion: string;
  revisedPrompt?: string;
}

export function a1111ParametersFor(settings: ImageSettings): string {
  const { request } = settings;
  return formatParameters({
    prompt: request.prompt,
    ...(request.negativePrompt ? { negativePrompt: request.negativePrompt } : {}),
    ...(request.steps !== undefined ? { steps: request.steps } : {}),
    ...(request.sampler !== undefined ? { sampler: request.sampler } : {}),
    ...(request.guidance !== undefined ? { cfgScale: request.guidance } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    width: settings.width,
    height: settings.height,
    model: settings.model ?? request.model ?? settings.provider,
    // Provider and Version keep the params line at >= 3 entries, which A1111's reader needs to recognise it.
    extra: [
      // A1111's own names for a shared-seed batch: the seed alone does not reproduce this image.
      ...(settings.batchIndex !== undefined && settings.batchSize !== undefined
        ? ([
            ['Batch size', settings.batchSize],
            ['Batch pos', settings.batchIndex],
          ] satisfies [string, number][])
        : []),
      ['Provider', settings.provider],
      ['Version', `Atelier ${settings.appVersion}`],
    ],
  });
}

function keywordOf(chunk: PngChunk): string | undefined {
  return decodeTextChunk(chunk)?.keyword;
}

/**
 * Returns the PNG with `parameters` (A1111 infotext) and `atelier` (JSON) text chunks placed before the first
 * IDAT, as PIL does. A `parameters` chunk the provider wrote itself (A1111/Forge) is kept: it is the richer
 * record; any previous `atelier` chunk is replaced.
 */
export function embedSettings(png: Uint8Array, settings: ImageSettings): Uint8Array {
  const chunks = readChunks(png).filter((c) => keywordOf(c) !== ATELIER_KEYWORD);
  const hasParameters = chunks.some((c) => keywordOf(c) === 'parameters');
  const added: PngChunk[] = [];
  if (!hasParameters) added.push(encodeTextChunk('parameters', a1111ParametersFor(settings)));
  const atelier = buildAtelierChunk({
    version: settings.appVersion,
    jobId: settings.jobId,
    index: settings.index,
    provider: settings.provider,
    createdAt: settings.createdAt,
    request: settings.request,
    ...(settings.model !== undefined ? { model: settings.model } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    ...(settings.batchIndex !== undefined ? { batchIndex: settings.batchIndex } : {}),
    ...(settings.revisedPrompt !== undefined ? { revisedPrompt: settings.revisedPrompt } : {}),
  });
  added.push(encodeTextChunk(ATELIER_KEYWORD, JSON.stringify(atelier)));
  let at = chunks.findIndex((c) => c.type === 'IDAT');
  if (at < 0) at = chunks.findIndex((c) => c.type === 'IEND');
  if (at < 0) throw new Error('PNG has neither IDAT nor IEND.');
  return writeChunks([...chunks.slice(0, at), ...added, ...chunks.slice(at)]);
}
