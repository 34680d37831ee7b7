/**
 * An axis's values as typed, read into typed values: comma lists (double quotes keep a comma), numeric ranges
 * (`1-20 step 5`, `0.5-1.5 step 0.25`, A1111's `4-12 [5]` and `1-9 (+2)`), sizes (`512x768`). One pass over the
 * text with a cursor, no regular expressions: an axis of any shape is read in linear time, and no range is expanded
 * past the cap, so `1-1e9` costs nothing before it is refused.
 */
import { MAX_SEED, parseSeed, seedFromBigInt, type Seed } from '../seed.js';
import { SWEEP_CELL_CAP, type SweepAxisField } from './limits.js';

export interface Size {
  width: number;
  height: number;
}

/** What an axis sets in each cell, by field: numbers, seeds, sizes, names, or the prompt's replacements. */
export type AxisValues =
  | { kind: 'number'; values: number[] }
  | { kind: 'seed'; values: Seed[] }
  | { kind: 'size'; values: Size[] }
  | { kind: 'name'; values: string[] }
  /** A1111's S/R: `search` is the first value (its cell keeps the prompt), every value replaces it in turn. */
  | { kind: 'prompt'; search: string; values: string[] };

export type ReadValues = { ok: true; values: AxisValues; labels: string[] } | { ok: false; message: string };

interface Item {
  text: string;
  quoted: boolean;
}

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const CAP_TEXT = SWEEP_CELL_CAP.toLocaleString('en-US');

/**
 * Splits on commas outside double quotes. A quote opens only at a value's start and must close before the next
 * comma; a quote inside an unquoted value is kept as text (prompts hold quotes).
 */
export function splitItems(text: string): { ok: true; items: Item[] } | { ok: false; message: string } {
  const items: Item[] = [];
  let i = 0;
  const n = text.length;
  while (i <= n) {
    while (i < n && isSpace(text.charCodeAt(i))) i += 1;
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) return fail('A quoted value has no closing quote (").');
      const value = text.slice(i + 1, close);
      i = close + 1;
      while (i < n && isSpace(text.charCodeAt(i))) i += 1;
      if (i < n && text[i] !== ',') return fail(`After the quoted value "${clip(value)}" comes a comma, or the end.`);
      items.push({ text: value, quoted: true });
    } else {
      const comma = text.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      const value = text.slice(i, end).trim();
      if (value.length === 0)
        return fail(
          items.length === 0 && comma < 0
            ? 'Give the values of the axis.'
            : 'A value is empty between two commas (an empty text is written "").',
        );
      items.push({ text: value, quoted: false });
      i = end;
    }
    if (items.length > SWEEP_CELL_CAP) return fail(`An axis has at most ${CAP_TEXT} values.`);
    if (i >= n) break;
    i += 1; // the comma
    if (i >= n) return fail('A value is missing after the last comma.');
  }
  return { ok: true, items };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** A cursor over one value: numbers with an optional sign, words, single characters. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  spaces(): void {
    while (this.i < this.s.length && isSpace(this.s.charCodeAt(this.i))) this.i += 1;
  }
  done(): boolean {
    this.spaces();
    return this.i >= this.s.length;
  }
  take(ch: string): boolean {
    this.spaces();
    if (this.s[this.i] !== ch) return false;
    this.i += 1;
    return true;
  }
  word(w: string): boolean {
    this.spaces();
    if (this.s.slice(this.i, this.i + w.length).toLowerCase() !== w) return false;
    this.i += w.length;
    return true;
  }
  /** Decimal text of a number (`-0.5`, `.25`, `12`), or null; signs only where `signed`. */
  number(signed: boolean): string | null {
    this.spaces();
    const start = this.i;
    if (signed && (this.s[this.i] === '-' || this.s[this.i] === '+')) this.i += 1;
    const digitsFrom = this.i;
    while (this.i < this.s.length && isDigit(this.s.charCodeAt(this.i))) this.i += 1;
    let digits = this.i - digitsFrom;
    if (this.s[this.i] === '.') {
      this.i += 1;
      const from = this.i;
      while (this.i < this.s.length && isDigit(this.s.charCodeAt(this.i))) this.i += 1;
      digits += this.i - from;
    }
    if (digits === 0) {
      this.i = start;
      return null;
    }
    return this.s.slice(start, this.i);
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** One value read as a number or a range: its ends and either a step or a count. */
type NumberItem =
  { single: string } | { from: string; to: string; step?: string; count?: string; signedStep?: boolean };

/**
 * `a`, `a-b`, `a-b step s`, `a-b [n]`, `a-b (+s)`; a negative end is written with its sign (`-1--0.5 step 0.25`:
 * the first `-` after a number separates the ends).
 */
function readNumberItem(text: string, signed: boolean): NumberItem | null {
  const c = new Cursor(text);
  const from = c.number(signed);
  if (from === null) return null;
  if (c.done()) return { single: from };
  if (!c.take('-')) return null;
  const to = c.number(signed);
  if (to === null) return null;
  if (c.done()) return { from, to };
  let out: NumberItem;
  if (c.word('step')) {
    const step = c.number(false);
    if (step === null) return null;
    out = { from, to, step };
  } else if (c.take('[')) {
    const count = c.number(false);
    if (count === null || !c.take(']')) return null;
    out = { from, to, count };
  } else if (c.take('(')) {
    // A1111 writes the step signed, `(+2)` or `(-2)`; the ends already say which way the range runs.
    if (!c.take('+')) c.take('-');
    const step = c.number(false);
    if (step === null || !c.take(')')) return null;
    out = { from, to, step };
  } else return null;
  return c.done() ? out : null;
}

// Floats as people type them: 0.1 + 0.2 steps land on 0.3, not 0.30000000000000004.
const tidy = (x: number): number => Math.round(x * 1e9) / 1e9;

/** Expands a numeric range, refusing before it builds more than `room` values. */
function numberRange(item: Extract<NumberItem, { from: string }>, room: number, integer: boolean): number[] | string {
  const a = Number(item.from);
  const b = Number(item.to);
  if (!Number.isFinite(a) || !Number.isFinite(b))
    return `${clip(item.from)}-${clip(item.to)} is past any setting's range.`;
  if (item.count !== undefined) {
    const n = Number(item.count);
    if (!Number.isInteger(n) || n < 1)
      return `In ${item.from}-${item.to} [${item.count}] the count is a whole number from 1.`;
    if (n > room) return tooMany(`${item.from}-${item.to} [${item.count}]`, n);
    if (n === 1) return [a];
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const x = a + ((b - a) * i) / (n - 1);
      out.push(integer ? Math.round(x) : tidy(x));
    }
    return out;
  }
  const step = Number(item.step ?? '1');
  if (!(step > 0)) return `In ${item.from}-${item.to} the step is more than 0.`;
  const n = Math.floor(tidy(Math.abs(b - a) / step)) + 1;
  if (n > room) return tooMany(`${item.from}-${item.to}${item.step === undefined ? '' : ` step ${item.step}`}`, n);
  const dir = b >= a ? 1 : -1;
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) out.push(tidy(a + dir * i * step));
  return out;
}

