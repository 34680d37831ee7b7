/** Exported file names for any prompt and seed: safe on every file system, readable, and never the same twice. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseName, createNamer } from '../../../electron/library/export/names.js';
import { manifestChunks, MANIFEST_COLUMNS, type ManifestRow } from '../../../electron/library/export/manifest.js';
import { parseCsv } from '../../../electron/library/csv.js';
import { CONTROL_CHARS } from '../../../shared/contract.js';

// Characters no Windows, macOS or Linux file name may hold, control characters, and path separators.
const UNSAFE = /[<>:"/\\|?*]/u;
const ID = '0190a6e2-0000-7000-8000-00000000abcd';

describe('export file names', () => {
  it('are safe, bounded and keep the date, the prompt’s first words and the seed, whatever the prompt', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.option(fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.integer())),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (prompt, seed, at) => {
          const name = baseName({ createdAt: at, prompt, seed: seed ?? undefined, imageId: ID, ext: 'png' });
          expect(name).not.toMatch(UNSAFE);
          expect(CONTROL_CHARS.test(name)).toBe(false);
          expect(name.length).toBeLessThanOrEqual(10 + 1 + 60 + 1 + 24 + 4);
          expect(name.startsWith(`${new Date(at).toISOString().slice(0, 10)}_`)).toBe(true);
          expect(name.endsWith('.png')).toBe(true);
          // No name is only dots or ends in a dot or space before its extension (Windows drops them).
          expect(name).not.toMatch(/[. ]\.png$/);
        },
      ),
    );
  });

  it('never hand out the same name twice, ignoring case', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a.png', 'A.png', 'a (2).png', 'b.jpg', 'B.JPG', 'noext'), { maxLength: 60 }),
        (names) => {
          const unique = createNamer();
          const given = names.map(unique);
          expect(new Set(given.map((n) => n.toLowerCase())).size).toBe(given.length);
        },
      ),
    );
  });
});

describe('the CSV manifest', () => {
  it('reads back as the rows written, whatever the prompt holds (quotes, commas, line breaks)', () => {
    const row = (prompt: string, i: number): ManifestRow => ({
      file: `f${i}.png`,
      status: 'exported',
      imageId: ID,
      jobId: ID,
      createdAt: '2026-01-01T00:00:00.000Z',
      source: 'atelier',
      provider: 'builtin',
      model: 'm,1',
      prompt,
      negativePrompt: '"no"',
      seed: '5',
      width: 64,
      height: 48,
      bytes: 10,
      sha256: 'ab',
      note: 'line one\nline, "two"',
    });
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 450 }), (prompts) => {
        const text = [...manifestChunks('csv', prompts.map(row), 0)].join('');
        const [header, ...records] = parseCsv(text).records.map((r) => r.fields);
        expect(header).toEqual([...MANIFEST_COLUMNS]);
        expect(records).toHaveLength(prompts.length);
        records.forEach((fields, i) => {
          const p = prompts[i]!;
          // A cell a spreadsheet would run as a formula is kept as text with a leading quote.
          expect(fields[MANIFEST_COLUMNS.indexOf('prompt')]).toBe(/^[=+\-@\t\r]/.test(p) ? `'${p}` : p);
        });
        const json = JSON.parse([...manifestChunks('json', prompts.map(row), 0)].join('')) as { images: ManifestRow[] };
        expect(json.images.map((r) => r.prompt)).toEqual(prompts);
      }),
      { numRuns: 60 },
    );
  });
});
