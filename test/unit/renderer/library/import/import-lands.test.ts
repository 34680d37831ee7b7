import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageSource, ImportProgressEvent, LibraryFolder, SourceCount } from '../../../../../shared/contract';
import { importEndMessage, importQuery, showAction } from '../../../../../renderer/src/library/import/imports-model';
import { SOURCE_ORDER, sourceOptions } from '../../../../../renderer/src/library/import/sources';
import { LeftOut, leftOutLabel } from '../../../../../renderer/src/library/import/LeftOut';
import { createAppStore } from '../../../../../renderer/src/store/store';
import { DEFAULT_FILTERS } from '../../../../../renderer/src/store/filters';
import { fakeApi, flush, idFor } from '../../helpers';

const ID = idFor(700);

function tick(over: Partial<ImportProgressEvent> = {}): ImportProgressEvent {
  return {
    id: ID,
    status: 'running',
    scanning: false,
    found: 20,
    imported: 3,
    duplicates: 0,
    skipped: 0,
    failed: 0,
    ...over,
  };
}

function setup(handlers: Record<string, (input: unknown) => unknown> = {}) {
  const fake = fakeApi({
    'jobs.list': async () => ({ items: [], nextCursor: null }),
    'library.folders': async () => ({ items: [] }),
    'library.sources': async () => ({ items: [] }),
    ...handlers,
  });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  return { fake, store };
}

describe('an import that ends lands where the person looks', () => {
  it('its end says what came in, with "Show N imported"; Show filters the gallery to exactly that import', async () => {
    const ended = tick({ status: 'completed', imported: 12, skipped: 2, found: 14 });
    const row = {
      ...ended,
      paths: ['/home/me/out'],
      mode: 'link',
      watch: false,
      createdAt: 1,
      updatedAt: 1,
      problems: [],
    };
    const { fake, store } = setup({ 'library.imports': async () => ({ items: [row] }) });
    store.getState().setFilters({ view: 'favorites', source: 'comfyui', status: ['failed'], search: 'fox' });
    // A short import: its end is the first this window hears of it, before its row (and folder name) was listed.
    store.getState().applyImportProgress(ended);
    await flush();
    const [toast] = store.getState().toasts;
    expect(toast!.message).toBe(`Imported 12 images from out (2 skipped).`);
    expect(toast!.action!.label).toBe('Show 12 imported');

    const before = fake.calls.filter((c) => c.channel === 'jobs.list').length;
    toast!.action!.run();
    await flush();
    // Every filter that would hide some of them is cleared; the search names the import.
    expect(store.getState().filters).toEqual({ ...DEFAULT_FILTERS, search: importQuery(ID) });
    const lists = fake.calls.filter((c) => c.channel === 'jobs.list');
    expect(lists.length).toBe(before + 1);
    expect(lists.at(-1)!.input).toMatchObject({ search: `import:${ID}`, view: 'active' });
    expect(lists.at(-1)!.input).not.toHaveProperty('source');
    expect(lists.at(-1)!.input).not.toHaveProperty('status');
  });

  it('an import that brought nothing new says so, with no Show; a replayed end toasts once', async () => {
    const { store } = setup();
    store.getState().applyImportProgress(tick());
    store.getState().applyImportProgress(tick({ status: 'completed', imported: 0, duplicates: 5, found: 5 }));
    store.getState().applyImportProgress(tick({ status: 'completed', imported: 0, duplicates: 5, found: 5 }));
    await flush();
    expect(store.getState().toasts).toHaveLength(1);
    expect(store.getState().toasts[0]!.message).toBe('Import: nothing new (5 already in the library).');
    expect(store.getState().toasts[0]!.action).toBeUndefined();
  });

  it('says skipped files apart from failed ones, in the toast and on the list button', () => {
    const row = { ...tick({ status: 'completed', imported: 1, skipped: 3, failed: 1 }), paths: ['/home/me/out'] };
    expect(importEndMessage(row)).toBe('Imported 1 image from out (3 skipped, 1 failed).');
    expect(leftOutLabel(3, 0)).toBe('Show 3 skipped');
    expect(leftOutLabel(0, 1)).toBe('Show 1 failed');
    expect(leftOutLabel(2, 1)).toBe('Show 2 skipped, 1 failed');
  });

  it('switching watch on a folder later stores the folder as the engine now has it', async () => {
    const folder: LibraryFolder = {
      id: idFor(5),
      path: '/home/me/out',
      mode: 'link',
      watch: false,
      watchState: 'off',
      createdAt: 1,
      images: 4,
      missing: 0,
    };
    const { fake, store } = setup({
      'library.folders': async () => ({ items: [folder] }),
      'library.setFolderWatch': async (input) => ({
        folder: { ...folder, watch: (input as { watch: boolean }).watch, watchState: 'watching' },
      }),
    });
    await store.getState().loadFolders();
    await store.getState().setFolderWatch(folder.id, true);
    expect(fake.calls.at(-1)).toEqual({ channel: 'library.setFolderWatch', input: { id: folder.id, watch: true } });
    expect(store.getState().folders).toEqual([{ ...folder, watch: true, watchState: 'watching' }]);
  });
});

