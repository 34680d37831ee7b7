/**
 * Smart boards that name themselves, or other boards many times: `board:s45` repeated in s45's own query once took
 * 27 s and 1.5 GB to fill in, on every sidebar load. Filling in is bounded in size and a board that includes itself
 * is refused, at create, at rename, and when one stored before these limits is read (its count is 0, a search for it
 * says why). The property checks the bound on any board graph: cycles refused, small acyclic ones compiled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { parseQuery, type Query } from '../../shared/query/index.js';
import type { Db } from '../../electron/db/connection.js';
import {
  compileQuery,
  MAX_BOARD_DEPTH,
  MAX_EXPANDED_TERMS,
  type QueryLookup,
} from '../../electron/db/query/compile.js';
import { finished, image, open } from '../unit/db/helpers.js';

const NAMES_ITSELF = /^The smart board "[^"]+" names itself( through .+)?: a smart board cannot include itself\.$/;
const TOO_LARGE =
  /^This search is too large once its smart boards are filled in: more than 500 conditions \("[^"]+" alone is filled in [\d,]+ times?\)\./;
const TOO_DEEP = /^Smart boards can name smart boards only 3 deep: .+ goes deeper\.$/;

function caught(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

/** A store plus its raw connection, to write boards as an older version stored them (no checks). */
function storeWithDb() {
  let raw: Db | undefined;
  const store = open({
    wrapDatabase: (db) => {
      raw = db;
      return db;
    },
  });
  finished(store, 'a red fox', {}, [image(0)]);
  const stored = (id: string, name: string, query: string) =>
    raw!
      .prepare('INSERT INTO boards (id, name, key, query, created_at) VALUES (?, ?, ?, ?, 1)')
      .run(id, name, name.toLowerCase(), query);
  return { store, stored };
}

