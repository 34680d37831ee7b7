import { textOnlyOperations } from '../../../../shared/contract.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProviderCapabilities, ProviderInfo } from '../../../../shared/contract';
import {
  adaptDraftToProvider,
  buildRequest,
  DEFAULT_DRAFT,
  fingerprint,
  keyForAttempt,
} from '../../../../renderer/src/composer/composer';
import { validateRequest } from '../../../../renderer/src/composer/request-validation';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatEta,
  formatNumber,
  formatPercent,
  formatRelativeTime,
} from '../../../../renderer/src/common/format';
import { gridLayout, stripRows } from '../../../../renderer/src/gallery/grid-layout';
import { keyToCommand, moveIndex, type KeyInput } from '../../../../renderer/src/common/keyboard';
import {
  clickSelect,
  EMPTY_SELECTION,
  pruneSelection,
  selectAll,
  selectedIds,
} from '../../../../renderer/src/gallery/selection';

const key = (k: string, extra: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...extra,
});

describe('keyboard mapping', () => {
  it('maps the documented shortcuts per context', () => {
    expect(keyToCommand(key('/'), 'grid')).toBe('focusSearch');
    expect(keyToCommand(key('f'), 'grid')).toBe('favorite');
    expect(keyToCommand(key('F'), 'viewer')).toBe('favorite');
    expect(keyToCommand(key('Delete'), 'grid')).toBe('delete');
    expect(keyToCommand(key('Enter'), 'grid')).toBe('open');
    expect(keyToCommand(key('ArrowRight'), 'viewer')).toBe('next');
    expect(keyToCommand(key('ArrowDown'), 'grid')).toBe('down');
    expect(keyToCommand(key('ArrowDown'), 'viewer')).toBeNull();
    expect(keyToCommand(key('a', { ctrlKey: true }), 'grid')).toBe('selectAll');
    expect(keyToCommand(key('z', { metaKey: true }), 'grid')).toBe('undo');
    expect(keyToCommand(key('z'), 'viewer')).toBe('zoom');
    expect(keyToCommand(key('Escape'), 'viewer')).toBe('close');
  });

  it('Ctrl+Enter and Cmd+Enter submit from the composer, even inside the prompt box', () => {
    expect(keyToCommand(key('Enter', { ctrlKey: true, inTextField: true }), 'composer')).toBe('submit');
    expect(keyToCommand(key('Enter', { metaKey: true, inTextField: true }), 'composer')).toBe('submit');
    expect(keyToCommand(key('Enter', { inTextField: true }), 'composer')).toBeNull();
  });

  it('plain letters typed into a text field never trigger commands', () => {
    for (const k of ['f', '/', 'Delete', 'Backspace', 'z', 'r', 'ArrowLeft']) {
      expect(keyToCommand(key(k, { inTextField: true }), 'grid')).toBeNull();
    }
  });

  it('grid navigation stays inside the list', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.constantFrom('prev', 'next', 'up', 'down', 'first', 'last' as const),
        (length, columns, start, command) => {
          const index = moveIndex(command, start % length, columns, length);
          expect(index).toBeGreaterThanOrEqual(0);
          expect(index).toBeLessThan(length);
        },
      ),
    );
    expect(moveIndex('down', 1, 4, 10)).toBe(5);
    expect(moveIndex('up', 1, 4, 10)).toBe(0);
    expect(moveIndex('next', 0, 4, 0)).toBe(-1);
  });
});

describe('selection', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];
  it('click selects one, ctrl/cmd-click toggles, shift-click selects the range from the anchor', () => {
    let s = clickSelect(EMPTY_SELECTION, order, 'b', { range: false, toggle: false });
    expect(selectedIds(s, order)).toEqual(['b']);
    s = clickSelect(s, order, 'd', { range: true, toggle: false });
    expect(selectedIds(s, order)).toEqual(['b', 'c', 'd']);
    s = clickSelect(s, order, 'a', { range: true, toggle: false });
    expect(selectedIds(s, order)).toEqual(['a', 'b']);
    s = clickSelect(s, order, 'e', { range: false, toggle: true });
    expect(selectedIds(s, order)).toEqual(['a', 'b', 'e']);
    s = clickSelect(s, order, 'a', { range: false, toggle: true });
    expect(selectedIds(s, order)).toEqual(['b', 'e']);
  });

  it('select all, and pruning drops what is no longer shown', () => {
    const all = selectAll(order);
    expect(selectedIds(all, order)).toEqual(order);
    const pruned = pruneSelection(all, ['a', 'c']);
    expect(Object.keys(pruned.selected).sort()).toEqual(['a', 'c']);
  });
});

describe('formatters', () => {
  it('numbers group thousands exactly as en-US does, for any number', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(100_000)).toBe('100,000');
    expect(formatNumber(-1234567.5)).toBe('-1,234,567.5');
    expect(formatCount(1, 'image')).toBe('1 image');
    expect(formatCount(12_345, 'image')).toBe('12,345 images');
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (n) => {
        expect(formatNumber(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });

  it('bytes, durations, ETA, percent and relative time read naturally', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(formatEta(undefined)).toBeNull();
    expect(formatEta(12_000)).toBe('about 12 s left');
    expect(formatPercent(0.426)).toBe('43%');
    expect(formatPercent(1.2)).toBe('100%');
    expect(formatRelativeTime(1_000, 10_000)).toBe('just now');
    expect(formatRelativeTime(0, 5 * 60_000)).toBe('5 min ago');
  });

  it('never throws on odd numbers', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(typeof formatBytes(n)).toBe('string');
        expect(typeof formatDuration(n)).toBe('string');
      }),
    );
  });
});

