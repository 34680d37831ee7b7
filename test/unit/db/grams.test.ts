import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldForSearch, searchTerms } from '../../../electron/db/fold.js';
import { gramsOf, matchAll, termTokens, tokenIsExact } from '../../../electron/db/grams.js';
import { gramsSql } from '../../../electron/db/migrations/0004_search_grams.js';

const alphabet = fc.constantFrom(
  'a',
  'b',
  'é',
  'š',
  'σ',
  '%',
  '_',
  '"',
  "'",
  '*',
  '(',
  ':',
  '^',
  ' ',
  '\n',
  '\u0000',
  '-',
  '東',
  '😀',
  'ﬁ',
  '0',
);
const text = fc.oneof(
  fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join('')),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

describe('search grams', () => {
  it('the triggers (SQL) and the backfill (JS) make the same tokens for any text (property)', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (search_text TEXT NOT NULL)');
    const put = db.prepare(
      'INSERT INTO t (rowid, search_text) VALUES (1, ?) ON CONFLICT (rowid) DO UPDATE SET search_text = excluded.search_text',
    );
    const read = db.prepare(`SELECT search_text AS stored, ${gramsSql('search_text')} AS grams FROM t WHERE rowid = 1`);
    fc.assert(
      fc.property(text, (raw) => {
        put.run(foldForSearch(raw));
        // What the row holds, as the backfill reads it (better-sqlite3 wrote lone surrogates as U+FFFD).
        const { stored, grams } = read.get() as { stored: string; grams: string | null };
        expect(grams ?? '').toBe(gramsOf(stored));
      }),
      { numRuns: 300 },
    );
    db.close();
  });

  it('a text holding a term holds all of its tokens, and a 1–3 code point term is exactly its one token (property)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const stored = foldForSearch(a);
        const grams = new Set(gramsOf(stored).split(' '));
        for (const term of searchTerms(b)) {
          const tokens = termTokens(term);
          expect(tokens.length).toBeGreaterThan(0);
          if (stored.includes(term)) for (const t of tokens) expect(grams.has(t)).toBe(true);
          if (tokenIsExact(term)) expect(grams.has(tokens[0]!)).toBe(stored.includes(term));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('tokens are plain ASCII words, quoted in a match, whatever the term holds', () => {
    // SQLite's length() and substr() stop at NUL, so folding makes it a space before anything is stored or indexed.
    expect(foldForSearch('A\u0000B')).toBe('a b');
    expect(termTokens('fo')).toEqual(['b666f']);
    expect(termTokens('"*')).toEqual(['b222a']);
    expect(termTokens('fox')).toEqual(['t666f78']);
    expect(termTokens('foxes')).toEqual(['t666f78', 't6f7865', 't786573']);
    expect(termTokens('😀')).toEqual(['uf09f9880']);
    expect(matchAll(['b666f', 't666f78'])).toBe('"b666f" AND "t666f78"');
    expect(tokenIsExact('abc')).toBe(true);
    expect(tokenIsExact('😀😀😀')).toBe(true);
    expect(tokenIsExact('abcd')).toBe(false);
  });
});