function tooMany(range: string, n: number): string {
  return `The range ${range} gives ${n.toLocaleString('en-US')} values; an axis has at most ${CAP_TEXT}.`;
}

interface NumberRule {
  label: string;
  min: number;
  max: number;
  integer: boolean;
}

const NUMBER_RULES: Partial<Record<SweepAxisField, NumberRule>> = {
  steps: { label: 'Steps', min: 1, max: 150, integer: true },
  guidance: { label: 'Guidance', min: 0, max: 30, integer: false },
  strength: { label: 'Strength', min: 0, max: 1, integer: false },
  loraWeight: { label: 'LoRA weight', min: -4, max: 4, integer: false },
};

const NUMBER_FORMS = 'a number, a list (5, 7.5, 10) or a range (1-20 step 5, 4-12 [5])';

function readNumbers(items: Item[], rule: NumberRule): ReadValues {
  const values: number[] = [];
  for (const item of items) {
    const read = readNumberItem(item.text, rule.min < 0);
    if (read === null) return fail(`"${clip(item.text)}" is not ${NUMBER_FORMS}.`);
    const room = SWEEP_CELL_CAP - values.length;
    const got = 'single' in read ? [Number(read.single)] : numberRange(read, room, rule.integer);
    if (typeof got === 'string') return fail(got);
    if (got.length > room) return fail(`An axis has at most ${CAP_TEXT} values.`);
    for (const v of got) {
      if (rule.integer && !Number.isInteger(v)) return fail(`${rule.label} is a whole number: ${v} is not.`);
      if (v < rule.min || v > rule.max)
        return fail(`${rule.label} goes from ${rule.min} to ${rule.max}: ${v} is outside.`);
      values.push(v);
    }
  }
  return { ok: true, values: { kind: 'number', values }, labels: values.map(String) };
}

