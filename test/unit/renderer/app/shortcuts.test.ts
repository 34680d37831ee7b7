import { describe, expect, it } from 'vitest';
import { SHORTCUT_GROUPS, shownKeys } from '../../../../renderer/src/app/shortcuts';
import { panelKeyToCommand } from '../../../../renderer/src/app/panels';
import { keyToCommand, type KeyContext } from '../../../../renderer/src/common/keyboard';

const CONTEXTS: KeyContext[] = ['grid', 'viewer', 'composer', 'other'];
const NAMED = [
  'Enter',
  'Escape',
  'Delete',
  'Backspace',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
];
// Every key a keyboard types alone: printable ASCII, the minus sign the zoom takes, and the named keys.
const KEYS = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '−', ...NAMED];

const listed = new Set(SHORTCUT_GROUPS.flatMap((g) => g.items.flatMap((item) => item.keys)));

const command = (key: string, context: KeyContext, mods: { shift?: boolean; ctrl?: boolean } = {}) =>
  keyToCommand(
    {
      key,
      ctrlKey: mods.ctrl === true,
      metaKey: false,
      shiftKey: mods.shift === true,
      altKey: false,
      inTextField: false,
    },
    context,
  );

describe('the keyboard cheat sheet', () => {
  it('lists every key common/keyboard.ts binds, in any context, alone, with Shift where it changes the command, and with Ctrl', () => {
    const missing: string[] = [];
    for (const context of CONTEXTS) {
      for (const key of KEYS) {
        if (command(key, context) !== null && !listed.has(key)) missing.push(`${key} (${context})`);
        // Shift turns a letter to its capital: a capital's command with Shift held is what Shift+letter does.
        const shifted = /^[A-Z]$/.test(key) ? command(key, context, { shift: true }) : null;
        if (shifted !== null && shifted !== command(key, context) && !listed.has(`Shift+${key}`))
          missing.push(`Shift+${key} (${context})`);
        // Escape closes with Ctrl held too: a modifier that changes nothing needs no line of its own.
        const held = command(key, context, { ctrl: true });
        if (held !== null && held !== command(key, context) && !listed.has(`Ctrl+${key}`))
          missing.push(`Ctrl+${key} (${context})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists the keys that fold the panels (GlobalKeys reads them from app/panels.ts)', () => {
    const missing = KEYS.filter((key) => {
      const bound = panelKeyToCommand({
        key,
        ctrlKey: false,
        metaKey: false,
        shiftKey: false,
        altKey: false,
        onPicture: true,
        inTextField: false,
      });
      return bound !== null && !listed.has(key);
    });
    expect(missing).toEqual([]);
  });

  it('opens on ?, outside text fields only', () => {
    expect(command('?', 'other')).toBe('shortcuts');
    expect(command('?', 'grid')).toBe('shortcuts');
    expect(command('?', 'viewer')).toBe('shortcuts');
    expect(
      keyToCommand(
        { key: '?', ctrlKey: false, metaKey: false, shiftKey: true, altKey: false, inTextField: true },
        'other',
      ),
    ).toBeNull();
  });

  it('has the five groups, each entry with keys to show and what they do', () => {
    expect(SHORTCUT_GROUPS.map((g) => g.title)).toEqual(['Gallery', 'Viewer', 'Composer', 'Sweep grid', 'Curation']);
    for (const item of SHORTCUT_GROUPS.flatMap((g) => g.items)) {
      expect(shownKeys(item).length).toBeGreaterThan(0);
      expect(item.does).not.toBe('');
    }
  });
});
