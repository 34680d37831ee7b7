import { COUNT_CAP, IMAGE_SOURCES, JOB_STATUSES, type SuggestResult, type Suggestion } from '../../shared/contract.js';
import { IS_VALUES, KEY_HELP, RATIO_WORDS } from '../../shared/query/index.js';
import { samplerKey, samplerLabel } from '../../shared/query/samplers.js';
import type { StoreContext } from './context.js';
import type { CountStatement } from './count-worker.js';
import { foldForSearch } from './fold.js';
import type { CompiledQuery } from './query/compile.js';
import { matchWhere } from './query/match.js';

const MAX_ITEMS = 12;
/** Values read before grouping spellings and narrowing by the rest of the query (each then counted). */
const CANDIDATES = 40;

/** A value to offer: its label, the stored keys it stands for, and how many hold it. */
interface Value {
  value: string;
  count?: number;
  /** What the narrowing counts match: the facet keys, or a tag's id. */
  keys?: string[];
  tagId?: number;
}

/**
 * Suggestions as a plan: the answer at once, or (narrowed by the rest of the query) the statements that count each
 * value among the rest's matches, to run off the main thread, and how their numbers become the answer.
 */
export type SuggestPlan =
  | { result: SuggestResult }
  | { statements: CountStatement[]; version: number; finish(numbers: number[]): SuggestResult };
const ALIASES: Record<string, string> = { guidance: 'cfg', width: 'w', height: 'h', stars: 'rating' };

