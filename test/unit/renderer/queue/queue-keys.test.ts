import { describe, expect, it } from 'vitest';
import { keyToCommand } from '../../../../renderer/src/common/keyboard';
import { focusStepOfKey, queueMoveOfKey } from '../../../../renderer/src/queue/queue-keys';

const key = (
  k: string,
  mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {},
) => ({
  key: k,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe('queue keys', () => {
  it('Alt+↑/↓ move a queued job one place, Alt+Home to the top, Alt+End to the end', () => {
    expect(queueMoveOfKey(key('ArrowUp', { altKey: true }))).toBe('up');
    expect(queueMoveOfKey(key('ArrowDown', { altKey: true }))).toBe('down');
    expect(queueMoveOfKey(key('Home', { altKey: true }))).toBe('top');
    expect(queueMoveOfKey(key('End', { altKey: true }))).toBe('end');
  });

  it('without Alt, or with another modifier too, a key moves nothing', () => {
    expect(queueMoveOfKey(key('ArrowUp'))).toBeNull();
    expect(queueMoveOfKey(key('ArrowUp', { altKey: true, shiftKey: true }))).toBeNull();
    expect(queueMoveOfKey(key('Home', { altKey: true, ctrlKey: true }))).toBeNull();
    expect(queueMoveOfKey(key('q', { altKey: true }))).toBeNull();
  });

  it('plain ↑/↓/Home/End walk the focus along the rows, clamped to the list', () => {
    expect(focusStepOfKey(key('ArrowDown'), 0, 3)).toBe(1);
    expect(focusStepOfKey(key('ArrowDown'), 2, 3)).toBe(2);
    expect(focusStepOfKey(key('ArrowUp'), 0, 3)).toBe(0);
    expect(focusStepOfKey(key('End'), 0, 3)).toBe(2);
    expect(focusStepOfKey(key('Home'), 2, 3)).toBe(0);
    expect(focusStepOfKey(key('ArrowDown', { altKey: true }), 0, 3)).toBeNull();
    expect(focusStepOfKey(key('Enter'), 0, 3)).toBeNull();
  });

  it('Q opens the queue from the gallery and elsewhere, never from a text field', () => {
    const q = { key: 'q', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
    expect(keyToCommand({ ...q, inTextField: false }, 'grid')).toBe('queue');
    expect(keyToCommand({ ...q, key: 'Q', shiftKey: true, inTextField: false }, 'other')).toBe('queue');
    expect(keyToCommand({ ...q, inTextField: true }, 'other')).toBeNull();
    expect(keyToCommand({ ...q, inTextField: false }, 'viewer')).toBeNull();
  });
});
