import { CONTROL_CHARS, MODEL_KINDS, type ModelKind, type ServerModel } from '../../shared/contract.js';

/** Bounds on what one server may list: past them the rest is dropped, never an error. */
export const LIBRARY_LIMITS = {
  /** Entries of one kind from one server. */
  perKind: 5_000,
  name: 200,
  hash: 128,
  baseModel: 64,
  triggerWords: 32,
  triggerWord: 100,
  /** Tags read from one LoRA's ss_tag_frequency (its folders' counts together). */
  tagsRead: 10_000,
  /** An ss_tag_frequency still in its JSON string form is parsed only under this length. */
  tagJson: 256 * 1024,
} as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HEX = /^[0-9a-f]+$/;

/** A server's text as a name: a string of 1..max characters, no control characters, no broken UTF-16; else undefined. */
export function cleanText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.length > max * 4 ? '' : value.trim();
  if (trimmed.length === 0 || trimmed.length > max || CONTROL_CHARS.test(trimmed) || LONE_SURROGATE.test(trimmed))
    return undefined;
  return trimmed;
}

/** A content hash as hex, lower case: at least 10 digits (A1111's short hash is the sha256's first 10), else none. */
export function cleanHash(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > LIBRARY_LIMITS.hash) return undefined;
  const hex = value.trim().toLowerCase().replace(/^0x/, '');
  return hex.length >= 10 && HEX.test(hex) ? hex : undefined;
}

/**
 * The base model a LoRA's training metadata names (kohya's ss_base_model_version, ss_sd_model_name, the model spec's
 * architecture), as the short family name people filter by; an unknown one stays as written, bounded.
 */
export function baseModelOf(...said: unknown[]): string | undefined {
  for (const value of said) {
    const text = cleanText(value, 200);
    if (text === undefined) continue;
    const lower = text.toLowerCase();
    if (lower.includes('flux')) return 'flux';
    if (lower.includes('pony')) return 'pony';
    if (/sd[-_ ]?3|stable-diffusion-3/.test(lower)) return 'sd3';
    if (lower.includes('xl')) return 'sdxl';
    if (/(^|[^0-9])(v?2[-_.]?[01]|sd[-_]?v?2)([^0-9]|$)/.test(lower) || lower.includes('stable-diffusion-2'))
      return 'sd2';
    if (/(^|[^0-9])(v?1[-_.]?[45]|sd[-_]?v?1)([^0-9]|$)/.test(lower) || lower.includes('stable-diffusion-v1'))
      return 'sd15';
    return text.slice(0, LIBRARY_LIMITS.baseModel);
  }
  return undefined;
}

/** Keeps what passes the checks, each name once per kind, each kind bounded: a server's list is untrusted text. */
export function cleanServerModels(raw: readonly unknown[]): ServerModel[] {
  const seen = new Set<string>();
  const perKind = new Map<ModelKind, number>();
  const out: ServerModel[] = [];
  for (const item of raw) {
    if (item === null || typeof item !== 'object') continue;
    const entry = item as Record<string, unknown>;
    const kind = entry['kind'];
    if (typeof kind !== 'string' || !(MODEL_KINDS as readonly string[]).includes(kind)) continue;
    const name = cleanText(entry['name'], LIBRARY_LIMITS.name);
    const count = perKind.get(kind as ModelKind) ?? 0;
    if (name === undefined || count >= LIBRARY_LIMITS.perKind || seen.has(`${kind}\u0000${name}`)) continue;
    seen.add(`${kind}\u0000${name}`);
    perKind.set(kind as ModelKind, count + 1);
    const model: ServerModel = { kind: kind as ModelKind, name };
    const hash = cleanHash(entry['hash']);
    if (hash !== undefined) model.hash = hash;
    const baseModel = cleanText(entry['baseModel'], LIBRARY_LIMITS.baseModel);
    if (baseModel !== undefined) model.baseModel = baseModel;
    if (Array.isArray(entry['triggerWords'])) {
      const words: string[] = [];
      for (const word of entry['triggerWords'].slice(0, LIBRARY_LIMITS.triggerWords)) {
        const clean = cleanText(word, LIBRARY_LIMITS.triggerWord);
        if (clean !== undefined && !words.includes(clean)) words.push(clean);
      }
      if (words.length > 0) model.triggerWords = words;
    }
    out.push(model);
  }
  return out;
}
