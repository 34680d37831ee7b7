import {
  IS_VALUES,
  NUMBER_KEYS,
  RATIO_WORDS,
  TEXT_KEYS,
  type Clause,
  type Comparison,
  type DateMatch,
  type NumberKey,
  type NumberMatch,
  type ParseResult,
  type QueryError,
  type Term,
  type TextKey,
} from './ast.js';
import { nearestKey } from './did-you-mean.js';
import { scan, type Token } from './scan.js';

const MAX_SEED = 18446744073709551615n;
const ALIASES: Record<string, string> = { guidance: 'cfg', width: 'w', height: 'h', stars: 'rating' };
const KEYS = [...TEXT_KEYS, ...NUMBER_KEYS, 'seed', 'size', 'ratio', 'date', 'is', 'from', 'sweep'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The start of an id: 8 or more of its characters (a sweep's id as the grid's header shows it). */
const ID_PREFIX = /^[0-9a-f]{8}(?:-[0-9a-f-]{0,27})?$/;

type Atom = Extract<Token, { kind: 'atom' }>;
const fail = (at: number, message: string): QueryError => ({ at, message });

function numberMatch(key: NumberKey, raw: string, at: number): NumberMatch | QueryError {
  const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(raw);
  if (range !== null) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (from > to) return fail(at, `${key}: a range goes from low to high, e.g. ${key}:${to}-${from}.`);
    return { from, to };
  }
  const compared = /^(>=|<=|>|<|=)?(\d+(?:\.\d+)?)$/.exec(raw);
  if (compared === null) return fail(at, `${key}: takes a number, a comparison (>=1024) or a range (20-30).`);
  const value = Number(compared[2]);
  if (key === 'rating' && value > 5) return fail(at, 'rating: goes from 0 to 5.');
  return { op: (compared[1] ?? '=') as Comparison, value };
}

function seedMatch(raw: string, at: number): Term | QueryError {
  const m = /^(\d{1,20})(?:(\*)|-(\d{1,20}))?$/.exec(raw);
  if (m === null) return fail(at, 'seed: takes digits, a prefix (1234*) or a range (100-200).');
  const canon = (d: string) => BigInt(d).toString();
  for (const d of [m[1], m[3]])
    if (d !== undefined && BigInt(d) > MAX_SEED) return fail(at, 'seed: goes up to 18446744073709551615.');
  if (m[2] !== undefined) return { kind: 'seed', match: { prefix: m[1]! } };
  if (m[3] !== undefined) {
    if (BigInt(m[1]!) > BigInt(m[3])) return fail(at, 'seed: a range goes from low to high.');
    return { kind: 'seed', match: { from: canon(m[1]!), to: canon(m[3]) } };
  }
  return { kind: 'seed', match: { exact: canon(m[1]!) } };
}

function realDay(text: string): boolean {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number?];
  if (m < 1 || m > 12) return false;
  if (d === undefined) return true;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function dateMatch(raw: string, at: number): DateMatch | QueryError {
  const value = raw.toLowerCase();
  if (value === 'today' || value === 'yesterday') return { relative: value };
  const days = /^(\d{1,5})d$/.exec(value);
  if (days !== null) return { lastDays: Number(days[1]) };
  const part = '\\d{4}-\\d{2}(?:-\\d{2})?';
  const m = new RegExp(`^(${part})(?:\\.\\.(${part}))?$`).exec(value);
  if (m === null)
    return fail(at, 'date: is today, yesterday, 7d, 2026-11, 2026-11-30, or a range 2026-01-01..2026-03-31.');
  const from = m[1]!;
  const to = m[2] ?? from;
  if (!realDay(from) || !realDay(to))
    return fail(at, `date: ${!realDay(from) ? from : to} is not a date on the calendar.`);
  if (from.length !== to.length) return fail(at, 'date: both ends of a range are months, or both are days.');
  if (from > to) return fail(at, 'date: a range goes from the earlier date to the later.');
  return { from, to };
}

