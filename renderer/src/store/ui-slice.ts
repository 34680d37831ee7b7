import { AppError } from '../../../shared/errors';
import type { SliceCreator } from './deps';
import type { AppState, UiSlice } from './types';
import { CARD_MIN_WIDTH, clampThumbSize } from '../gallery/grid-layout';
import { LAYOUT_KEY, parseLayout } from '../gallery/layout-mode';
import { PANELS_KEY, parsePanels, sidebarShown, toggleAll, toggleOne, type PanelState } from '../app/panels';

let nextToastId = 1;
const THUMB_SIZE_KEY = 'atelier.thumbSize';

function storedThumbSize(): number {
  const raw = globalThis.localStorage?.getItem(THUMB_SIZE_KEY);
  return raw === null || raw === undefined ? CARD_MIN_WIDTH : clampThumbSize(Number(raw));
}
const MAX_TOASTS = 4;

function storePanels(panels: PanelState): PanelState {
  globalThis.localStorage?.setItem(PANELS_KEY, JSON.stringify(panels));
  return panels;
}

export function errorMessage(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}

/** Whether the boards/tags column is on screen: it holds boards or tags, or was opened by hand. */
export function sidebarVisible(
  s: Pick<AppState, 'panels' | 'sidebarRevealed' | 'boards' | 'tags' | 'sweeps'>,
): boolean {
  const holds = (s.boards?.length ?? 0) > 0 || (s.tags?.length ?? 0) > 0 || (s.sweeps?.length ?? 0) > 0;
  return sidebarShown(s.panels, holds, s.sidebarRevealed);
}

export const createUiSlice: SliceCreator<UiSlice> = () => (set, get) => ({
  toasts: [],
  panel: 'none',
  viewerId: null,
  viewerImage: 0,
  compare: null,
  expandedId: null,
  online: true,
  revealed: null,
  providerDown: {},
  composerOpen: false,
  setComposerOpen: (composerOpen) => set({ composerOpen }),
  panels: parsePanels(globalThis.localStorage?.getItem(PANELS_KEY)),
  sidebarRevealed: false,
  toggleAllPanels: () => {
    const s = get();
    const panels = storePanels(toggleAll(s.panels, sidebarVisible(s)));
    // Folding everything away closes the narrow window's drawer too; bringing panels back leaves it to N.
    set(panels.stash === null ? { panels } : { panels, composerOpen: false, sidebarRevealed: false });
  },
  togglePanel: (name) => {
    const s = get();
    const visible = name === 'composer' ? s.panels.composer : sidebarVisible(s);
    const panels = storePanels(toggleOne(s.panels, name, visible));
    // An empty column asked for by hand stands until it is folded again.
    set(name === 'sidebar' ? { panels, sidebarRevealed: !visible } : { panels });
  },
  showPanel: (name) => {
    const s = get();
    if (!s.panels[name]) set({ panels: storePanels({ ...s.panels, [name]: true, stash: null }) });
  },
  thumbSize: storedThumbSize(),
  setThumbSize: (size) => {
    const thumbSize = clampThumbSize(size);
    globalThis.localStorage?.setItem(THUMB_SIZE_KEY, String(thumbSize));
    set({ thumbSize });
  },
  layout: parseLayout(globalThis.localStorage?.getItem(LAYOUT_KEY)),
  setLayout: (layout) => {
    globalThis.localStorage?.setItem(LAYOUT_KEY, layout);
    set({ layout });
  },

  toast(toast) {
    const id = nextToastId++;
    set((s) => ({
      toasts: [
        ...(toast.replaces === undefined ? s.toasts : s.toasts.filter((t) => t.replaces !== toast.replaces)),
        { ...toast, id },
      ].slice(-MAX_TOASTS),
    }));
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  dismissTopic: (topic) => set((s) => ({ toasts: s.toasts.filter((t) => t.topic !== topic) })),
  reportError: (error) => {
    get().toast({ kind: 'error', message: errorMessage(error) });
  },
  setPanel: (panel) => set({ panel }),
  settingsSection: null,
  openSettingsAt: (settingsSection) => set({ panel: 'settings', settingsSection }),
  openViewer: (id, imageIndex = 0) => set({ viewerId: id, viewerImage: imageIndex, focusedJobId: id }),
  toggleExpanded: (id) => set((s) => ({ expandedId: s.expandedId === id ? null : id })),
  closeViewer: () => set({ viewerId: null }),
  openCompare: (items) => set({ compare: items }),
  closeCompare: () => set({ compare: null }),
  setOnline: (online) => set({ online }),
});
