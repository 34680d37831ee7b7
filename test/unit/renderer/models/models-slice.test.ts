import { describe, expect, it } from 'vitest';
import type { ModelLibrary } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/store';
import { AppError } from '../../../../shared/errors';
import { fakeApi } from '../helpers';
import { libraryModel } from './fixtures';

const LIBRARY: ModelLibrary = {
  items: [
    libraryModel({ name: 'detail', note: 'great at 0.6', imageCount: 3 }),
    libraryModel({ name: 'juggernautXL', kind: 'checkpoint', imageCount: 9 }),
  ],
  total: 2,
  baseModels: ['sdxl'],
};

function setup(handlers: Record<string, (input: unknown) => unknown> = {}) {
  const fake = fakeApi({
    'models.library': async () => LIBRARY,
    'jobs.list': async () => ({ items: [], nextCursor: null }),
    ...handlers,
  });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  return { store, calls: fake.calls };
}

describe('the models slice', () => {
  it('opens the screen filtered as asked and loads the whole library', async () => {
    const { store, calls } = setup();
    store.getState().openModels({ search: 'detail', kind: 'lora' });
    expect(store.getState()).toMatchObject({ modelsOpen: true, modelsState: 'loading' });
    expect(store.getState().modelFilter).toEqual({ search: 'detail', kind: 'lora', baseModel: '', sort: 'used' });
    await store.getState().ensureModels();
    expect(store.getState().modelLibrary).toEqual(LIBRARY);
    expect(calls.filter((c) => c.channel === 'models.library')).toEqual([
      { channel: 'models.library', input: { sort: 'used', limit: 5_000 } },
    ]);
  });

  it('keeps the newest answer when an older load returns last', async () => {
    let release: (value: ModelLibrary) => void = () => undefined;
    const older = new Promise<ModelLibrary>((resolve) => (release = resolve));
    let first = true;
    const { store } = setup({
      'models.library': () => {
        if (!first) return LIBRARY;
        first = false;
        return older;
      },
    });
    const stale = store.getState().loadModels();
    await store.getState().loadModels();
    release({ items: [], total: 0, baseModels: [] });
    await stale;
    expect(store.getState().modelLibrary).toEqual(LIBRARY);
  });

  it('saves a note at once on screen; a refusal puts the old one back and says why', async () => {
    const { store, calls } = setup({
      'models.setNote': async (input) => {
        const { note } = input as { note: string };
        if (note === 'no') throw new AppError('storage', 'The disk is full.');
        return { note };
      },
    });
    await store.getState().loadModels();
    const key = LIBRARY.items[0]!.key;
    expect(await store.getState().saveModelNote(key, '  best at 0.6  ')).toBe(true);
    expect(store.getState().modelLibrary?.items[0]?.note).toBe('best at 0.6');
    expect(calls.at(-1)).toEqual({ channel: 'models.setNote', input: { key, note: 'best at 0.6' } });
    expect(await store.getState().saveModelNote(key, 'no')).toBe(false);
    expect(store.getState().modelLibrary?.items[0]?.note).toBe('best at 0.6');
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['The disk is full.']);
    // The same note again asks nothing.
    const asked = calls.length;
    expect(await store.getState().saveModelNote(key, 'best at 0.6')).toBe(true);
    expect(calls.length).toBe(asked);
  });

  it('Show images closes the screen and searches the gallery, out of the trash', async () => {
    const { store, calls } = setup();
    store.setState({ filters: { ...store.getState().filters, view: 'trash' } });
    store.getState().openModels();
    store.getState().showModelImages({ kind: 'lora', name: 'detail' });
    expect(store.getState().modelsOpen).toBe(false);
    expect(store.getState().filters).toMatchObject({ view: 'all', search: 'lora:"detail"' });
    await Promise.resolve();
    expect(calls.some((c) => c.channel === 'jobs.list')).toBe(true);
  });

  it('reports a library that cannot be read on the screen, not as a toast', async () => {
    const { store } = setup({
      'models.library': async () => {
        throw new AppError('internal', 'The model library is not built yet.');
      },
    });
    await store.getState().loadModels();
    expect(store.getState()).toMatchObject({
      modelsState: 'error',
      modelsError: 'The model library is not built yet.',
    });
    expect(store.getState().toasts).toEqual([]);
  });
});
