import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../../../shared/contract';
import { textOnlyOperations } from '../../../../shared/contract';
import { Composer } from '../../../../renderer/src/composer/Composer';
import { AppProvider } from '../../../../renderer/src/store/context';
import { createAppStore } from '../../../../renderer/src/store/store';
import type { SweepAxisDraft } from '../../../../renderer/src/sweeps/sweep-axes';
import { sweepTally, sweepView } from '../../../../renderer/src/sweeps/sweep-plan';
import { sweepKeyToCommand } from '../../../../renderer/src/sweeps/sweep-keys';
import { SHORTCUT_GROUPS } from '../../../../renderer/src/app/shortcuts';
import { fakeApi } from '../helpers';

const BASE = { prompt: 'a red fox', count: 1 };
const axis = (field: SweepAxisDraft['field'], values: string, lora = ''): SweepAxisDraft => ({ field, values, lora });

const PROVIDER: ProviderInfo = {
  id: 'builtin',
  kind: 'builtin',
  name: 'Built-in',
  enabled: true,
  status: { state: 'ok' },
  models: [],
  capabilities: {
    sizes: { min: 64, max: 2048, multipleOf: 8, presets: [[512, 512]] },
    maxCount: 10,
    seed: true,
    negativePrompt: true,
    maxPartialImages: 0,
    outputFormats: ['png'],
    operations: textOnlyOperations('text only'),
    steps: { min: 1, max: 150, default: 20 },
    guidance: { min: 0, max: 30, default: 7 },
  },
} as unknown as ProviderInfo;

function composerHtml(axes: SweepAxisDraft[], open = true): string {
  const fake = fakeApi({});
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  store.setState({ providers: [PROVIDER], sweepAxes: axes, sweepSectionOpen: open });
  store.getState().updateDraft({ prompt: 'a red fox' });
  const rendered = { ...store, getInitialState: store.getState };
  return renderToStaticMarkup(
    createElement(AppProvider, { store: rendered, api: fake.api, children: createElement(Composer) }),
  );
}

describe('the composer’s sweep axes', () => {
  it('counts cells and images from the values as typed, before anything is sent', () => {
    const axes = [axis('guidance', '3, 5, 7'), axis('steps', '10-20 step 10')];
    const view = sweepView(axes, { ...BASE, count: 2 });
    expect(view).toMatchObject({ active: true, ok: true, cells: 6, images: 12, label: 'Run sweep · 6 cells' });
    expect(view.axes.map((a) => a.labels)).toEqual([
      ['3', '5', '7'],
      ['10', '20'],
    ]);
    expect(sweepTally(view, axes)).toBe('3 × 2 = 6 cells · 12 images');
  });

  it('is not a sweep while no axis has values: Generate stays Generate', () => {
    const view = sweepView([axis('guidance', '  ')], BASE);
    expect(view).toMatchObject({ active: false, label: 'Generate' });
  });

  it('names the wrong values under their own axis and refuses to run', () => {
    const view = sweepView([axis('guidance', '3, 5'), axis('steps', 'ten')], BASE);
    expect(view.ok).toBe(false);
    expect(view.axes[0]!.message).toBeNull();
    expect(view.axes[1]!.message).not.toBeNull();
    expect(view.reason).toBe(view.axes[1]!.message);
    expect(view.label).toBe('Run sweep');
  });

  it('refuses over the cap with the numbers, and points a blank axis between filled ones back at the right axis', () => {
    const over = sweepView([axis('seed', '1-30'), axis('steps', '1-20')], BASE);
    expect(over).toMatchObject({ ok: false, cells: 600 });
    expect(over.reason).toContain('600');
    expect(over.reason).toContain('500');
    const skipped = sweepView([axis('guidance', ''), axis('loraWeight', '0, 1')], BASE);
    expect(skipped.axes[1]!.message).toMatch(/LoRA/);
    expect(skipped.axes[0]!.message).toBeNull();
  });

  it('shows chips and the run button’s cell count in the composer, disabled with its reason when wrong', () => {
    const good = composerHtml([axis('guidance', '3, 5, 7'), axis('steps', '10, 20')]);
    expect(good).toContain('Run sweep · 6 cells');
    expect(good).toMatch(/<li class="chip">5<\/li>/);
    expect(good).not.toMatch(/<button type="submit"[^>]*disabled/);
    const bad = composerHtml([axis('steps', 'ten')]);
    expect(bad).toMatch(/<button type="submit"[^>]*disabled/);
    expect(bad).toContain('aria-invalid="true"');
    // Folded, the section sends nothing of its axes.
    const folded = composerHtml([axis('guidance', '3, 5')], false);
    expect(folded).not.toContain('Run sweep');
    expect(folded).toContain('2 cells · 2 images, kept for later');
  });
});

describe('the grid’s keys', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean }> = {}) =>
    sweepKeyToCommand({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
  it('moves, zooms, pages, rates, rejects, trashes, compares and re-runs', () => {
    expect(key('ArrowDown')).toEqual({ kind: 'move', key: 'ArrowDown' });
    expect(key('+')).toEqual({ kind: 'zoom', by: 1 });
    expect(key('-')).toEqual({ kind: 'zoom', by: -1 });
    expect(key('PageDown')).toEqual({ kind: 'page', by: 1 });
    expect(key('4')).toEqual({ kind: 'rate', rating: 4 });
    expect(key('x')).toEqual({ kind: 'reject' });
    expect(key('Delete')).toEqual({ kind: 'trash' });
    expect(key('c')).toEqual({ kind: 'compare' });
    expect(key('r')).toEqual({ kind: 'rerun' });
    expect(key('Enter')).toEqual({ kind: 'open' });
    // Ctrl+Z and the like belong to the app (undo).
    expect(key('z', { ctrlKey: true })).toBeNull();
  });
});

describe('the grid’s keys on the cheat sheet', () => {
  it('lists every key the grid binds in its Sweep grid group', () => {
    const group = SHORTCUT_GROUPS.find((g) => g.title === 'Sweep grid')!;
    const listed = new Set(group.items.flatMap((item) => item.keys));
    const named = ['Enter', 'Delete', 'Backspace', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
    const keys = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), ...named, 'PageUp', 'PageDown'];
    const bound = keys.filter(
      (key) => sweepKeyToCommand({ key, ctrlKey: false, metaKey: false, altKey: false }) !== null,
    );
    expect(bound.filter((key) => !listed.has(key))).toEqual([]);
  });
});
