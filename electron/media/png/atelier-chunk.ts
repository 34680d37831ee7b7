import type { GenerateRequest } from '../../../shared/contract.js';
import type { Seed } from '../../../shared/seed.js';
import { readChunks } from './chunks.js';
import { decodeTextChunk } from './text-chunks.js';

/** Atelier's own PNG text chunk: the full request (minus the idempotency key) plus what the run decided. */
export const ATELIER_KEYWORD = 'atelier';
export const ATELIER_CHUNK_FORMAT = 'atelier/1';

export interface AtelierChunk {
  format: typeof ATELIER_CHUNK_FORMAT;
  app: 'Atelier';
  version: string;
  jobId: string;
  index: number;
  provider: string;
  model?: string;
  seed?: Seed;
  /** Position in a batch drawn from one shared seed (ComfyUI): the seed with request.count reproduces it there. */
  batchIndex?: number;
  createdAt: number;
  revisedPrompt?: string;
  request: Omit<GenerateRequest, 'idempotencyKey'>;
}

export function buildAtelierChunk(
  input: Omit<AtelierChunk, 'format' | 'app' | 'request'> & { request: GenerateRequest },
): AtelierChunk {
  // The idempotency key is a client secret-ish token for de-duplication: it never travels with the file.
  const { idempotencyKey: _dropped, ...request } = input.request;
  const chunk: AtelierChunk = {
    format: ATELIER_CHUNK_FORMAT,
    app: 'Atelier',
    version: input.version,
    jobId: input.jobId,
    index: input.index,
    provider: input.provider,
    createdAt: input.createdAt,
    request,
  };
  if (input.model !== undefined) chunk.model = input.model;
  if (input.seed !== undefined) chunk.seed = input.seed;
  if (input.batchIndex !== undefined) chunk.batchIndex = input.batchIndex;
  if (input.revisedPrompt !== undefined) chunk.revisedPrompt = input.revisedPrompt;
  return chunk;
}

/** Parses the chunk text; undefined when it is not JSON of Atelier's shape (e.g. another tool used the keyword). */
export function parseAtelierChunk(text: string): AtelierChunk | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<AtelierChunk>;
  if (v.format !== ATELIER_CHUNK_FORMAT || typeof v.jobId !== 'string') return undefined;
  if (typeof v.request !== 'object' || v.request === null || typeof v.request.prompt !== 'string') return undefined;
  return v as AtelierChunk;
}

const KEYWORD_BYTES = new TextEncoder().encode(`${ATELIER_KEYWORD}\0`);

/**
 * The `atelier` record of a PNG (the last one, as readPngMetadata keeps it), decoding no other text: a copied import
 * may carry megabytes of another tool's texts, and only this one is wanted here.
 */
export function readAtelierChunk(png: Uint8Array): AtelierChunk | undefined {
  let found: string | undefined;
  for (const chunk of readChunks(png)) {
    if (chunk.data.length < KEYWORD_BYTES.length || !KEYWORD_BYTES.every((byte, i) => chunk.data[i] === byte)) continue;
    const text = decodeTextChunk(chunk);
    if (text !== null) found = text.text;
  }
  return found === undefined ? undefined : parseAtelierChunk(found);
}