describe('grid layout', () => {
  it('fits as many cards per row as the width allows, at least one', () => {
    expect(gridLayout(100, 10).columns).toBe(1);
    const wide = gridLayout(1200, 100);
    expect(wide.columns).toBeGreaterThan(4);
    expect(wide.rows).toBe(Math.ceil(100 / wide.columns));
    expect(wide.cardWidth * wide.columns).toBeLessThanOrEqual(1200);
  });

  it('an expanded card inserts one strip row beneath its row and every card row keeps a virtual row of its own', () => {
    const none = stripRows(-1);
    expect([0, 1, 2].map((v) => none.isStrip(v))).toEqual([false, false, false]);
    expect(none.toData(5)).toBe(5);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 60 }), (after, dataRows) => {
        const rows = stripRows(after);
        const seen: number[] = [];
        let strips = 0;
        for (let v = 0; v < dataRows + 1; v += 1) {
          if (rows.isStrip(v)) strips += 1;
          else seen.push(rows.toData(v));
        }
        expect(strips).toBe(after + 1 < dataRows + 1 ? 1 : 0);
        expect(seen).toEqual(seen.map((_, i) => i));
        for (const row of seen) expect(rows.toData(rows.toVirtual(row))).toBe(row);
        expect(rows.isStrip(rows.toVirtual(after) + 1)).toBe(true);
      }),
    );
  });
});

const caps: ProviderCapabilities = {
  sizes: {
    min: 256,
    max: 1024,
    multipleOf: 64,
    presets: [
      [512, 512],
      [768, 512],
    ],
  },
  maxCount: 4,
  steps: { min: 1, max: 50, default: 20 },
  seed: true,
  negativePrompt: true,
  maxPartialImages: 3,
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
};
const fixedCaps: ProviderCapabilities = {
  sizes: {
    min: 1024,
    max: 1536,
    multipleOf: 16,
    fixed: [
      [1024, 1024],
      [1536, 1024],
    ],
    presets: [[1024, 1024]],
  },
  maxCount: 10,
  seed: false,
  negativePrompt: false,
  maxPartialImages: 0,
  qualities: ['low', 'high'],
  outputFormats: ['png'],
  operations: textOnlyOperations('text only'),
};

describe('composer', () => {
  it('sends only what the provider supports', () => {
    const draft = {
      ...DEFAULT_DRAFT,
      prompt: 'p',
      negativePrompt: 'blur',
      seedLocked: true,
      seed: 7,
      steps: 30,
      quality: 'high' as const,
    };
    expect(buildRequest(draft, caps)).toEqual({
      provider: 'builtin',
      prompt: 'p',
      width: 512,
      height: 512,
      count: 1,
      negativePrompt: 'blur',
      seed: 7,
      steps: 30,
      partialImages: 2,
    });
    expect(buildRequest({ ...draft, provider: 'openai' }, fixedCaps)).toEqual({
      provider: 'openai',
      prompt: 'p',
      width: 512,
      height: 512,
      count: 1,
      quality: 'high',
    });
    expect(buildRequest({ ...draft, seedLocked: false, previews: false }, caps)).not.toHaveProperty('seed');
    expect(buildRequest({ ...draft, previews: false }, caps).partialImages).toBe(0);
  });

  it('validates with the contract and the provider limits, per field', () => {
    expect(validateRequest(buildRequest({ ...DEFAULT_DRAFT, prompt: '   ' }, caps), caps)).toHaveProperty('prompt');
    expect(validateRequest(buildRequest({ ...DEFAULT_DRAFT, prompt: 'p', width: 500 }, caps), caps).width).toContain(
      'multiple of 64',
    );
    expect(validateRequest(buildRequest({ ...DEFAULT_DRAFT, prompt: 'p', count: 6 }, caps), caps).count).toContain(
      'at most 4',
    );
    expect(validateRequest(buildRequest({ ...DEFAULT_DRAFT, prompt: 'p' }, fixedCaps), fixedCaps).width).toContain(
      '1024×1024',
    );
    expect(validateRequest(buildRequest({ ...DEFAULT_DRAFT, prompt: 'p' }, caps), caps)).toEqual({});
  });

  it('one key per composed request: same request same key, changed request new key', () => {
    let n = 0;
    const make = () => `k${++n}`;
    const request = buildRequest({ ...DEFAULT_DRAFT, prompt: 'p' }, caps);
    const first = keyForAttempt(null, request, make);
    expect(keyForAttempt(first, { ...request }, make)).toBe(first);
    expect(keyForAttempt(first, { ...request, prompt: 'q' }, make).key).toBe('k2');
    expect(fingerprint({ prompt: 'a', provider: 'b', width: 1, height: 1, count: 1 })).toBe(
      fingerprint({ provider: 'b', count: 1, height: 1, width: 1, prompt: 'a' }),
    );
  });

  it('switching provider adapts model, size, count and the controls it supports', () => {
    const openai: ProviderInfo = {
      id: 'openai',
      name: 'OpenAI',
      enabled: true,
      configured: true,
      kind: 'builtin',
      concurrency: 1,
      health: { state: 'unknown', running: [] },
      capabilities: fixedCaps,
      models: ['gpt-image-1'],
      defaultModel: 'gpt-image-1',
      status: { state: 'ready' },
    };
    const next = adaptDraftToProvider({ ...DEFAULT_DRAFT, count: 3, steps: 20 }, openai);
    expect(next).toMatchObject({
      provider: 'openai',
      model: 'gpt-image-1',
      width: 1024,
      height: 1024,
      count: 3,
      steps: null,
      quality: 'low',
    });
  });
});
