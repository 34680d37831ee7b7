import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListPage, type JobStatus, type ListQuery } from '../../../shared/contract.js';
import { foldForSearch, searchTerms } from '../../../electron/db/fold.js';
import { matchAll, termTokens } from '../../../electron/db/grams.js';
import { planList, type PlanMode, type PlanOptions } from '../../../electron/db/query/list-plan.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { uuidv7 } from '../../../shared/ids.js';
import { finished, manualClock, open, req, tempDir } from './helpers.js';
import type { JobStore } from '../../../electron/db/types.js';

const q = (extra: Partial<ListQuery> = {}): ListQuery => ({ limit: 60, view: 'active', ...extra });

/**
 * Search tunings that force each strategy on small data: the index at once (budget 0, any threshold), a walk
 * that sees everything (huge budget), and a short walk followed by the index or by walking on (threshold 0).
 */
const tuning = fc.constantFrom(
  { searchWalkBudget: 0, denseSearchThreshold: 10_000 },
  { searchWalkBudget: 0, denseSearchThreshold: 0 },
  { searchWalkBudget: 10_000, denseSearchThreshold: 10_000 },
  { searchWalkBudget: 1, denseSearchThreshold: 10_000 },
  { searchWalkBudget: 2, denseSearchThreshold: 0 },
  { searchWalkBudget: 3, denseSearchThreshold: 1 },
);

function all(store: JobStore, query: ListQuery): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = store.list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    expect(ListPage.safeParse(page).success).toBe(true);
    ids.push(...page.items.map((i) => i.id));
    if (page.nextCursor === null) return ids;
    cursor = page.nextCursor;
  }
}

/** Text searched as plain words: each whitespace-separated part quoted, so query syntax in it stays literal. */
function literal(text: string): string {
  return text
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    .map((t) => `"${t.replace(/[\\"]/g, '\\$&')}"`)
    .join(' ');
}

describe('list', () => {
  it('pages newest first with a cursor that stays stable while new jobs arrive', () => {
    const clock = manualClock();
    const store = open({ now: clock.now });
    const ids = Array.from({ length: 7 }, (_, i) => store.submit(req(`job ${i}`)).job.id);
    const first = store.list(q({ limit: 3 }));
    expect(first.items.map((j) => j.id)).toEqual([ids[6], ids[5], ids[4]]);
    store.submit(req('arrived later'));
    const second = store.list(q({ limit: 3, cursor: first.nextCursor! }));
    expect(second.items.map((j) => j.id)).toEqual([ids[3], ids[2], ids[1]]);
    const third = store.list(q({ limit: 3, cursor: second.nextCursor! }));
    expect(third.items.map((j) => j.id)).toEqual([ids[0]]);
    expect(third.nextCursor).toBeNull();
  });

  it('orders jobs created in the same millisecond by id', () => {
    const store = open({ now: () => 5_000 });
    const ids = Array.from({ length: 5 }, () => store.submit(req()).job.id);
    expect(all(store, q({ limit: 2 }))).toEqual([...ids].reverse());
  });

  it('refuses a cursor it did not make', () => {
    const store = open();
    expect(() => store.list(q({ cursor: 'garbage' }))).toThrow(/not one Atelier made/);
    expect(() => store.list(q({ cursor: 'c1.' + Buffer.from('{"a":1}').toString('base64url') }))).toThrow(
      /not one Atelier made/,
    );
  });

  it('applies view, status, favorite and provider filters before the cursor', () => {
    const store = open({ now: manualClock().now });
    const a = finished(store, 'a', { provider: 'openai' });
    const b = finished(store, 'b');
    const c = store.submit(req('c')).job.id;
    const d = finished(store, 'd', { provider: 'openai' });
    store.setFavorite([a, d], true);
    store.trash([b]);
    expect(all(store, q({ limit: 1 }))).toEqual([d, c, a]);
    expect(all(store, q({ limit: 1, view: 'trash' }))).toEqual([b]);
    expect(all(store, q({ limit: 1, view: 'all' }))).toEqual([d, c, b, a]);
    expect(all(store, q({ limit: 1, favorite: true }))).toEqual([d, a]);
    expect(all(store, q({ limit: 1, favorite: false, view: 'all' }))).toEqual([c, b]);
    expect(all(store, q({ limit: 1, status: ['queued'] }))).toEqual([c]);
    expect(all(store, q({ limit: 1, status: ['succeeded', 'queued'], view: 'all' }))).toEqual([d, c, b, a]);
    expect(all(store, q({ limit: 1, provider: 'openai', favorite: true }))).toEqual([d, a]);
  });
});

