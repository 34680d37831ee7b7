import { seedString, type LoraRef, type ReadSettings } from './types.js';

/** Settings being filled from one generator's fields, with the fields that did not parse. */
export interface Fill {
  settings: ReadSettings;
  problems: string[];
}

/** An empty fill; `problems` given, its field problems are added to that list. */
export function newFill(problems: string[] = []): Fill {
  return { settings: {}, problems };
}

/** A finite number from a number, a safe bigint or a numeric string. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A positive whole number (steps, width, height). */
export function asCount(value: unknown): number | undefined {
  const n = asNumber(value);
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function asText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asSeed(value: unknown): string | undefined {
  return seedString(value);
}

/** Shown in a problem: short, flat (a nested value is named, never walked), never the whole of a huge value. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'an object';
  // Only the head is quoted: one huge value named by many fields must not be copied whole each time.
  const text = typeof value === 'string' ? JSON.stringify(value.slice(0, 41)) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Sets one setting from a raw field: absent (undefined, null, empty text) is skipped; present but unparseable is
 * named in the problems, with where it came from.
 */
export function put<K extends keyof ReadSettings>(
  fill: Fill,
  key: K,
  raw: unknown,
  coerce: (value: unknown) => ReadSettings[K] | undefined,
  where: string,
): void {
  if (raw === undefined || raw === null || raw === '') return;
  const value = coerce(raw);
  if (value === undefined || value === '') fill.problems.push(`${where}: ${describe(raw)} could not be read`);
  else fill.settings[key] = value;
}

/** One LoRA from its name and weight fields; undefined when the name is missing. */
export function lora(name: unknown, weight: unknown, hash?: unknown): LoraRef | undefined {
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  const ref: LoraRef = { name: name.trim() };
  const w = asNumber(weight);
  if (w !== undefined) ref.weight = w;
  if (typeof hash === 'string' && hash !== '') ref.hash = hash;
  return ref;
}

/** Sets `loras` when there is at least one. */
export function putLoras(fill: Fill, loras: ReadonlyArray<LoraRef | undefined>): void {
  const found = loras.filter((ref): ref is LoraRef => ref !== undefined);
  if (found.length > 0) fill.settings.loras = found;
}

/** Small helpers every generator reader shares: a field that does not parse is named in `problems`, never thrown. */

export function numberField(value: unknown, label: string, problems: string[]): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (Number.isFinite(n)) return n;
  problems.push(`${label} ${JSON.stringify(value)} is not a number.`);
  return undefined;
}

export function textField(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Drops undefined fields, so a reader's settings hold only what the file said. */
export function compact(settings: ReadSettings): ReadSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as ReadSettings;
}

/** JSON.parse that answers undefined instead of throwing; objects only (NovelAI, EasyDiffusion: 32-bit seeds, so json.ts's lossless parse is not needed). */
export function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
