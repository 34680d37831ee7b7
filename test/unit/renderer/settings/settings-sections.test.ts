import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SETTINGS_SECTIONS, sectionAfterKey, sectionFrom } from '../../../../renderer/src/settings/settings-sections';

const ids = SETTINGS_SECTIONS.map((s) => s.id);

describe('settings sections', () => {
  it('reads back a remembered section, and anything else (a first visit) as Providers', () => {
    for (const id of ids) expect(sectionFrom(id)).toBe(id);
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), (raw) => {
        const read = sectionFrom(raw);
        expect(ids).toContain(read);
        if (!ids.includes(raw as (typeof ids)[number])) expect(read).toBe('providers');
      }),
    );
  });

  it('moves through the list with the arrows (wrapping), Home and End; other keys move nothing', () => {
    expect(sectionAfterKey('appearance', 'ArrowDown')).toBe('providers');
    expect(sectionAfterKey('appearance', 'ArrowUp')).toBe('updates');
    expect(sectionAfterKey('updates', 'ArrowDown')).toBe('appearance');
    expect(sectionAfterKey('spend', 'Home')).toBe('appearance');
    expect(sectionAfterKey('spend', 'End')).toBe('updates');
    expect(sectionAfterKey('spend', 'a')).toBeNull();
    for (const id of ids) expect(sectionAfterKey(sectionAfterKey(id, 'ArrowDown')!, 'ArrowUp')).toBe(id);
  });

  it('lists the sections Settings has', () => {
    expect(SETTINGS_SECTIONS.map((s) => s.label)).toEqual([
      'Appearance',
      'Providers',
      'Spend',
      'Work and retention',
      'Library',
      'Updates',
    ]);
  });
});
