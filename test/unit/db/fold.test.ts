import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldForSearch } from '../../../electron/db/fold.js';
import { open, req } from './helpers.js';

describe('search folding: case and accents, both ways, in every script', () => {
  it.each([
    ['Latin', 'ČERVENÁ Liška', ['cervena', 'červená', 'ČERVENÁ', 'CERVENA', 'liska', 'LIŠKA']],
    ['Latin ligatures and full width', 'ﬁne ＡＲＴ', ['fine', 'art', 'ＦＩＮＥ']],
    ['Greek', 'Ελληνικός ΝΑΟΣ', ['ελληνικος', 'ΕΛΛΗΝΙΚΌΣ', 'ναος', 'ναός', 'Ναός']],
    ['Cyrillic', 'Ёлка у моря', ['елка', 'ЁЛКА', 'ЕЛКА', 'моря', 'МОРЯ']],
    ['CJK, without spaces', '東京の夜景とネオン', ['東京', '夜景', 'ネオン', 'の夜']],
  ])('%s: %s', (_script, prompt, queries) => {
    const store = open();
    const { job } = store.submit(req(prompt));
    store.submit(req('something else entirely'));
    for (const query of queries) {
      expect(
        store.list({ limit: 10, view: 'active', search: query }).items.map((j) => j.id),
        query,
      ).toEqual([job.id]);
    }
    store.close();
  });

  it('keeps the marks that change a word outside Latin, Greek and Cyrillic (Japanese dakuten)', () => {
    expect(foldForSearch('がぎ')).toBe('がぎ');
    expect(foldForSearch('かき')).not.toBe(foldForSearch('がぎ'));
  });

  it('is idempotent and removes every Latin accent mark (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const once = foldForSearch(text);
        expect(foldForSearch(once)).toBe(once);
        expect(once.normalize('NFD')).not.toMatch(/[a-z]\p{M}/u);
      }),
      { numRuns: 300 },
    );
  });
});