function readSeeds(items: Item[]): ReadValues {
  const values: Seed[] = [];
  const digits = (text: string): bigint | null => parseSeed(text.replace(/^0+(?=\d)/, ''));
  for (const item of items) {
    const read = readNumberItem(item.text, false);
    if (read === null) return fail(`"${clip(item.text)}" is not a seed, a list of seeds or a range (100-110).`);
    const room = SWEEP_CELL_CAP - values.length;
    if ('single' in read) {
      const s = digits(read.single);
      if (s === null) return fail(`A seed is a whole number from 0 to ${MAX_SEED}: ${read.single} is not.`);
      values.push(seedFromBigInt(s));
    } else {
      const a = digits(read.from);
      const b = digits(read.to);
      const step = read.step === undefined ? 1n : digits(read.step);
      if (a === null || b === null) return fail(`A seed range has whole-number ends from 0 to ${MAX_SEED}.`);
      if (step === null || step === 0n) return fail('A seed range steps by a whole number from 1.');
      const span = a > b ? a - b : b - a;
      if (read.count !== undefined) {
        const n = digits(read.count);
        if (n === null || n < 1n) return fail('A seed range’s count is a whole number from 1.');
        if (n > BigInt(room)) return fail(tooMany(`${read.from}-${read.to} [${read.count}]`, Number(n)));
        const count = Number(n);
        for (let i = 0; i < count; i += 1) {
          const off = count === 1 ? 0n : (span * BigInt(i)) / BigInt(count - 1);
          values.push(seedFromBigInt(b >= a ? a + off : a - off));
        }
      } else {
        const n = span / step + 1n;
        if (n > BigInt(room)) return fail(tooMany(`${read.from}-${read.to}`, Number(n)));
        for (let i = 0n; i < n; i += 1n) values.push(seedFromBigInt(b >= a ? a + i * step : a - i * step));
      }
    }
    if (values.length > SWEEP_CELL_CAP) return fail(`An axis has at most ${CAP_TEXT} values.`);
  }
  return { ok: true, values: { kind: 'seed', values }, labels: values.map(String) };
}

function readSizes(items: Item[]): ReadValues {
  const values: Size[] = [];
  for (const item of items) {
    const c = new Cursor(item.text);
    const w = c.number(false);
    const x = w !== null && (c.take('x') || c.take('X') || c.take('×'));
    const h = x ? c.number(false) : null;
    if (w === null || h === null || !c.done())
      return fail(`"${clip(item.text)}" is not a size: write width x height, e.g. 512x768.`);
    const size = { width: Number(w), height: Number(h) };
    for (const v of [size.width, size.height])
      if (!Number.isInteger(v) || v < 64 || v > 4096)
        return fail(`A size's sides are whole numbers from 64 to 4096: ${item.text.trim()} is not.`);
    values.push(size);
  }
  return { ok: true, values: { kind: 'size', values }, labels: values.map((s) => `${s.width}x${s.height}`) };
}

const NAME_MAX: Partial<Record<SweepAxisField, number>> = {
  sampler: 64,
  scheduler: 64,
  model: 200,
  lora: 200,
  provider: 68,
};
const NAME_WORD: Partial<Record<SweepAxisField, string>> = {
  sampler: 'sampler',
  scheduler: 'scheduler',
  model: 'model',
  lora: 'LoRA',
  provider: 'provider',
};
// The contract's ProviderTarget: an instance id, or any:<kind>.
const PROVIDER = /^(?:any:)?[a-z0-9][a-z0-9_-]{0,63}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function readNames(items: Item[], field: SweepAxisField): ReadValues {
  const max = NAME_MAX[field] ?? 200;
  const word = NAME_WORD[field] ?? field;
  const values: string[] = [];
  for (const item of items) {
    const name = item.text.trim();
    if (name.length === 0) return fail(`A ${word} name cannot be empty.`);
    if (name.length > max) return fail(`A ${word} name is at most ${max} characters: "${clip(name)}" is longer.`);
    if (CONTROL.test(name)) return fail(`A ${word} name cannot contain control characters.`);
    if (field === 'provider' && !PROVIDER.test(name))
      return fail(
        `"${clip(name)}" is not a provider: an instance id such as comfyui, or any:<kind> such as any:comfyui.`,
      );
    values.push(name);
  }
  return { ok: true, values: { kind: 'name', values }, labels: values };
}

function readPrompt(items: Item[], basePrompt: string | undefined): ReadValues {
  const search = items[0]!.text;
  if (search.length === 0) return fail('The first value is the text to search for in the prompt: it cannot be empty.');
  if (basePrompt !== undefined && !basePrompt.includes(search))
    return fail(
      `The first value, "${clip(search)}", is the text replaced in each cell: the prompt does not contain it.`,
    );
  const values = items.map((i) => i.text);
  return { ok: true, values: { kind: 'prompt', search, values }, labels: values };
}

/**
 * Reads one axis's values for its field. `basePrompt`, when given, is checked to hold a prompt axis's search text.
 * Never throws: an answer is either the values with their labels (the grid's headers) or a message that says why.
 */
export function readAxisValues(field: SweepAxisField, text: string, basePrompt?: string): ReadValues {
  const split = splitItems(text);
  if (!split.ok) return split;
  const { items } = split;
  const rule = NUMBER_RULES[field];
  if (rule !== undefined) return readNumbers(items, rule);
  switch (field) {
    case 'seed':
      return readSeeds(items);
    case 'size':
      return readSizes(items);
    case 'prompt':
      return readPrompt(items, basePrompt);
    default:
      return readNames(items, field);
  }
}

/** How many values an axis takes (0 when it does not read): the composer's count as the person types. */
export function countAxisValues(field: SweepAxisField, text: string): number {
  const read = readAxisValues(field, text);
  return read.ok ? read.labels.length : 0;
}
