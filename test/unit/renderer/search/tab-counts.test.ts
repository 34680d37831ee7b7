import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Filters } from '../../../../renderer/src/search/Filters';
import { createAppStore } from '../../../../renderer/src/store/store';
import { AppProvider } from '../../../../renderer/src/store/context';
import { countsKeyOf, DEFAULT_FILTERS } from '../../../../renderer/src/store/filters';
import type { AppState } from '../../../../renderer/src/store/types';
import { emptyStats, fakeApi } from '../helpers';

/** The view tabs as rendered with this state: each tab's text, count included. */
function tabs(patch: Partial<AppState>): string[] {
  const fake = fakeApi({});
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  store.setState(patch);
  // Server rendering reads the store's initial state (zustand's server snapshot): here, the state set above.
  const rendered = { ...store, getInitialState: store.getState };
  const html = renderToStaticMarkup(
    createElement(AppProvider, { store: rendered, api: fake.api, children: createElement(Filters) }),
  );
  return [...html.matchAll(/role="tab"[^>]*>(.*?)<\/button>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));
}

describe('the view tabs count images', () => {
  // Three jobs of two images: the library's totals say 3 (jobs), the engine's counts 6 (images).
  const stats = { ...emptyStats, total: 3, trashed: 0, favorites: 1, images: 6 };

  it('show no number until the engine has counted images: never the totals of jobs first', () => {
    expect(tabs({ stats, counts: null })).toEqual(['All', 'Favorites', 'Trash']);
  });

  it('show the images the engine counted for this view', () => {
    const counts = { active: 6, favorites: 2, trash: 1, images: 6, capped: [] };
    expect(tabs({ stats, counts, countsKey: countsKeyOf(DEFAULT_FILTERS) })).toEqual(['All6', 'Favorites2', 'Trash1']);
  });
});