describe('search', () => {
  function seeded() {
    const store = open({ now: manualClock().now });
    const ids = {
      fox: finished(store, 'Red fox 100%'),
      bird: finished(store, 'BLUE_bird study'),
      czech: finished(store, 'ČERVENÁ liška'),
      greek: finished(store, 'ΟΔΟΣ ΑΘΗΝΑΣ'),
      negative: finished(store, 'castle', { negativePrompt: 'Watermark, text' }),
      quotes: finished(store, 'say "hello" (NEAR town) AND name:value ^start*'),
    };
    return { store, ids };
  }
  const search = (store: JobStore, text: string, extra: Partial<ListQuery> = {}) =>
    store.list(q({ view: 'all', search: text, ...extra })).items.map((j) => j.id);

  it('is case-insensitive for any script', () => {
    const { store, ids } = seeded();
    expect(search(store, 'červená')).toEqual([ids.czech]);
    expect(search(store, 'ČERVENÁ LIŠKA')).toEqual([ids.czech]);
    expect(search(store, 'οδοσ')).toEqual([ids.greek]);
    expect(search(store, 'οδος αθηνας')).toEqual([ids.greek]);
    expect(search(store, 'RED FOX')).toEqual([ids.fox]);
  });

  it('treats %, _, quotes and FTS syntax as literal text', () => {
    const { store, ids } = seeded();
    expect(search(store, '100%')).toEqual([ids.fox]);
    expect(search(store, '0%')).toEqual([ids.fox]);
    expect(search(store, 'blue_')).toEqual([ids.bird]);
    expect(search(store, 'e_b')).toEqual([ids.bird]);
    expect(search(store, '%')).toEqual([ids.fox]);
    expect(search(store, '_')).toEqual([ids.bird]);
    expect(search(store, '"hello"')).toEqual([ids.quotes]);
    expect(search(store, '(NEAR')).toEqual([ids.quotes]);
    expect(search(store, '"name:value"')).toEqual([ids.quotes]);
    expect(search(store, '^start*')).toEqual([ids.quotes]);
    expect(search(store, 'AND')).toEqual([ids.quotes]);
    expect(search(store, 'fox OR bird')).toEqual([]);
    expect(search(store, "' OR 1=1")).toEqual([]);
    // Query syntax is read, not guessed: quoted, it is plain text again.
    expect(() => search(store, "' OR 1=1 --")).toThrow(/One "-" is enough/);
    expect(search(store, '"\\"hello\\""')).toEqual([ids.quotes]);
    expect(search(store, 'NEAR(fox bird)')).toEqual([]);
  });

  it('finds 1–2 character terms, requires every term, and searches the prompt, not the negative prompt', () => {
    const { store, ids } = seeded();
    expect(search(store, 'fo')).toEqual([ids.fox]);
    expect(search(store, 'šk')).toEqual([ids.czech]);
    expect(search(store, 'red   study')).toEqual([]);
    expect(search(store, 'study blue')).toEqual([ids.bird]);
    expect(search(store, 'watermark')).toEqual([]);
    // One to three letters are matched by their gram alone: the negative prompt is in no gram either.
    expect(search(store, 'wat')).toEqual([]);
    expect(search(store, 'castle watermark')).toEqual([]);
    expect(search(store, 'negative:watermark')).toEqual([ids.negative]);
    expect(search(store, 'castle negative:WATERMARK')).toEqual([ids.negative]);
    expect(search(store, '-text')).toHaveLength(6);
    expect(search(store, '-negative:text')).toHaveLength(5);
    expect(search(store, '   ')).toHaveLength(6);
  });

  it('combines search with filters before the cursor', () => {
    const { store, ids } = seeded();
    store.setFavorite([ids.fox], true);
    store.trash([ids.bird]);
    expect(search(store, '100%', { favorite: true, view: 'active' })).toEqual([ids.fox]);
    expect(search(store, 'blue_', { view: 'trash' })).toEqual([ids.bird]);
    expect(search(store, 'blue_', { view: 'active' })).toEqual([]);
  });

  it('agrees with a naive substring filter for arbitrary text, in every search strategy (property)', () => {
    const alphabet = fc.constantFrom(
      'a',
      'b',
      'A',
      'é',
      'É',
      'š',
      'Š',
      'Σ',
      'σ',
      'ς',
      '%',
      '_',
      '"',
      "'",
      '*',
      '(',
      ')',
      ':',
      '^',
      ' ',
      'ﬁ',
      '東',
      '😀',
    );
    const text = fc.array(alphabet, { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
    const free = fc.string({ maxLength: 8 });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(text, free).filter((s) => s.trim().length > 0),
          { minLength: 1, maxLength: 12 },
        ),
        fc.oneof(text, free),
        tuning,
        (prompts, query, tune) => {
          const store = open({ now: manualClock().now, ...tune });
          const ids = prompts.map((p) => store.submit(req(p)).job.id);
          const terms = searchTerms(query);
          // Free words also find the settings a job shows: its provider and size (req() makes builtin 512x512).
          const shown = (prompt: string) => [foldForSearch(prompt), 'builtin', '512x512'];
          const expected = ids
            .filter((_, i) => terms.every((t) => shown(prompts[i]!).some((part) => part.includes(t))))
            .reverse();
          const got = all(store, q({ limit: 3, search: literal(query) }));
          store.close();
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('search strategy', () => {
  /**
   * A store whose every statement reports its name, so a test can see which path a search took. Unless `ordered`,
   * the first job is dated in the future (a clock set back afterwards), so rowid order is not history order and
   * search takes the paths that do not rely on it.
   */
  function traced(tune: { searchWalkBudget: number; denseSearchThreshold: number }, ordered = false) {
    const names: string[] = [];
    const clock = manualClock();
    const store = open({ now: clock.now, slowQueryMs: -1, onSlowQuery: (name) => names.push(name), ...tune });
    if (!ordered) {
      clock.advance(1e9);
      store.submit(req('zzz from a clock running ahead'));
      clock.advance(-1e9);
    }
    // 30 jobs, newest last: "rareword" in three old ones, "oldword" in the six oldest, "pair" in jobs 20 and 25.
    const ids = Array.from({ length: 30 }, (_, i) => {
      const extra = [
        [3, 6, 9].includes(i) ? 'rareword' : '',
        i < 6 ? 'oldword' : '',
        [20, 25].includes(i) ? 'pair' : '',
      ];
      return store.submit(req(`common job ${i} ${extra.join(' ')}`)).job.id;
    });
    const run = (query: Partial<ListQuery>) => {
      names.splice(0);
      const page = store.list(q(query));
      return { ids: page.items.map((j) => j.id), nextCursor: page.nextCursor, ran: [...names] };
    };
    return { ids, run };
  }

  it("fills a common term's page from a bounded walk of the newest rows, never sorting index matches", () => {
    const { ids, run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 });
    const first = run({ search: 'COMMON', limit: 5 });
    expect(first.ids).toEqual(ids.slice(25).reverse());
    expect(first.ran).toContain('jobs.list.search.walk');
    expect(first.ran).not.toContain('jobs.list.search.fts');
  });

  it('sends a term with a page or two of matches straight to the search index, without walking', () => {
    const { ids, run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 });
    const rare = run({ search: 'rareword', limit: 5 });
    expect(rare.ids).toEqual([ids[9], ids[6], ids[3]]);
    expect(rare.ran).toContain('jobs.list.search.fts');
    expect(rare.ran).not.toContain('jobs.list.search.walk');
  });

  it('falls back to the search index for a term the walk budget does not find', () => {
    const { ids, run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 });
    const old = run({ search: 'oldword', limit: 1 });
    expect(old.ids).toEqual([ids[5]]);
    expect(old.ran).toEqual(
      expect.arrayContaining(['jobs.search.floor', 'jobs.list.search.walk', 'jobs.list.search.fts']),
    );
    const next = run({ search: 'oldword', limit: 10, cursor: old.nextCursor! });
    expect(next.ids).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
  });

  it('walks on past the budget when every term has more matches than the dense threshold', () => {
    const { ids, run } = traced({ searchWalkBudget: 3, denseSearchThreshold: 1 });
    const pair = run({ search: 'pair job', limit: 5 });
    expect(pair.ids).toEqual([ids[25], ids[20]]);
    expect(pair.ran.filter((n) => n === 'jobs.list.search.walk')).toHaveLength(2);
    expect(pair.ran).not.toContain('jobs.list.search.fts');
  });

  it('ends a walk that reaches the oldest row without consulting the index (the last pages of a common term)', () => {
    const { ids, run } = traced({ searchWalkBudget: 8, denseSearchThreshold: 10_000 });
    const seen: string[] = [];
    let cursor: string | undefined;
    let last: ReturnType<typeof run> | undefined;
    do {
      last = run({ search: 'common', limit: 5, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...last.ids);
      cursor = last.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual([...ids].reverse());
    expect(last.ran).not.toContain('jobs.list.search.fts');
    expect(last.ran).toContain('jobs.list.search.walk');
  });

  it('settles an absent conjunction of common terms in the index, without walking or sorting', () => {
    const { run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 });
    // Every job holds "common" and "job", and 1–2 character terms are in the index too.
    for (const search of ['common rareword pair', 'job q', 'common zq', 'ǆ']) {
      const page = run({ search, limit: 5 });
      expect(page.ids, search).toEqual([]);
      expect(page.ran, search).toContain('jobs.search.probe');
      expect(page.ran, search).not.toContain('jobs.list.search.walk');
      expect(page.ran, search).not.toContain('jobs.list.search.fts');
    }
  });

  it('sends a rare 1–2 character term to the index instead of walking the history', () => {
    const { ids, run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 });
    const page = run({ search: 'b 25', limit: 5 });
    expect(page.ids).toEqual([ids[25]]);
    expect(page.ran).toContain('jobs.list.search.fts');
    expect(page.ran).not.toContain('jobs.list.search.walk');
  });

  it('reads the index newest first and stops at the page while rowid order is history order, for any term', () => {
    const { ids, run } = traced({ searchWalkBudget: 10, denseSearchThreshold: 10_000 }, true);
    const only = (ran: string[]) => ran.filter((n) => n.startsWith('jobs.list.search.') || n === 'jobs.search.probe');
    for (const [search, expected] of [
      ['common', ids.slice(25).reverse()],
      ['oldword', ids.slice(1, 6).reverse()],
      ['rareword', [ids[9], ids[6], ids[3]]],
      ['common zq', []],
      ['b 25', [ids[25]]],
    ] as const) {
      const page = run({ search, limit: 5 });
      expect(page.ids, search).toEqual(expected);
      expect(only(page.ran), search).toEqual(['jobs.list.search.newest']);
    }
    // Later pages start the index scan at the cursor's rowid.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = run({ search: 'job', limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.ids);
      expect(page.ran).not.toContain('jobs.list.search.walk');
      if (cursor !== undefined) expect(page.ran).toContain('jobs.search.cursorRowid');
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual([...ids].reverse());
    // A filter few jobs pass walks its own history index instead.
    expect(run({ search: 'common', limit: 5, favorite: true }).ran).not.toContain('jobs.list.search.newest');
  });

  it('walks from a deep cursor rather than pass over many newer index entries to reach it', () => {
    // A walk budget of 1 lets the newest-first read pass over 5 entries at most.
    const { ids, run } = traced({ searchWalkBudget: 1, denseSearchThreshold: 10_000 }, true);
    const seen: string[] = [];
    const ran: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = run({ search: 'job', limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.ids);
      ran.push(page.ran);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual([...ids].reverse());
    expect(ran[0]).toContain('jobs.list.search.newest');
    expect(ran.at(-1)).not.toContain('jobs.list.search.newest');
    expect(ran.at(-1)).toContain('jobs.list.search.walk');
  });

  it('stops reading the index in rowid order once a job is dated before an older row', () => {
    const clock = manualClock();
    const names: string[] = [];
    const store = open({ now: clock.now, slowQueryMs: -1, onSlowQuery: (name) => names.push(name) });
    const a = store.submit(req('fox a')).job.id;
    const b = store.submit(req('fox b')).job.id;
    names.splice(0);
    expect(store.list(q({ search: 'fox' })).items.map((j) => j.id)).toEqual([b, a]);
    expect(names).toContain('jobs.list.search.newest');
    clock.advance(-1_000_000);
    const c = store.submit(req('fox c')).job.id;
    names.splice(0);
    expect(store.list(q({ search: 'fox' })).items.map((j) => j.id)).toEqual([b, a, c]);
    expect(names).not.toContain('jobs.list.search.newest');
  });
});

describe('search index', () => {
  it('drops a removed job from the index and indexes a new one at once', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir, now: manualClock().now });
    const kept = finished(store, 'quokka kept');
    const gone = finished(store, 'quokka gone');
    store.trash([gone]);
    store.emptyTrash();
    const db = new Database(join(dir, 'atelier.db'), { readonly: true });
    const indexed = (term: string) =>
      (db.prepare('SELECT rowid FROM jobs_grams WHERE jobs_grams MATCH ?').all(matchAll(termTokens(term))) as unknown[])
        .length;
    expect(indexed('quokka')).toBe(1);
    expect(indexed('gone')).toBe(0);
    expect(store.list(q({ search: 'quokka' })).items.map((j) => j.id)).toEqual([kept]);
    finished(store, 'quokka new');
    expect(indexed('quokka')).toBe(2);
    expect(indexed('ne')).toBe(1);
    db.close();
  });

  it('indexes the longest prompts the contract allows at submit, and rows other writers insert', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir, now: manualClock().now });
    const long = 'abcdefghij klmnopqrs ťuvwxyz 東京 '.repeat(1_000).slice(0, 31_990);
    // How long it takes (linear, where the triggers' SQL would be quadratic) is a figure: `npm run bench -- long-prompt`.
    const { job } = store.submit(req(`${long} ZEBRA`, { negativePrompt: `${long} ǆq` }));
    for (const search of ['zebra', 'negative:ǆq', 'negative:ǆ', 'ť', '東京 zebra'])
      expect(
        store.list(q({ search })).items.map((j) => j.id),
        search,
      ).toEqual([job.id]);
    // Free words search the prompt only: the negative prompt's own words find nothing.
    expect(store.list(q({ search: 'ǆq' })).items).toEqual([]);
    // The store's own inserts leave the trigger on for everyone else (here: a second connection writing directly).
    store.submit(req('keyed', { idempotencyKey: 'k' }));
    store.submit(req('keyed', { idempotencyKey: 'k' }));
    const db = new Database(join(dir, 'atelier.db'));
    db.prepare(
      `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text)
       VALUES (?, 'succeeded', 1, 1, 'builtin', 'Okapi', 64, 64, 1, '{}', 'okapi')`,
    ).run(uuidv7(1));
    db.close();
    expect(store.list(q({ search: 'kap' })).items.map((j) => j.prompt)).toEqual(['Okapi']);
    expect(store.list(q({ search: 'ka' })).items.map((j) => j.prompt)).toEqual(['Okapi']);
  });

  it.each([
    ['in rowid order', false],
    ['out of rowid order', true],
  ])(
    'agrees with a naive filter on a larger history %s, where token estimates are sampled and common tokens left out (property)',
    (_, shuffled) => {
      const dir = tempDir();
      open({ dataDir: dir }).close();
      // Written straight into the schema, as imports and benches do: the triggers must index these rows too.
      const words = ['ab', 'abc', 'bca', 'cab', 'a', 'x', 'zz', 'é', 'ab-c', 'Στ', '東京', 'qu'];
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const prompts = Array.from({ length: 900 }, (_, i) => {
        const n = 1 + Math.floor(random() * 4);
        const parts = Array.from({ length: n }, () => words[Math.floor(random() ** 2 * words.length)]!);
        return `${parts.join(' ')}${i % 97 === 0 ? ' rare' : ''}`;
      });
      const db = new Database(join(dir, 'atelier.db'));
      const insert = db.prepare(
        `INSERT INTO jobs (id, status, created_at, updated_at, provider, prompt, width, height, count, request_json, search_text, trashed_at)
       VALUES (?, 'succeeded', ?, ?, 'builtin', ?, 64, 64, 1, '{}', ?, ?)`,
      );
      // Shuffled: an import of old jobs, or a clock set back, so history order is not rowid order.
      const at = prompts.map((_, i) => 1_700_000_000_000 + (shuffled ? (i * 7919) % prompts.length : i) * 1000);
      const ids = prompts.map((prompt, i) => {
        const id = uuidv7(at[i]);
        insert.run(id, at[i], at[i], prompt, foldForSearch(prompt), i % 11 === 0 ? 1 : null);
        return id;
      });
      const breaks = (db.prepare('SELECT order_breaks AS n FROM store_totals').get() as { n: number }).n;
      expect(breaks > 0).toBe(shuffled);
      db.close();
      const newestFirst = prompts.map((_, i) => i).sort((x, y) => at[y]! - at[x]!);
      const fragment = fc.oneof(
        fc.constantFrom(...words, 'rare', 'zzz', 'b', 'c', 'ca', 'bc', 'A', 'AB', 'σ', '京', 'q'),
        fc.string({ minLength: 1, maxLength: 3 }),
      );
      for (const tune of [
        {},
        { searchWalkBudget: 50, denseSearchThreshold: 100 },
        { searchWalkBudget: 0, denseSearchThreshold: 0 },
      ]) {
        const store = open({ dataDir: dir, ...tune });
        fc.assert(
          fc.property(
            fc.array(fragment, { minLength: 1, maxLength: 3 }),
            fc.integer({ min: 1, max: 150 }),
            fc.constantFrom('active' as const, 'all' as const),
            (parts, limit, view) => {
              const search = parts.join(' ');
              const terms = searchTerms(search);
              const expected = newestFirst
                .filter(
                  (i) => (view === 'all' || i % 11 !== 0) && terms.every((t) => foldForSearch(prompts[i]!).includes(t)),
                )
                .map((i) => ids[i]);
              expect(all(store, q({ limit, view, search: literal(search) }))).toEqual(expected);
            },
          ),
          { numRuns: 40 },
        );
        store.close();
      }
    },
  );
});

