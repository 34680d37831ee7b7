import type { Filters } from '../store/filters';

/** The panels around the pictures that a person can fold away: the composer and the boards/tags column. */
export type PanelName = 'composer' | 'sidebar';

export interface PanelState {
  composer: boolean;
  sidebar: boolean;
  /** What Tab folded away, so the next Tab brings back just those; null when nothing was hidden by Tab. */
  stash: { composer: boolean; sidebar: boolean } | null;
}

export const PANELS_KEY = 'atelier.panels';
export const ALL_SHOWN: PanelState = { composer: true, sidebar: true, stash: null };

/** The remembered panels; anything unreadable (an old or hand-edited value) falls back to all shown. */
export function parsePanels(raw: string | null | undefined): PanelState {
  if (raw === null || raw === undefined) return ALL_SHOWN;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof PanelState, unknown>>;
    const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
    const stash = value.stash as Partial<Record<PanelName, unknown>> | null | undefined;
    return {
      composer: bool(value.composer, true),
      sidebar: bool(value.sidebar, true),
      stash:
        stash !== null && typeof stash === 'object'
          ? { composer: bool(stash.composer, true), sidebar: bool(stash.sidebar, true) }
          : null,
    };
  } catch {
    return ALL_SHOWN;
  }
}

/** The boards/tags column stands only when it holds something, or when the person asked for it to make a first board. */
export function sidebarShown(panels: PanelState, hasContent: boolean, revealed: boolean): boolean {
  return panels.sidebar && (hasContent || revealed);
}

/** Tab: anything showing folds away (remembered); with everything folded, what Tab folded comes back (or all). */
export function toggleAll(panels: PanelState, sidebarVisible: boolean): PanelState {
  if (panels.composer || sidebarVisible) {
    return { composer: false, sidebar: false, stash: { composer: panels.composer, sidebar: sidebarVisible } };
  }
  return { ...(panels.stash ?? { composer: true, sidebar: true }), stash: null };
}

/** One panel's own toggle; it forgets what Tab folded, since the person is arranging the panels by hand now. */
export function toggleOne(panels: PanelState, name: PanelName, visible: boolean): PanelState {
  return { ...panels, [name]: !visible, stash: null };
}

export type PanelCommand = 'togglePanels' | 'toggleComposer' | 'toggleSidebar';

export interface PanelKeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The keyboard is on a picture (the focused card of the grid or the list), not on a control or in a text field. */
  onPicture: boolean;
  inTextField: boolean;
}

/**
 * Tab folds the panels only while the keyboard is on a picture, as Lightroom's Tab in its grid: anywhere else Tab
 * moves the focus as always (the first Tab reaches "Skip to images", fields and dialogs keep their order), and
 * Shift+Tab always moves back. C and B fold the composer and the boards column from anywhere but a text field.
 */
export function panelKeyToCommand(input: PanelKeyInput): PanelCommand | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  if (input.key === 'Tab') return input.onPicture && !input.shiftKey ? 'togglePanels' : null;
  if (input.inTextField || input.shiftKey) return null;
  if (input.key === 'c' || input.key === 'C') return 'toggleComposer';
  if (input.key === 'b' || input.key === 'B') return 'toggleSidebar';
  return null;
}

/** Whether an element is a picture the grid's keys act on (the card's own button, which carries data-card). */
export function isPicture(target: EventTarget | null): boolean {
  const element = target as { getAttribute?: (name: string) => string | null } | null;
  return typeof element?.getAttribute === 'function' && element.getAttribute('data-card') !== null;
}

/** How many filters narrow the history beyond the view tab and the search: the Filters button's badge. */
export function activeFilterCount(filters: Pick<Filters, 'status' | 'provider' | 'source'>): number {
  return (filters.status.length > 0 ? 1 : 0) + (filters.provider !== null ? 1 : 0) + (filters.source !== null ? 1 : 0);
}
