import { kindOfTarget, type GenerateRequest } from '../../shared/contract.js';
import { MAX_SEED, seedFromBigInt, seedToBigInt } from '../../shared/seed.js';
import type { ProviderPool } from './ports.js';

/** Kinds whose batches may run as several jobs: the person's own servers, where a part costs nothing. */
const SPLIT_KINDS: ReadonlySet<string> = new Set(['a1111', 'comfyui']);
const MAX_KEY = 256;

export interface BatchPart {
  request: GenerateRequest;
  /** Position of this part's first image in the whole batch. */
  first: number;
  part: number;
  parts: number;
}

/**
 * A batch of N asked of any:<a1111|comfyui> becomes one job per usable server (at most N), sizes as even as they go,
 * so every server works on it at once. A set seed moves with each part's first image (part 2 of 2+2 from seed 7 starts
 * at 9), which is A1111's own seed + i; a ComfyUI part is its own batch from that seed. Anything else stays one job.
 */
export function splitBatch(
  request: GenerateRequest,
  registry: Pick<ProviderPool, 'instances' | 'placeable'>,
): BatchPart[] {
  const whole: BatchPart[] = [{ request, first: 0, part: 1, parts: 1 }];
  const kind = kindOfTarget(request.provider);
  if (kind === undefined || !SPLIT_KINDS.has(kind) || request.count <= 1) return whole;
  const servers = registry.instances().filter((i) => i.kind === kind && registry.placeable(i.id)).length;
  const parts = Math.min(servers, request.count);
  if (parts <= 1) return whole;
  const key = request.idempotencyKey;
  // Each part needs its own key derived from the person's, so a repeated submit converges on the same parts.
  if (key !== undefined && key.length + 8 > MAX_KEY) return whole;
  if (request.seed !== undefined && seedToBigInt(request.seed) + BigInt(request.count - 1) > MAX_SEED) return whole;
  const out: BatchPart[] = [];
  let first = 0;
  for (let part = 1; part <= parts; part += 1) {
    const count = Math.floor(request.count / parts) + (part <= request.count % parts ? 1 : 0);
    const piece: GenerateRequest = { ...request, count };
    if (request.seed !== undefined) piece.seed = seedFromBigInt(seedToBigInt(request.seed) + BigInt(first));
    if (key !== undefined && part > 1) piece.idempotencyKey = `${key}#${part}/${parts}`;
    out.push({ request: piece, first, part, parts });
    first += count;
  }
  return out;
}

/** The line each part's trace keeps: which images of the whole batch it makes. */
export function partMessage(p: BatchPart, total: number, kind: string): string {
  const last = p.first + p.request.count;
  return `Images ${p.first + 1}${p.request.count > 1 ? `–${last}` : ''} of a batch of ${total}, split across the ${kind} servers (part ${p.part} of ${p.parts}).`;
}
