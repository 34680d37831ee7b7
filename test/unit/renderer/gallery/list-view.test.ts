import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRows, moveVertical } from '../../../../renderer/src/gallery/grid-rows';
import { LAYOUT_KEY, parseLayout } from '../../../../renderer/src/gallery/layout-mode';
import {
  endedMessage,
  fitThumb,
  formatListDate,
  LIST_THUMB_BOX,
  originLabel,
} from '../../../../renderer/src/gallery/list-row';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi } from '../helpers';

describe('a list row’s thumbnail', () => {
  it('keeps the picture’s aspect inside the box: the longer side fills it, the shorter is in proportion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 }), (width, height) => {
        const fit = fitThumb(width, height);
        expect(Math.max(fit.width, fit.height)).toBe(LIST_THUMB_BOX);
        expect(Math.min(fit.width, fit.height)).toBeGreaterThanOrEqual(1);
        const scale = LIST_THUMB_BOX / Math.max(width, height);
        // Rounded to whole pixels, never more than half a pixel off (a sliver is kept at one pixel).
        expect(Math.abs(fit.width - Math.max(1, width * scale))).toBeLessThanOrEqual(0.5);
        expect(Math.abs(fit.height - Math.max(1, height * scale))).toBeLessThanOrEqual(0.5);
      }),
    );
    expect(fitThumb(1536, 1024)).toEqual({ width: 44, height: 29 });
    expect(fitThumb(832, 1216)).toEqual({ width: 30, height: 44 });
  });

  it('fills the box when the size is unknown (zero, negative, not a number)', () => {
    for (const [w, h] of [
      [0, 0],
      [0, 512],
      [-3, 10],
      [Number.NaN, 64],
      [64, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(fitThumb(w, h)).toEqual({ width: LIST_THUMB_BOX, height: LIST_THUMB_BOX });
    }
  });
});

describe('a list row’s text', () => {
  it('a job that ended without its image says why on one line; any other job says nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom('failed', 'cancelled', 'interrupted' as const), fc.string(), (status, message) => {
        const line = endedMessage({ status, error: { code: 'provider_error', message } });
        expect(line).not.toBeNull();
        expect(line).not.toMatch(/[\n\r\t]/);
        expect(line!.trim()).not.toBe('');
      }),
    );
    expect(
      endedMessage({ status: 'failed', error: { code: 'provider_error', message: 'Could not reach\nthe server.' } }),
    ).toBe('Could not reach the server.');
    expect(endedMessage({ status: 'cancelled' })).toBe('Cancelled before it finished.');
    for (const status of ['succeeded', 'running', 'queued'] as const)
      expect(endedMessage({ status, error: { code: 'provider_error', message: 'x' } })).toBeNull();
  });

  it('names where an image came from: the provider that made it, or the tool an import came from', () => {
    expect(originLabel({ source: 'atelier', provider: 'comfyui-2' }, 'ComfyUI (studio)')).toEqual({
      label: 'ComfyUI (studio)',
      title: 'Made with ComfyUI (studio)',
    });
    expect(originLabel({ source: 'atelier', provider: 'comfyui-2' }, undefined).label).toBe('comfyui-2');
    expect(originLabel({ source: 'a1111', provider: 'import' }, 'Built-in')).toEqual({
      label: 'AUTOMATIC1111',
      title: 'Imported from AUTOMATIC1111',
    });
  });

  it('dates a row with its time within this year, with its year before it', () => {
    const now = new Date(2026, 11, 1, 18, 0).getTime();
    expect(formatListDate(new Date(2026, 11, 1, 9, 5).getTime(), now)).toBe('Dec 1, 09:05');
    expect(formatListDate(new Date(2026, 0, 31, 23, 59).getTime(), now)).toBe('Jan 31, 23:59');
    expect(formatListDate(new Date(2025, 2, 3, 12, 0).getTime(), now)).toBe('Mar 3, 2025');
  });
});

describe('the list’s rows are the grid’s row model in one column', () => {
  it('↓ and ↑ visit every job once, in order, across date headers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('Today', 'Yesterday', 'June 2026'), { minLength: 1, maxLength: 40 }),
        (labels) => {
          // Sections come in order: sort the labels as a date sort would group them.
          const sorted = [...labels].sort();
          const model = buildRows({
            length: sorted.length,
            columns: 1,
            labelOf: (i) => sorted[i]!,
            expandedIndex: -1,
            hasMore: false,
          });
          const visited = [0];
          for (let i = 0; i < sorted.length - 1; i += 1)
            visited.push(moveVertical(model, visited[visited.length - 1]!, 1));
          expect(visited).toEqual(sorted.map((_, i) => i));
          expect(moveVertical(model, sorted.length - 1, 1)).toBe(sorted.length - 1);
          expect(moveVertical(model, sorted.length - 1, -1)).toBe(Math.max(0, sorted.length - 2));
          expect(model.rows.filter((r) => r.kind === 'header').length).toBe(new Set(sorted).size);
        },
      ),
    );
  });
});

describe('the layout choice', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  afterEach(() => {
    if (original === undefined) delete (globalThis as { localStorage?: unknown }).localStorage;
    else Object.defineProperty(globalThis, 'localStorage', original);
  });
  const storage = (initial: Record<string, string> = {}) => {
    const items = new Map(Object.entries(initial));
    const fake = {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
    };
    Object.defineProperty(globalThis, 'localStorage', { value: fake, configurable: true, writable: true });
    return items;
  };
  const newStore = () => createAppStore({ api: fakeApi().api, makeKey: () => 'k', now: () => 0 });

  it('is the grid until the person picks the list, and the list comes back in the next session', () => {
    const items = storage();
    const first = newStore();
    expect(first.getState().layout).toBe('grid');
    first.getState().setLayout('list');
    expect(first.getState().layout).toBe('list');
    expect(items.get(LAYOUT_KEY)).toBe('list');
    expect(newStore().getState().layout).toBe('list');
    newStore().getState().setLayout('grid');
    expect(newStore().getState().layout).toBe('grid');
  });

  it('anything else stored is the grid', () => {
    fc.assert(fc.property(fc.option(fc.string().filter((s) => s !== 'list')), (raw) => parseLayout(raw) === 'grid'));
    storage({ [LAYOUT_KEY]: 'LIST ' });
    expect(newStore().getState().layout).toBe('grid');
  });
});