describe('the Source filter lists only the sources present', () => {
  const counts = fc.uniqueArray(
    fc.record({
      source: fc.constantFrom(...SOURCE_ORDER),
      images: fc.integer({ min: 1, max: 1_000 }),
      capped: fc.boolean(),
    }),
    { selector: (c) => c.source },
  );

  it('lists exactly the present sources (and the chosen one), in the usual order, each with its count', () => {
    fc.assert(
      fc.property(counts, fc.option(fc.constantFrom(...SOURCE_ORDER)), (present: SourceCount[], chosen) => {
        const options = sourceOptions(present, chosen);
        const expected = SOURCE_ORDER.filter((s) => present.some((p) => p.source === s) || s === chosen);
        expect(options.map((o) => o.source)).toEqual(expected);
        for (const option of options) {
          const count = present.find((p) => p.source === option.source);
          if (count === undefined) expect(option.label).toMatch(/\(none\)$/);
          else
            expect(option.label).toMatch(
              new RegExp(`\\(${count.images.toLocaleString('en-US')}${count.capped ? '\\+' : ''}\\)$`),
            );
        }
      }),
    );
  });

  it('before the engine has answered, lists only the chosen source', () => {
    expect(sourceOptions(null, null)).toEqual([]);
    expect(sourceOptions(null, 'comfyui' as ImageSource)).toEqual([{ source: 'comfyui', label: 'ComfyUI' }]);
  });
});

describe('the imports panel', () => {
  it('offers "Show N imported" on a finished import, and "Show all images" while its images are what is shown', () => {
    const done = tick({ status: 'completed', imported: 5, skipped: 1, failed: 1, found: 7 });
    expect(showAction(done, '')).toEqual({ label: 'Show 5 imported', narrows: true });
    expect(showAction(done, 'fox')).toEqual({ label: 'Show 5 imported', narrows: true });
    expect(showAction(done, importQuery(ID))).toEqual({ label: 'Show all images', narrows: false });
    expect(showAction(tick({ status: 'running' }), '')).toBeNull();
    expect(showAction(tick({ status: 'completed', imported: 0, duplicates: 3 }), '')).toBeNull();
    expect(showAction(tick({ status: 'cancelled', imported: 2 }), '')).toEqual({
      label: 'Show 2 imported',
      narrows: true,
    });
  });

  it('lists skipped files apart from failed ones, only the failures under the warning class', () => {
    const html = renderToStaticMarkup(
      createElement(LeftOut, {
        row: {
          ...tick({ status: 'completed', skipped: 1, failed: 1 }),
          problems: [
            { path: '/o/__init__.py', reason: 'The file is empty: there is no image in it.', status: 'skipped' },
            { path: '/o/cut.png', reason: 'The file is cut short.', status: 'failed' },
          ],
        },
      }),
    );
    const failed = html.slice(html.indexOf('import-left-out failed'), html.indexOf('import-left-out skipped'));
    const skipped = html.slice(html.indexOf('import-left-out skipped'));
    expect(failed).toContain('/o/cut.png');
    expect(failed).not.toContain('__init__.py');
    expect(skipped).toContain('/o/__init__.py');
    expect(skipped).toContain('aria-label="Files skipped"');
    expect(skipped).not.toContain('cut.png');
  });
});
