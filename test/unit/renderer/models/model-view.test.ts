import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agoInDays,
  DEFAULT_MODEL_FILTER,
  filterModels,
  imagesQuery,
  kindCounts,
  serversLine,
  shortName,
  usageLine,
} from '../../../../renderer/src/models/model-view';
import { parseQuery } from '../../../../shared/query/parse';
import { libraryModel } from './fixtures';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12);

const LIBRARY = [
  libraryModel({
    name: 'juggernautXL',
    kind: 'checkpoint',
    baseModel: 'sdxl',
    imageCount: 40,
    lastUsedAt: NOW - 9 * DAY,
  }),
  libraryModel({
    name: 'detail_tweaker',
    baseModel: 'sd15',
    triggerWords: ['intricate'],
    imageCount: 123,
    lastUsedAt: NOW - 3 * DAY,
  }),
  libraryModel({
    name: 'Ghibli style',
    baseModel: 'sdxl',
    triggerWords: ['ghibli', 'soft light'],
    imageCount: 5,
    lastUsedAt: NOW - DAY,
  }),
  libraryModel({ name: 'easynegative', kind: 'embedding', imageCount: 0 }),
  libraryModel({ name: 'sdxl_vae', kind: 'vae', imageCount: 2, lastUsedAt: NOW - 40 * DAY }),
];
const names = (filter: Partial<typeof DEFAULT_MODEL_FILTER>) =>
  filterModels(LIBRARY, { ...DEFAULT_MODEL_FILTER, ...filter }).map((m) => m.name);

describe('the Models screen’s filters', () => {
  it('search the name, the base model and the trigger words, every word, in any case and accent', () => {
    expect(names({ search: 'DETAIL' })).toEqual(['detail_tweaker']);
    expect(names({ search: 'intricate' })).toEqual(['detail_tweaker']);
    expect(names({ search: 'sdxl' })).toEqual(['juggernautXL', 'Ghibli style', 'sdxl_vae']);
    expect(names({ search: 'light ghíbli' })).toEqual(['Ghibli style']);
    expect(names({ search: 'ghibli sd15' })).toEqual([]);
  });

  it('narrow by kind tab and base model', () => {
    expect(names({ kind: 'lora' })).toEqual(['detail_tweaker', 'Ghibli style']);
    expect(names({ kind: 'checkpoint' })).toEqual(['juggernautXL']);
    expect(names({ kind: 'embedding' })).toEqual(['easynegative']);
    expect(names({ kind: 'vae' })).toEqual(['sdxl_vae']);
    expect(names({ baseModel: 'sdxl' })).toEqual(['juggernautXL', 'Ghibli style']);
    expect(names({ kind: 'lora', baseModel: 'sd15' })).toEqual(['detail_tweaker']);
  });

  it('sort by most used, most recently used, or A to Z', () => {
    expect(names({})).toEqual(['detail_tweaker', 'juggernautXL', 'Ghibli style', 'sdxl_vae', 'easynegative']);
    expect(names({ sort: 'recent' })).toEqual([
      'Ghibli style',
      'detail_tweaker',
      'juggernautXL',
      'sdxl_vae',
      'easynegative',
    ]);
    expect(names({ sort: 'name' })).toEqual([
      'detail_tweaker',
      'easynegative',
      'Ghibli style',
      'juggernautXL',
      'sdxl_vae',
    ]);
  });

  it('count each kind the search and base model leave (the tabs’ numbers)', () => {
    expect(kindCounts(LIBRARY, { ...DEFAULT_MODEL_FILTER, search: 'sdxl', kind: 'lora' })).toEqual({
      all: 3,
      checkpoint: 1,
      lora: 1,
      embedding: 0,
      vae: 1,
    });
  });

  it('for any library and filters: only matching entries, none lost, in the chosen order', () => {
    const model = fc.record({
      name: fc.string({ minLength: 1, maxLength: 12 }),
      kind: fc.constantFrom('checkpoint', 'lora', 'embedding', 'vae' as const),
      baseModel: fc.option(fc.constantFrom('sd15', 'sdxl', 'flux'), { nil: undefined }),
      imageCount: fc.nat(50),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(model, { selector: (m) => m.name, maxLength: 30 }),
        fc.constantFrom('all', 'checkpoint', 'lora' as const),
        fc.constantFrom('', 'sdxl'),
        (raw, kind, baseModel) => {
          const items = raw.map((m) =>
            libraryModel({ ...m, ...(m.baseModel === undefined ? {} : { baseModel: m.baseModel }) }),
          );
          const shown = filterModels(items, { ...DEFAULT_MODEL_FILTER, kind, baseModel });
          const expected = items.filter(
            (m) => (kind === 'all' || m.kind === kind) && (baseModel === '' || m.baseModel === baseModel),
          );
          expect(new Set(shown)).toEqual(new Set(expected));
          for (let i = 1; i < shown.length; i++)
            expect(shown[i - 1]!.imageCount).toBeGreaterThanOrEqual(shown[i]!.imageCount);
          // Any entry's own name finds it.
          for (const m of items.slice(0, 3))
            expect(filterModels(items, { ...DEFAULT_MODEL_FILTER, search: m.name })).toContain(m);
        },
      ),
    );
  });
});

