import { IMAGE_SOURCES, JOB_STATUSES, type SuggestResult, type Suggestion } from '../../shared/contract.js';
import { IS_VALUES, KEY_HELP, RATIO_WORDS } from '../../shared/query/index.js';
import type { StoreContext } from './context.js';
import { foldForSearch } from './fold.js';

const MAX_ITEMS = 12;
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
export function createSuggest(ctx: StoreContext) {
  const facet = ctx.sql.prepare<{ label: string; jobs: number }>(
    'suggest.facet',
    'SELECT label, jobs FROM facet_values WHERE kind = ? AND jobs > 0 AND instr(key, ?) > 0 ORDER BY jobs DESC, key LIMIT ?',
  );
  const tags = ctx.sql.prepare<{ name: string; images: number }>(
    'suggest.tags',
    'SELECT name, images FROM tags WHERE images > 0 AND instr(key, ?) > 0 ORDER BY images DESC, key LIMIT ?',
  );
  const boards = ctx.sql.prepare<{ name: string; images: number }>(
    'suggest.boards',
    'SELECT name, images FROM boards WHERE instr(key, ?) > 0 ORDER BY key LIMIT ?',
  );

  function values(key: string, partial: string): Array<{ value: string; count?: number }> {
    const folded = foldForSearch(partial).trim();
    const words = (list: readonly string[]) => list.filter((w) => w.startsWith(folded)).map((value) => ({ value }));
    switch (key) {
      case 'model':
      case 'sampler':
      case 'scheduler':
      case 'lora':
        return facet.all(key, folded, MAX_ITEMS).map((r) => ({ value: r.label, count: r.jobs }));
      case 'tag':
        return tags.all(folded, MAX_ITEMS).map((r) => ({ value: r.name, count: r.images }));
      case 'board':
        return boards.all(folded, MAX_ITEMS).map((r) => ({ value: r.name, count: r.images }));
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

  return (text: string, cursor: number): SuggestResult => {
    const at = Math.min(cursor, text.length);
    const atom = atomAt(text, at);
    if (atom.key === null) {
      const typed = atom.value.toLowerCase();
      if (typed.length === 0) return { items: [], from: atom.from, to: atom.to };
      const items: Suggestion[] = KEY_HELP.filter((k) => k.key.startsWith(typed) && k.key !== typed).map((k) => ({
        label: `${k.key}:`,
        insert: `${k.key}:`,
        kind: 'key',
        hint: k.hint,
      }));
      return { items: items.slice(0, MAX_ITEMS), from: atom.from, to: atom.to };
    }
    const key = ALIASES[atom.key] ?? atom.key;
    // In `model:a|b`, only the value after the last bar is replaced.
    const typedValue = text.slice(atom.from, at);
    const bar = typedValue.lastIndexOf('|');
    const from = bar >= 0 ? atom.from + bar + 1 : atom.from;
    const prefix = bar >= 0 ? '' : `${atom.key}:`;
    const items: Suggestion[] = values(key, atom.value).map((v) => ({
      label: v.value,
      insert: `${prefix}${quoteValue(v.value)}`,
      kind: 'value',
      ...(v.count !== undefined && { count: v.count }),
    }));
    return { items, from, to: atom.to };
  };
}
