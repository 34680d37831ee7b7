import { describe, expect, it } from 'vitest';
import { keyToCommand, type KeyInput } from '../../../../renderer/src/common/keyboard';

const key = (k: string, over: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...over,
});

describe('the viewer’s zoom and details keys', () => {
  it('+ and − zoom, Ctrl/Cmd+0 fits and Ctrl/Cmd+1 shows 1:1, while plain digits still rate', () => {
    expect(keyToCommand(key('+'), 'viewer')).toBe('zoomIn');
    expect(keyToCommand(key('='), 'viewer')).toBe('zoomIn');
    expect(keyToCommand(key('-'), 'viewer')).toBe('zoomOut');
    expect(keyToCommand(key('0', { ctrlKey: true }), 'viewer')).toBe('zoomFit');
    expect(keyToCommand(key('1', { metaKey: true }), 'viewer')).toBe('zoomActual');
    expect(keyToCommand(key('1'), 'viewer')).toBe('rate');
    expect(keyToCommand(key('0'), 'viewer')).toBe('rate');
    // The grid's own Ctrl +/− (thumbnail size) is not the viewer's.
    expect(keyToCommand(key('0', { ctrlKey: true }), 'grid')).toBeNull();
    expect(keyToCommand(key('+'), 'grid')).toBeNull();
  });
  it('Shift+I shows or hides the details; plain I is still Use as input', () => {
    expect(keyToCommand(key('I', { shiftKey: true }), 'viewer')).toBe('details');
    expect(keyToCommand(key('i'), 'viewer')).toBe('useAsInput');
    expect(keyToCommand(key('I', { shiftKey: true }), 'viewer')).not.toBe('useAsInput');
    expect(keyToCommand(key('I', { shiftKey: true, inTextField: true }), 'viewer')).toBeNull();
  });
});
