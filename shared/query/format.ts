import type { Clause, DateMatch, NumberMatch, Query, RatioMatch, SeedMatch, Term } from './ast.js';

/** A value as typed: bare when it has no space, quote, bar or leading dash, else in quotes with escapes. */
function value(text: string): string {
  return /^[^\s"|-][^\s"|]*$/u.test(text) ? text : `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function number(m: NumberMatch): string {
  return 'from' in m ? `${m.from}-${m.to}` : `${m.op === '=' ? '' : m.op}${m.value}`;
}

function seed(m: SeedMatch): string {
  if ('exact' in m) return m.exact;
  if ('prefix' in m) return `${m.prefix}*`;
  return `${m.from}-${m.to}`;
}

function date(m: DateMatch): string {
  if ('relative' in m) return m.relative;
  if ('lastDays' in m) return `${m.lastDays}d`;
  return m.from === m.to ? m.from : `${m.from}..${m.to}`;
}

function ratio(m: RatioMatch): string {
  return 'shape' in m ? m.shape : `${m.w}:${m.h}`;
}

/** A word that would read as something else (a key, a negation, a quote) is written as a phrase's text would be. */
function word(text: string): string {
  return /^[A-Za-z]+:/.test(text) || !/^[^\s"|-][^\s"|]*$/u.test(text)
    ? `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`
    : text;
}

export function formatTerm(t: Term): string {
  switch (t.kind) {
    case 'word':
      return word(t.text);
    case 'phrase':
      return `"${t.text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    case 'text':
      return `${t.key}:${value(t.text)}`;
    case 'number':
      return `${t.key}:${number(t.match)}`;
    case 'seed':
      return `seed:${seed(t.match)}`;
    case 'size':
      return `size:${t.w}x${t.h}`;
    case 'ratio':
      return `ratio:${ratio(t.match)}`;
    case 'date':
      return `date:${date(t.match)}`;
    case 'is':
      return `is:${t.value}`;
    case 'from':
      return `from:${t.imageId}`;
    case 'sweep':
      return `sweep:${t.id}`;
  }
}

function clause(c: Clause): string {
  return `${c.negated ? '-' : ''}${c.anyOf.map(formatTerm).join(' | ')}`;
}

/** The canonical text of a query: parsing it gives the same query back. */
export function formatQuery(q: Query): string {
  return q.clauses.map(clause).join(' ');
}
