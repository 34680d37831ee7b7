import type { LoraSpec } from '../../../shared/contract';
import { MAX_LORAS } from '../common/contract-constants';

// The contract's bounds for one LoRA (shared/contract/loras.ts): a draft never holds what a submit would refuse.
const MAX_NAME = 200;
const MAX_WEIGHT = 4;
// eslint-disable-next-line no-control-regex -- the contract's own rule: a name holds no control characters.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * LoRAs a draft may hold, from anything: a request, an imported file's `metadata.loras` (weight absent → 1, the LoRA
 * as trained) or a saved draft. Entries that are not a named LoRA are dropped; weights are kept within ±4.
 */
export function draftLoras(raw: unknown): LoraSpec[] {
  if (!Array.isArray(raw)) return [];
  const out: LoraSpec[] = [];
  for (const entry of raw as unknown[]) {
    if (entry === null || typeof entry !== 'object') continue;
    const { name, weight } = entry as { name?: unknown; weight?: unknown };
    if (typeof name !== 'string') continue;
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > MAX_NAME || CONTROL.test(trimmed)) continue;
    const w = weight === undefined || weight === null ? 1 : weight;
    if (typeof w !== 'number' || !Number.isFinite(w)) continue;
    out.push({ name: trimmed, weight: Math.max(-MAX_WEIGHT, Math.min(MAX_WEIGHT, w)) });
    if (out.length >= MAX_LORAS) break;
  }
  return out;
}