/** One atom as a term: a word, a phrase, or a typed key with its value checked. */
function term(atom: Atom, key: string | null): Term | QueryError {
  const { value, valueAt } = atom;
  if (key === null) return atom.quoted ? { kind: 'phrase', text: value } : { kind: 'word', text: value };
  const k = ALIASES[key] ?? key;
  if ((TEXT_KEYS as readonly string[]).includes(k)) {
    if (value.trim().length === 0) return fail(valueAt, `Give ${k}: a value.`);
    return { kind: 'text', key: k as TextKey, text: value };
  }
  if (atom.quoted && k !== 'date') return fail(valueAt, `${k}: takes a plain value, not a quoted one.`);
  if ((NUMBER_KEYS as readonly string[]).includes(k)) {
    const match = numberMatch(k as NumberKey, value, valueAt);
    return 'message' in match ? match : { kind: 'number', key: k as NumberKey, match };
  }
  if (k === 'seed') return seedMatch(value, valueAt);
  if (k === 'size') {
    const m = /^(\d{1,5})x(\d{1,5})$/i.exec(value);
    return m === null
      ? fail(valueAt, 'size: is width x height, e.g. size:512x768.')
      : { kind: 'size', w: Number(m[1]), h: Number(m[2]) };
  }
  if (k === 'ratio') {
    const lower = value.toLowerCase();
    if ((RATIO_WORDS as readonly string[]).includes(lower))
      return { kind: 'ratio', match: { shape: lower as (typeof RATIO_WORDS)[number] } };
    const m = /^(\d{1,4}):(\d{1,4})$/.exec(value);
    if (m === null || Number(m[1]) === 0 || Number(m[2]) === 0)
      return fail(valueAt, 'ratio: is portrait, landscape, square, or w:h like 16:9.');
    return { kind: 'ratio', match: { w: Number(m[1]), h: Number(m[2]) } };
  }
  if (k === 'date') {
    const match = dateMatch(value, valueAt);
    return 'message' in match ? match : { kind: 'date', match };
  }
  if (k === 'is') {
    const lower = value.toLowerCase();
    if (!(IS_VALUES as readonly string[]).includes(lower))
      return fail(valueAt, `is: is one of ${IS_VALUES.join(', ')}.`);
    return { kind: 'is', value: lower as (typeof IS_VALUES)[number] };
  }
  if (k === 'from') {
    const id = value.toLowerCase();
    return UUID.test(id)
      ? { kind: 'from', imageId: id }
      : fail(valueAt, "from: takes an image's id, as the details panel's “Made from this image” uses it.");
  }
  if (k === 'sweep') {
    const id = value.toLowerCase();
    return UUID.test(id) || ID_PREFIX.test(id)
      ? { kind: 'sweep', id }
      : fail(valueAt, "sweep: takes a sweep's id, or its first 8 or more characters.");
  }
  const near = nearestKey(key, [...KEYS, ...Object.keys(ALIASES)]);
  if (near !== null)
    return fail(atom.at, `There is no key "${key}:". Did you mean ${near}:? To search for the text, put it in quotes.`);
  return fail(
    atom.at,
    `There is no key "${key}:". Keys: ${KEYS.join(', ')}. To search for the text, put it in quotes.`,
  );
}

/**
 * Parses the search box: free words, "phrases", -negation, `a | b`, and typed keys. Never throws: a query that
 * cannot be parsed answers where and why, never a guess at what was meant.
 */
export function parseQuery(text: string): ParseResult {
  const tokens = scan(text);
  if ('message' in tokens) return { ok: false, error: tokens };
  const clauses: Clause[] = [];
  let current: Clause | null = null;
  let lastKey: string | null = null;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.kind === 'bar') {
      const next = tokens[i + 1];
      if (current === null || next === undefined || next.kind === 'bar')
        return { ok: false, error: fail(token.at, '"|" goes between two alternatives, e.g. fox | wolf.') };
      if (next.negated)
        return { ok: false, error: fail(next.at, 'Put the "-" before the first alternative: -a | b leaves out both.') };
      // model:a|b: the value after a tight bar belongs to the same key.
      const inherit: string | null = token.tight && next.key === null && !next.quoted ? lastKey : next.key;
      const t = term(next, inherit);
      if ('message' in t) return { ok: false, error: t };
      current.anyOf.push(t);
      lastKey = inherit;
      i += 1;
      continue;
    }
    const t = term(token, token.key);
    if ('message' in t) return { ok: false, error: t };
    current = { negated: token.negated, anyOf: [t] };
    lastKey = token.key;
    clauses.push(current);
  }
  return { ok: true, query: { clauses } };
}
