import { afterEach, describe, expect, it } from 'vitest';
import { unfoldComposerOnWork } from '../../../../renderer/src/app/composer-unfold';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi } from '../helpers';

describe('a folded composer and work sent to it', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  afterEach(() => {
    if (original === undefined) delete (globalThis as { localStorage?: unknown }).localStorage;
    else Object.defineProperty(globalThis, 'localStorage', original);
  });
  const folded = () => {
    const items = new Map<string, string>();
    Object.defineProperty(globalThis, 'localStorage', {
      value: { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => items.set(k, v) },
      configurable: true,
      writable: true,
    });
    const store = createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });
    store.getState().togglePanel('composer');
    const stop = unfoldComposerOnWork(store);
    return { store, stop };
  };

  it('comes back for Use as input, a new reference or a recalled prompt', () => {
    const cases: ((s: ReturnType<typeof folded>['store']) => void)[] = [
      (s) => s.setState({ workingFrom: { jobId: 'j', imageId: 'i', strength: 0.6, width: 64, height: 64 } }),
      (s) => s.setState({ references: [{ jobId: 'j', imageId: 'i' }] as never }),
      (s) => s.setState((st) => ({ draft: { ...st.draft, prompt: 'a recalled prompt' } })),
    ];
    for (const send of cases) {
      const { store, stop } = folded();
      send(store);
      expect(store.getState().panels.composer).toBe(true);
      stop();
    }
  });

  it('stays folded for what does not fill it (a provider list, the focus, the thumbnails)', () => {
    const { store, stop } = folded();
    store.setState({ providers: [] });
    store.getState().setThumbSize(300);
    store.setState({ focusedJobId: 'j' });
    store.setState({ workingFrom: null });
    expect(store.getState().panels.composer).toBe(false);
    stop();
  });
});
