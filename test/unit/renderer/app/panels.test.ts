import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  ALL_SHOWN,
  isPicture,
  panelKeyToCommand,
  PANELS_KEY,
  parsePanels,
  sidebarShown,
  toggleAll,
  type PanelKeyInput,
  type PanelState,
} from '../../../../renderer/src/app/panels';
import { createAppStore } from '../../../../renderer/src/store/store';
import { sidebarVisible } from '../../../../renderer/src/store/ui-slice';
import { fakeApi } from '../helpers';

const key = (over: Partial<PanelKeyInput>): PanelKeyInput => ({
  key: 'Tab',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  onPicture: false,
  inTextField: false,
  ...over,
});

const panelState = fc.record({
  composer: fc.boolean(),
  sidebar: fc.boolean(),
  stash: fc.option(fc.record({ composer: fc.boolean(), sidebar: fc.boolean() })),
});

describe('Tab and the panel keys', () => {
  it('Tab folds the panels only from a picture; in a field, on a control or with Shift it moves the focus', () => {
    expect(panelKeyToCommand(key({ onPicture: true }))).toBe('togglePanels');
    expect(panelKeyToCommand(key({ onPicture: false }))).toBeNull();
    expect(panelKeyToCommand(key({ onPicture: true, shiftKey: true }))).toBeNull();
    expect(panelKeyToCommand(key({ onPicture: false, inTextField: true }))).toBeNull();
    expect(panelKeyToCommand(key({ onPicture: true, ctrlKey: true }))).toBeNull();
  });

  it('C and B fold the composer and the boards, never while typing or with a modifier', () => {
    expect(panelKeyToCommand(key({ key: 'c' }))).toBe('toggleComposer');
    expect(panelKeyToCommand(key({ key: 'B', onPicture: true }))).toBe('toggleSidebar');
    expect(panelKeyToCommand(key({ key: 'c', inTextField: true }))).toBeNull();
    expect(panelKeyToCommand(key({ key: 'b', metaKey: true }))).toBeNull();
    expect(panelKeyToCommand(key({ key: 'C', shiftKey: true }))).toBeNull();
    expect(panelKeyToCommand(key({ key: 'x' }))).toBeNull();
  });

  it('a picture is the element carrying data-card', () => {
    const element = (attrs: Record<string, string>) => ({ getAttribute: (n: string) => attrs[n] ?? null });
    expect(isPicture(element({ 'data-card': 'j1' }) as unknown as EventTarget)).toBe(true);
    expect(isPicture(element({ class: 'btn' }) as unknown as EventTarget)).toBe(false);
    expect(isPicture(null)).toBe(false);
  });
});

describe('folding the panels', () => {
  it('Tab twice gives back exactly the panels that were showing', () => {
    fc.assert(
      fc.property(panelState, fc.boolean(), (panels: PanelState, hasContent) => {
        const visible = sidebarShown(panels, hasContent, false);
        fc.pre(panels.composer || visible);
        const hidden = toggleAll(panels, visible);
        expect([hidden.composer, hidden.sidebar]).toEqual([false, false]);
        const back = toggleAll(hidden, false);
        expect([back.composer, back.sidebar && visible]).toEqual([panels.composer, visible]);
        expect(back.stash).toBeNull();
      }),
    );
  });

  it('with everything folded by hand, Tab shows every panel', () => {
    expect(toggleAll({ composer: false, sidebar: false, stash: null }, false)).toEqual(ALL_SHOWN);
  });

  it('the boards column stands only with boards or tags in it, or when asked for by hand', () => {
    expect(sidebarShown(ALL_SHOWN, false, false)).toBe(false);
    expect(sidebarShown(ALL_SHOWN, true, false)).toBe(true);
    expect(sidebarShown(ALL_SHOWN, false, true)).toBe(true);
    expect(sidebarShown({ ...ALL_SHOWN, sidebar: false }, true, true)).toBe(false);
  });

  it('anything stored reads as a whole panel state, never throws', () => {
    fc.assert(
      fc.property(fc.option(fc.oneof(fc.string(), fc.json())), (raw) => {
        const panels = parsePanels(raw);
        expect(typeof panels.composer).toBe('boolean');
        expect(typeof panels.sidebar).toBe('boolean');
      }),
    );
    fc.assert(
      fc.property(panelState, (panels) => {
        expect(parsePanels(JSON.stringify(panels))).toEqual(panels);
      }),
    );
    expect(parsePanels(null)).toEqual(ALL_SHOWN);
  });

  it('the Filters badge counts status, provider and source, not the view, search or sort', () => {
    expect(activeFilterCount({ status: [], provider: null, source: null })).toBe(0);
    expect(activeFilterCount({ status: ['failed'], provider: 'builtin', source: 'comfyui' })).toBe(3);
    expect(activeFilterCount({ status: ['succeeded', 'queued'], provider: null, source: null })).toBe(1);
  });
});

describe('the panels in the store', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  afterEach(() => {
    if (original === undefined) delete (globalThis as { localStorage?: unknown }).localStorage;
    else Object.defineProperty(globalThis, 'localStorage', original);
  });
  const storage = () => {
    const items = new Map<string, string>();
    const fake = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    Object.defineProperty(globalThis, 'localStorage', { value: fake, configurable: true, writable: true });
    return items;
  };
  const newStore = () => createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });

  it('a folded panel stays folded in the next session, and Tab there brings back what it folded', () => {
    const items = storage();
    const first = newStore();
    first.setState({ tags: [{ name: 'keeper', count: 1 }] });
    first.getState().togglePanel('composer');
    expect(first.getState().panels.composer).toBe(false);
    first.getState().togglePanel('composer');
    first.getState().setComposerOpen(true);
    first.getState().toggleAllPanels();
    expect(first.getState().panels).toMatchObject({ composer: false, sidebar: false });
    // The narrow window's drawer folds with the rest.
    expect(first.getState().composerOpen).toBe(false);
    expect(items.has(PANELS_KEY)).toBe(true);

    const next = newStore();
    next.setState({ tags: [{ name: 'keeper', count: 1 }] });
    expect(next.getState().panels).toMatchObject({ composer: false, sidebar: false });
    next.getState().toggleAllPanels();
    expect(next.getState().panels).toMatchObject({ composer: true, sidebar: true });
    expect(sidebarVisible(next.getState())).toBe(true);
  });

  it('an empty library has no boards column until the person opens it to make a first board', () => {
    storage();
    const store = newStore();
    store.setState({ boards: [], tags: [] });
    expect(sidebarVisible(store.getState())).toBe(false);
    store.getState().togglePanel('sidebar');
    expect(sidebarVisible(store.getState())).toBe(true);
    store.getState().togglePanel('sidebar');
    expect(sidebarVisible(store.getState())).toBe(false);
    // Not remembered: the next session's empty library has no column again.
    store.getState().togglePanel('sidebar');
    const next = newStore();
    next.setState({ boards: [], tags: [] });
    expect(sidebarVisible(next.getState())).toBe(false);
    next.setState({ boards: [{ id: 'b', name: 'Picks', count: 0, createdAt: 0 }] as never });
    expect(sidebarVisible(next.getState())).toBe(true);
  });

  it('N shows a folded composer (showPanel) and leaves a shown one as it is', () => {
    storage();
    const store = newStore();
    store.getState().togglePanel('composer');
    store.getState().showPanel('composer');
    expect(store.getState().panels.composer).toBe(true);
    const before = store.getState().panels;
    store.getState().showPanel('composer');
    expect(store.getState().panels).toBe(before);
  });
});