/** A value as the query language reads it back: quoted (with escapes) when it holds a space, a quote or a bar. */
export function quoteValue(value: string): string {
  return /[\s"|\\]/u.test(value) || value.length === 0 ? `"${value.replace(/[\\"]/g, '\\$&')}"` : value;
}

/** The atom under the caret: where it starts (after any `-`), where it ends, and its key and partial value. */
function atomAt(text: string, cursor: number): { from: number; to: number; key: string | null; value: string } {
  let from = cursor;
  while (from > 0 && !/\s/u.test(text[from - 1]!)) from -= 1;
  let to = cursor;
  while (to < text.length && !/\s/u.test(text[to]!)) to += 1;
  if (text[from] === '-') from += 1;
  const typed = text.slice(from, cursor);
  const m = /^([A-Za-z]+):(.*)$/su.exec(typed);
  if (m === null) return { from, to, key: null, value: typed };
  return { from, to, key: m[1]!.toLowerCase(), value: m[2]!.replace(/^"/, '').split('|').pop()! };
}

/** Suggestions for the search box: keys while typing a word, the library's own values after `key:`. */
export function createSuggest(ctx: StoreContext, compile: (search: string) => CompiledQuery | undefined) {
  const facet = ctx.sql.prepare<{ key: string; label: string; jobs: number }>(
    'suggest.facet',
    'SELECT key, label, jobs FROM facet_values WHERE kind = ? AND jobs > 0 AND instr(key, ?) > 0 ORDER BY jobs DESC, key LIMIT ?',
  );
  const samplers = ctx.sql.prepare<{ key: string; label: string; jobs: number }>(
    'suggest.samplers',
    "SELECT key, label, jobs FROM facet_values WHERE kind = 'sampler' AND jobs > 0 ORDER BY jobs DESC, key",
  );
  const tags = ctx.sql.prepare<{ id: number; name: string; images: number }>(
    'suggest.tags',
    'SELECT id, name, images FROM tags WHERE images > 0 AND instr(key, ?) > 0 ORDER BY images DESC, key LIMIT ?',
  );
  const version = ctx.sql.prepare<{ n: number }>('suggest.version', 'SELECT total_changes() AS n');

  /** Samplers grouped by name: one "Euler a" for euler_ancestral, k_euler_ancestral and Euler a, jobs summed. */
  function samplerValues(folded: string): Value[] {
    const wanted = samplerKey(folded);
    const groups = new Map<string, Value & { count: number; keys: string[] }>();
    for (const row of samplers.all()) {
      if (!row.key.includes(folded) && !samplerKey(row.key).includes(wanted)) continue;
      const label = samplerLabel(row.label, row.key);
      const group = groups.get(label) ?? { value: label, count: 0, keys: [] };
      group.count += row.jobs;
      group.keys.push(row.key);
      groups.set(label, group);
    }
    return [...groups.values()].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  }
  const boards = ctx.sql.prepare<{ name: string; images: number }>(
    'suggest.boards',
    'SELECT name, images FROM boards WHERE instr(key, ?) > 0 ORDER BY key LIMIT ?',
  );

  function values(key: string, partial: string, limit: number): Value[] {
    const folded = foldForSearch(partial).trim();
    const words = (list: readonly string[]) => list.filter((w) => w.startsWith(folded)).map((value) => ({ value }));
    switch (key) {
      case 'sampler':
        return samplerValues(folded).slice(0, limit);
      case 'model':
      case 'scheduler':
      case 'lora':
        return facet.all(key, folded, limit).map((r) => ({ value: r.label, count: r.jobs, keys: [r.key] }));
      case 'tag':
        return tags.all(folded, limit).map((r) => ({ value: r.name, count: r.images, tagId: r.id }));
      case 'board':
        return boards.all(folded, limit).map((r) => ({ value: r.name, count: r.images }));
      case 'source':
        return words(IMAGE_SOURCES);
      case 'status':
        return words(JOB_STATUSES);
      case 'is':
        return words(IS_VALUES);
      case 'ratio':
        return words([...RATIO_WORDS, '16:9', '9:16', '4:3', '3:2', '2:3']);
      case 'date':
        return words(['today', 'yesterday', '7d', '30d']);
      case 'rating':
        return words(['>=4', '5', '0']);
      default:
        return [];
    }
  }

  /** The condition that a job (j) or image (i) holds the value, for counting it among the rest's matches. */
  function holds(key: string, v: Value): { sql: string; params: unknown[] } | null {
    const keys = v.keys ?? [];
    const list = keys.map(() => '?').join(', ');
    if (key === 'lora' && keys.length > 0)
      return {
        sql: `EXISTS (SELECT 1 FROM job_loras AS jl WHERE jl.job_id = j.id AND jl.key IN (${list}))`,
        params: keys,
      };
    if ((key === 'model' || key === 'sampler' || key === 'scheduler') && keys.length > 0)
      return { sql: `j.${key}_key IN (${list})`, params: keys };
    if (key === 'tag' && v.tagId !== undefined)
      return {
        sql: 'EXISTS (SELECT 1 FROM image_tags AS t WHERE t.image_id = i.id AND t.tag_id = ?)',
        params: [v.tagId],
      };
    return null;
  }

  /** The rest of the query (the clause under the caret left out), compiled; null when there is none or it is unread. */
  function rest(text: string, from: number, to: number): { search: string; compiled: CompiledQuery } | null {
    const start = from > 0 && text[from - 1] === '-' ? from - 1 : from;
    const search = `${text.slice(0, start)} ${text.slice(to)}`.trim();
    if (search.length === 0) return null;
    try {
      const compiled = compile(search);
      return compiled === undefined ? null : { search, compiled };
    } catch {
      // A rest that cannot be read yet (typing) narrows nothing: the values are offered as they stand.
      return null;
    }
  }

  function plan(text: string, cursor: number): SuggestPlan {
    const at = Math.min(cursor, text.length);
    const atom = atomAt(text, at);
    if (atom.key === null) {
      const typed = atom.value.toLowerCase();
      if (typed.length === 0) return { result: { items: [], from: atom.from, to: atom.to } };
      const items: Suggestion[] = KEY_HELP.filter((k) => k.key.startsWith(typed) && k.key !== typed).map((k) => ({
        label: `${k.key}:`,
        insert: `${k.key}:`,
        kind: 'key',
        hint: k.hint,
      }));
      return { result: { items: items.slice(0, MAX_ITEMS), from: atom.from, to: atom.to } };
    }
    const key = ALIASES[atom.key] ?? atom.key;
    // In `model:a|b`, only the value after the last bar is replaced.
    const typedValue = text.slice(atom.from, at);
    const bar = typedValue.lastIndexOf('|');
    const from = bar >= 0 ? atom.from + bar + 1 : atom.from;
    const prefix = bar >= 0 ? '' : `${atom.key}:`;
    const answer = (list: Value[]): SuggestResult => ({
      items: list.slice(0, MAX_ITEMS).map((v) => ({
        label: v.value,
        insert: `${prefix}${quoteValue(v.value)}`,
        kind: 'value',
        ...(v.count !== undefined && { count: v.count }),
      })),
      from,
      to: atom.to,
    });
    const others = rest(text, atom.from, atom.to);
    const narrowable = others !== null && ['model', 'sampler', 'scheduler', 'lora', 'tag'].includes(key);
    if (!narrowable) return { result: answer(values(key, atom.value, MAX_ITEMS)) };
    // Narrowed: each candidate counted among the images the rest of the query matches; those it has none of go.
    const candidates = values(key, atom.value, CANDIDATES).filter((v) => holds(key, v) !== null);
    const base = matchWhere({ view: 'active', search: others.search }, others.compiled, 'images');
    const statements = candidates.map((v) => {
      const held = holds(key, v)!;
      return {
        sql: `SELECT COUNT(*) AS n FROM (SELECT 1 FROM jobs AS j JOIN images AS i ON i.job_id = j.id WHERE ${[...base.where, held.sql].join(' AND ')} LIMIT ?)`,
        params: [...base.params, ...held.params, COUNT_CAP],
      };
    });
    return {
      statements,
      version: version.get()!.n,
      finish: (numbers) =>
        answer(
          candidates
            .map((v, i) => ({ ...v, count: numbers[i] ?? 0 }))
            .filter((v) => v.count > 0)
            .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
        ),
    };
  }

  /** The plan's statements run here: the store's own answer (tests, the bench); the engine runs them off the thread. */
  function suggest(text: string, cursor: number): SuggestResult {
    const p = plan(text, cursor);
    if ('result' in p) return p.result;
    return p.finish(
      p.statements.map(
        (s) => ctx.sql.cached<{ n: number }>('suggest.narrow', `narrow|${s.sql}`, () => s.sql).get(...s.params)!.n,
      ),
    );
  }

  return { suggest, plan };
}
