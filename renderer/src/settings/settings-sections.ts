/** Settings' sections, one shown at a time: their order in the list, the last one looked at, and arrow-key moves. */

export const SETTINGS_SECTIONS = [
  { id: 'appearance', label: 'Appearance' },
  { id: 'providers', label: 'Providers' },
  { id: 'spend', label: 'Spend' },
  { id: 'work', label: 'Work and retention' },
  { id: 'library', label: 'Library' },
  { id: 'updates', label: 'Updates' },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

const KEY = 'atelier.settingsSection';
// The first visit is for setting up a provider: Providers, not the top of the list.
const DEFAULT: SettingsSectionId = 'providers';

/** A stored value read back: one of the sections, else Providers (an old or foreign value is not trusted). */
export function sectionFrom(raw: string | null | undefined): SettingsSectionId {
  return SETTINGS_SECTIONS.find((s) => s.id === raw)?.id ?? DEFAULT;
}

export function lastSection(): SettingsSectionId {
  return sectionFrom(globalThis.localStorage?.getItem(KEY));
}

export function rememberSection(id: SettingsSectionId): void {
  globalThis.localStorage?.setItem(KEY, id);
}

/** Where a key moves in the vertical list (ArrowUp/Down wrap, Home, End); null for any other key. */
export function sectionAfterKey(current: SettingsSectionId, key: string): SettingsSectionId | null {
  const at = SETTINGS_SECTIONS.findIndex((s) => s.id === current);
  const n = SETTINGS_SECTIONS.length;
  const to =
    key === 'ArrowDown'
      ? (at + 1) % n
      : key === 'ArrowUp'
        ? (at - 1 + n) % n
        : key === 'Home'
          ? 0
          : key === 'End'
            ? n - 1
            : null;
  return to === null ? null : SETTINGS_SECTIONS[to]!.id;
}