describe('smart boards that name themselves or fill in too large', () => {
  it('refuses a board naming itself, in breadth as in depth, at create and at rename, and keeps the library as it was', () => {
    const { store } = storeWithDb();
    const c = store.curation;
    const itself = caught(() => c.createBoard('s45', Array.from({ length: 45 }, () => 'board:s45').join(' ')));
    expect(itself).toMatchObject({
      code: 'invalid_request',
      message: 'The smart board "s45" names itself: a smart board cannot include itself.',
    });
    expect(c.boards()).toEqual([]);

    c.createBoard('a', 'board:b fox');
    c.createBoard('b', 'board:c');
    expect(caught(() => c.createBoard('c', 'rating:>=1 | board:a')).message).toBe(
      'The smart board "a" names itself through "b" → "c": a smart board cannot include itself.',
    );
    // A smart board renamed onto a name another board's chain ends in closes the loop: refused, the name stays.
    const x = c.createBoard('x', 'board:a');
    expect(caught(() => c.renameBoard(x.id, 'c')).message).toMatch(NAMES_ITSELF);
    expect(c.boards().map((b) => b.name)).toEqual(['a', 'b', 'x']);
    expect(c.renameBoard(x.id, 'y').name).toBe('y');

    c.createBoard('leaf', Array.from({ length: 20 }, () => 'rating:1 fox').join(' '));
    const wide = caught(() => c.createBoard('wide', Array.from({ length: 90 }, () => 'board:leaf').join(' ')));
    expect(wide).toMatchObject({ code: 'invalid_request' });
    expect(wide.message).toMatch(TOO_LARGE);
    expect(wide.message).toContain('"leaf" alone is filled in');

    c.createBoard('d1', 'board:d2');
    c.createBoard('d2', 'board:d3');
    c.createBoard('d3', 'fox');
    expect(caught(() => c.createBoard('d0', 'board:d1')).message).toBe(
      'Smart boards can name smart boards only 3 deep: "d0" → "d1" → "d2" → "d3" goes deeper.',
    );
    // Made in the other order, the last link is refused: the boards that name it would nest too deep.
    c.createBoard('e1', 'board:e2');
    c.createBoard('e2', 'board:e3');
    c.createBoard('e3', 'board:e4');
    expect(caught(() => c.createBoard('e4', 'fox')).message).toBe(
      'Smart boards can name smart boards only 3 deep: "e1" → "e2" → "e3" → "e4" goes deeper.',
    );
    expect(c.boards().map((b) => b.name)).toEqual(['a', 'b', 'd1', 'd2', 'd3', 'e1', 'e2', 'e3', 'leaf', 'y']);
  });

  it('a board stored before these limits counts 0 in the sidebar, and a search for it says why', () => {
    const { store, stored } = storeWithDb();
    stored('01900000-0000-7000-8000-000000000001', 's12', Array.from({ length: 12 }, () => 'board:s12').join(' '));
    stored('01900000-0000-7000-8000-000000000002', 'leaf', Array.from({ length: 50 }, () => 'fox').join(' '));
    stored('01900000-0000-7000-8000-000000000003', 'wide', Array.from({ length: 60 }, () => 'board:leaf').join(' '));
    stored('01900000-0000-7000-8000-000000000004', 'fine', 'fox board:leaf');

    expect(store.curation.boards().map((b) => [b.name, b.count])).toEqual([
      ['fine', 1],
      ['leaf', 1],
      ['s12', 0],
      ['wide', 0],
    ]);
    const list = (search: string) => caught(() => store.list({ limit: 10, view: 'active', search }));
    expect(list('board:s12')).toMatchObject({
      code: 'invalid_request',
      message: 'The smart board "s12" names itself: a smart board cannot include itself.',
    });
    expect(list('fox board:wide').message).toMatch(TOO_LARGE);
    expect(caught(() => store.curation.count({ search: 'board:s12' })).code).toBe('invalid_request');
    expect(store.list({ limit: 10, view: 'active', search: 'board:fine' }).items).toHaveLength(1);
  });

  it('a typed search of 1,000 characters is never too large: the limit only stops boards filling in past it', () => {
    const { store } = storeWithDb();
    for (const search of [
      Array.from({ length: 500 }, () => 'f').join(' '),
      Array.from({ length: 500 }, () => 'f').join('|'),
      Array.from({ length: 333 }, () => '-x').join(' '),
    ]) {
      expect(search.length).toBeLessThanOrEqual(1_000);
      expect(store.list({ limit: 10, view: 'active', search }).items.length).toBeLessThanOrEqual(1);
      expect(store.curation.count({ search }).images).toBeLessThanOrEqual(1);
    }
  });

  it('any graph of smart boards: a cycle is refused, a small acyclic one compiles, and filling in reads a bounded number of boards', () => {
    const parse = (text: string): Query | null => {
      const parsed = parseQuery(text);
      return parsed.ok ? parsed.query : null;
    };
    const token = (n: number) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 0, max: n - 1 }).map((i) => `board:b${i}`) },
        { weight: 1, arbitrary: fc.constantFrom('fox', 'rating:>=3', 'is:favorite', '-owl', 'fox|owl', 'board:plain') },
      );
    const graph = fc
      .integer({ min: 1, max: 6 })
      .chain((n) =>
        fc.tuple(
          fc.array(fc.array(token(n), { maxLength: 60 }), { minLength: n, maxLength: n }),
          fc.array(token(n), { minLength: 1, maxLength: 60 }),
        ),
      );

    fc.assert(
      fc.property(graph, ([queries, root]) => {
        const text = (i: number) => queries[i]!.join(' ') || 'fox';
        let reads = 0;
        const lookup: QueryLookup = {
          facetKeys: () => [],
          facetJobs: () => 0,
          tag: () => null,
          board: (folded) => {
            reads += 1;
            if (folded === 'plain') return { id: 'plain', name: 'plain', images: 3, query: null };
            const i = Number(folded.slice(1));
            return { id: `b${i}`, name: `b${i}`, images: 0, query: text(i) };
          },
          now: () => 0,
        };

        // The model: conditions once filled in, how deep boards nest, and whether a board reaches itself.
        const boardRefs = (q: Query) =>
          new Set(
            q.clauses
              .flatMap((c) => c.anyOf)
              .flatMap((t) =>
                t.kind === 'text' && t.key === 'board' && t.text !== 'plain' ? [Number(t.text.slice(1))] : [],
              ),
          );
        const state = new Map<number, 'open' | 'done'>();
        const reachesCycle = (i: number): boolean => {
          if (state.get(i) === 'open') return true;
          if (state.get(i) === 'done') return false;
          state.set(i, 'open');
          const found = [...boardRefs(parse(text(i))!)].some(reachesCycle);
          state.set(i, 'done');
          return found;
        };
        const rootQuery = parse(root.join(' '))!;
        const hasCycle = [...boardRefs(rootQuery)].some(reachesCycle);
        const sizeCapped = (q: Query, level: number): { terms: number; depth: number } => {
          let terms = 0;
          let depth = level;
          for (const t of q.clauses.flatMap((c) => c.anyOf)) {
            terms += 1;
            if (terms > MAX_EXPANDED_TERMS) return { terms, depth };
            if (t.kind === 'text' && t.key === 'board' && t.text !== 'plain') {
              if (level >= MAX_BOARD_DEPTH) return { terms, depth: level + 1 };
              const inner = sizeCapped(parse(text(Number(t.text.slice(1))))!, level + 1);
              terms += inner.terms;
              depth = Math.max(depth, inner.depth);
              if (terms > MAX_EXPANDED_TERMS || depth > MAX_BOARD_DEPTH) return { terms, depth };
            }
          }
          return { terms, depth };
        };

        let outcome: 'compiled' | AppError = 'compiled';
        try {
          compileQuery(rootQuery, lookup, parse);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          outcome = error;
        }
        // Bounded work whatever the graph: every board read is one condition charged against the limit.
        expect(reads).toBeLessThanOrEqual(MAX_EXPANDED_TERMS + 1);
        if (hasCycle) {
          expect(outcome).toBeInstanceOf(AppError);
          expect((outcome as AppError).message).toMatch(
            new RegExp(`${NAMES_ITSELF.source}|${TOO_LARGE.source}|${TOO_DEEP.source}`),
          );
          return;
        }
        const size = sizeCapped(rootQuery, 0);
        if (size.terms <= MAX_EXPANDED_TERMS && size.depth <= MAX_BOARD_DEPTH) {
          expect(outcome).toBe('compiled');
        } else {
          expect(outcome).toBeInstanceOf(AppError);
          expect((outcome as AppError).code).toBe('invalid_request');
          expect((outcome as AppError).message).toMatch(
            size.terms > MAX_EXPANDED_TERMS ? new RegExp(`${TOO_LARGE.source}|${TOO_DEEP.source}`) : TOO_DEEP,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any graph made through the store, in any order: every board accepted can still be shown, counted and searched', () => {
    // Board i names the next one often (chains), any board sometimes (cycles, breadth), plain terms otherwise.
    const tokens = (i: number) =>
      fc.array(
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(`board:b${i + 1}`) },
          { weight: 2, arbitrary: fc.integer({ min: 0, max: 5 }).map((j) => `board:b${j}`) },
          { weight: 2, arbitrary: fc.constantFrom('fox', 'rating:>=1', '-owl', 'fox|owl') },
        ),
        { minLength: 1, maxLength: 30 },
      );
    fc.assert(
      fc.property(
        fc
          .tuple(...[0, 1, 2, 3, 4, 5].map(tokens))
          .chain((queries) => fc.shuffledSubarray([...queries.entries()], { minLength: 1 })),
        (entries) => {
          const { store } = storeWithDb();
          for (const [i, q] of entries) {
            try {
              store.curation.createBoard(`b${i}`, q.join(' '));
            } catch (error) {
              expect(error).toBeInstanceOf(AppError);
              expect((error as AppError).code).toBe('invalid_request');
            }
          }
          for (const board of store.curation.boards()) {
            expect(
              store.list({ limit: 5, view: 'active', search: `board:${board.name}` }).items.length,
            ).toBeLessThanOrEqual(1);
            expect(store.curation.count({ search: `board:${board.name}` }).active).toBeLessThanOrEqual(1);
          }
          store.close();
        },
      ),
      { numRuns: 25 },
    );
  });
});