describe('cursor pagination (property)', () => {
  it('visits every matching job exactly once, newest first, for random data and filters', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            t: fc.integer({ min: 0, max: 20 }),
            fav: fc.boolean(),
            done: fc.boolean(),
            word: fc.constantFrom('cat', 'dog', 'owl'),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 7 }),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.constantFrom('cat', 'og', 'q', 'cat dog', 'owl'), { nil: undefined }),
        tuning,
        (rows, limit, favorite, searchText, tune) => {
          let t = 0;
          const store = open({ now: () => t, ...tune });
          const made = rows.map((row) => {
            t = row.t; // repeated times exercise the id tie-break
            const id = row.done ? finished(store, row.word) : store.submit(req(row.word)).job.id;
            if (row.fav) store.setFavorite([id], true);
            return { id, createdAt: row.t, ...row };
          });
          const query = q({
            limit,
            ...(favorite === undefined ? {} : { favorite }),
            ...(searchText === undefined ? {} : { search: searchText }),
          });
          const expected = made
            .filter(
              (m) =>
                (favorite === undefined || m.fav === favorite) &&
                (searchText === undefined || searchText.split(' ').every((w) => m.word.includes(w))),
            )
            .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : 1))
            .map((m) => m.id);
          expect(all(store, query)).toEqual(expected);
          store.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('query plans', () => {
  function plans(store: JobStore, dir: string, query: ListQuery, mode: PlanMode, options: PlanOptions = {}): string {
    void store;
    const db = new Database(join(dir, 'atelier.db'), { readonly: true });
    try {
      const plan = planList(query, mode, query.limit + 1, options);
      return (db.prepare(`EXPLAIN QUERY PLAN ${plan.sql}`).all(...plan.params) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('\n');
    } finally {
      db.close();
    }
  }

  it('serves the history page, its filters and search from indexes, never a full scan or a sort of jobs', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    for (let i = 0; i < 20; i += 1) finished(store, `job ${i}`);
    const cursor = store.list(q({ limit: 5 })).nextCursor!;
    const floor = { createdAt: 0, id: '' };
    const cases: Array<[Partial<ListQuery>, PlanMode, RegExp, PlanOptions?]> = [
      [{}, 'none', /SCAN j USING (COVERING )?INDEX jobs_created/],
      [{ cursor }, 'none', /SEARCH j USING INDEX jobs_created/],
      [{ view: 'trash' }, 'none', /INDEX jobs_in_trash_created/],
      [{ favorite: true }, 'none', /INDEX jobs_favorite_created/],
      [{ status: ['failed' as JobStatus] }, 'none', /INDEX jobs_status_created/],
      [{ provider: 'openai' }, 'none', /INDEX jobs_provider_created/],
      [{ source: 'comfyui' }, 'none', /INDEX jobs_source_created/],
      [{ source: 'comfyui', cursor }, 'none', /SEARCH j USING INDEX jobs_source_created \(source=\? AND/],
      [{ search: 'fox' }, 'fts', /VIRTUAL TABLE INDEX/],
      [{ search: 'fox', favorite: true, cursor }, 'fts', /VIRTUAL TABLE INDEX/],
      [{ search: 'fo' }, 'walk', /INDEX jobs_created/],
      // The bounded walk of common terms: a range of the history index, newest first, no sort.
      [{ search: 'fox' }, 'walk', /SEARCH j USING INDEX jobs_created \(\(created_at,id\)>/, { floor }],
      [
        { search: 'fox', cursor },
        'walk',
        /SEARCH j USING INDEX jobs_created \(\(created_at,id\)>.*<|SEARCH j USING INDEX jobs_created \(\(created_at,id\)<.*>/,
        { floor },
      ],
      [{ search: 'fox', favorite: true }, 'walk', /INDEX jobs_favorite_created/, { floor }],
      [{ search: 'fox fo' }, 'fts', /VIRTUAL TABLE INDEX/, { tokens: termTokens('fox') }],
      // Newest first straight from the index: its rowid order, no sort, and a cursor's rowid bound goes to FTS5.
      [{ search: 'fox fo' }, 'newest', /SCAN g VIRTUAL TABLE INDEX/],
      [{ search: 'fox', cursor }, 'newest', /SCAN g VIRTUAL TABLE INDEX \d+:M\d*</, { belowRowid: 10 }],
    ];
    for (const [extra, mode, expected, options] of cases) {
      const detail = plans(store, dir, q(extra), mode, options);
      expect(detail, JSON.stringify(extra)).toMatch(expected);
      expect(detail, JSON.stringify(extra)).not.toMatch(/^SCAN j$/m);
      if (mode !== 'fts') expect(detail, JSON.stringify(extra)).not.toMatch(/TEMP B-TREE/);
    }
  });
});
