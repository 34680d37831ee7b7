/**
 * The AUTOMATIC1111 `parameters` infotext (docs/provider-protocols.md §4.1): `create_infotext` to write,
 * `parse_generation_parameters` to read, mirrored rule for rule so A1111, Forge and SD.Next read ours back.
 */
import { normalizeSeed, type Seed } from '../../../shared/seed.js';
import { paramEntries } from './a1111-params-line.js';

export interface A1111Settings {
  prompt: string;
  negativePrompt?: string;
  steps?: number;
  sampler?: string;
  cfgScale?: number;
  seed?: Seed;
  width?: number;
  height?: number;
  model?: string;
  /** Any further `Key: value` entries, in order, written after Model. */
  extra?: Array<[string, string | number]>;
}

export interface A1111Parameters {
  prompt: string;
  negativePrompt: string;
  /** Every `Key: value` of the params line, quotes decoded; `Size` also as `Size-1` / `Size-2`. */
  params: Record<string, string>;
  steps?: number;
  sampler?: string;
  cfgScale?: number;
  seed?: Seed;
  width?: number;
  height?: number;
  model?: string;
}

/**
 * A1111's `quote`: JSON-quote a value containing a comma, newline or colon. Also quotes a value that starts with
 * a double quote, which A1111 leaves bare and its own reader would then mis-decode.
 */
export function quoteValue(value: string | number): string {
  const text = String(value);
  return /[,\n:]/.test(text) || text.startsWith('"') ? JSON.stringify(text) : text;
}

export function formatParameters(settings: A1111Settings): string {
  const params: Array<[string, string | number | undefined]> = [
    ['Steps', settings.steps],
    ['Sampler', settings.sampler],
    ['CFG scale', settings.cfgScale],
    ['Seed', settings.seed],
    [
      'Size',
      settings.width !== undefined && settings.height !== undefined
        ? `${settings.width}x${settings.height}`
        : undefined,
    ],
    ['Model', settings.model],
    ...(settings.extra ?? []),
  ];
  const line = params
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => (key === String(value) ? key : `${key}: ${quoteValue(value)}`))
    .join(', ');
  const negative = settings.negativePrompt ? `\nNegative prompt: ${settings.negativePrompt}` : '';
  return `${settings.prompt}${negative}\n${line}`.trim();
}

function decodeQuoted(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      const decoded: unknown = JSON.parse(value);
      if (typeof decoded === 'string') return decoded;
    } catch {
      // A1111 keeps the raw text when the quotes are not valid JSON.
    }
  }
  return value;
}

function toNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function parseParameters(text: string): A1111Parameters {
  const lines = text.trim().split('\n');
  const last = lines.pop() ?? '';
  let found = paramEntries(last);
  if (found.length < 3) {
    lines.push(last);
    found = [];
  }
  let prompt = '';
  let negativePrompt = '';
  let doneWithPrompt = false;
  for (const raw of lines) {
    let line = raw.trim();
    if (line.startsWith('Negative prompt:')) {
      doneWithPrompt = true;
      line = line.slice(16).trim();
    }
    if (doneWithPrompt) negativePrompt += (negativePrompt === '' ? '' : '\n') + line;
    else prompt += (prompt === '' ? '' : '\n') + line;
  }
  // Collected in a Map, then defined as own properties: a key like "__proto__" stays plain data.
  const entries = new Map<string, string>();
  for (const [rawKey, rawValue] of found) {
    const key = rawKey.trim();
    const value = decodeQuoted(rawValue.trim());
    entries.set(key, value);
    if (key === 'Size') {
      const [w, h] = value.split('x');
      if (w !== undefined && h !== undefined) {
        entries.set('Size-1', w);
        entries.set('Size-2', h);
      }
    }
  }
  const params: Record<string, string> = Object.fromEntries(entries);
  const result: A1111Parameters = { prompt, negativePrompt, params };
  const own = (key: string): string | undefined => entries.get(key);
  const steps = toNumber(own('Steps'));
  const cfgScale = toNumber(own('CFG scale'));
  // From its digits, not a float: a 64-bit seed (Fooocus, ComfyUI) keeps every digit.
  const seed = normalizeSeed(own('Seed')) ?? undefined;
  const width = toNumber(own('Size-1'));
  const height = toNumber(own('Size-2'));
  if (steps !== undefined) result.steps = steps;
  const sampler = own('Sampler');
  if (sampler !== undefined) result.sampler = sampler;
  if (cfgScale !== undefined) result.cfgScale = cfgScale;
  if (seed !== undefined) result.seed = seed;
  if (width !== undefined) result.width = width;
  if (height !== undefined) result.height = height;
  const model = own('Model');
  if (model !== undefined) result.model = model;
  return result;
}