describe('a card’s words', () => {
  it('say how many images and when last used, or that none were made yet', () => {
    expect(usageLine({ imageCount: 123, lastUsedAt: NOW - 3 * DAY }, NOW)).toBe('123 images · last used 3 days ago');
    expect(usageLine({ imageCount: 1, lastUsedAt: NOW - 1000 }, NOW)).toBe('1 image · last used today');
    expect(usageLine({ imageCount: 2_400, lastUsedAt: NOW - DAY }, NOW)).toBe('2,400 images · last used yesterday');
    expect(usageLine({ imageCount: 0 }, NOW)).toBe('No images yet');
    expect(agoInDays(NOW - 20 * DAY, NOW)).toBe('2 weeks ago');
    expect(agoInDays(NOW - 100 * DAY, NOW)).toBe('3 months ago');
    expect(agoInDays(NOW - 800 * DAY, NOW)).toBe('2 years ago');
  });

  it('name the servers that have it, or that no connected one does', () => {
    const nameOf = (id: string) => ({ a1: 'Studio A1111', c1: 'ComfyUI' })[id] ?? id;
    expect(
      serversLine(
        {
          servers: [
            { provider: 'a1', name: 'x' },
            { provider: 'c1', name: 'x.safetensors' },
          ],
        },
        nameOf,
      ),
    ).toBe('On Studio A1111, ComfyUI');
    expect(serversLine({ servers: [] }, nameOf)).toBe('Not on any connected server');
  });

  it('shorten a server’s file name to the name shown', () => {
    expect(shortName('styles/detail_v2.safetensors')).toBe('detail_v2');
    expect(shortName('C:\\loras\\ghibli.pt')).toBe('ghibli');
    expect(shortName('plain')).toBe('plain');
  });
});

describe('Show images', () => {
  it('searches model:"name" or lora:"name", which the gallery query reads back whole', () => {
    expect(imagesQuery({ kind: 'checkpoint', name: 'juggernautXL' })).toBe('model:"juggernautXL"');
    expect(imagesQuery({ kind: 'lora', name: 'Ghibli style' })).toBe('lora:"Ghibli style"');
    expect(imagesQuery({ kind: 'embedding', name: 'easynegative' })).toBeNull();
    fc.assert(
      // A library name is a file's name: never blank.
      fc.property(
        fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((n) => n.trim() !== ''),
        (name) => {
          const parsed = parseQuery(imagesQuery({ kind: 'lora', name })!);
          expect(parsed.ok && parsed.query.clauses[0]?.anyOf).toEqual([{ kind: 'text', key: 'lora', text: name }]);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
