import type { JobDetail, ProviderInfo, ProviderTestResult, Settings, SettingsPatch, Stats } from '../../../shared/contract';
import type { ComposerDraft, PendingSubmit } from '../lib/composer';
import type { Selection } from '../lib/selection';
import type { Filters } from './filters';
import type { JobsData } from './jobs-model';
import type { JobSummary, JobProgressEvent } from '../../../shared/contract';

export type LoadState = 'loading' | 'ready' | 'error';

export interface HistorySlice {
  jobs: JobsData;
  filters: Filters;
  historyState: LoadState;
  loadingMore: boolean;
  /** Bumps with every first-page load, so a slow answer to an older query is dropped. */
  generation: number;
  /** Keystrokes in the search box within the last moment: cards shown meanwhile hold their thumbnails back. */
  searchTyping: boolean;
  applyJobChanged(job: JobSummary): void;
  applyProgress(tick: JobProgressEvent): void;
  applyRemoved(ids: readonly string[]): void;
  loadFirstPage(): Promise<void>;
  loadMore(): Promise<void>;
  loadLive(): Promise<void>;
  setFilters(patch: Partial<Filters>): void;
  /** Search as you type: resolves once the grid shows this search's first page (or a newer query took over). */
  setSearch(text: string): Promise<void>;
  holdArrivals(hold: boolean): void;
  showArrivals(): void;
}

export interface ComposerSlice {
  draft: ComposerDraft;
  fieldErrors: Record<string, string>;
  submitting: boolean;
  pendingSubmit: PendingSubmit | null;
  updateDraft(patch: Partial<ComposerDraft>): void;
  chooseProvider(id: string): void;
  submit(): Promise<void>;
  /** The job's settings, with the seed of the image on screen (`imageId`). */
  reuseSettings(job: JobDetail, imageId?: string): void;
}

export interface SelectionSlice {
  selection: Selection;
  focusedId: string | null;
  click(id: string, mods: { range: boolean; toggle: boolean }): void;
  selectAllShown(): void;
  clearSelection(): void;
  setFocused(id: string | null): void;
}

export interface SettingsSlice {
  settings: Settings | null;
  providers: ProviderInfo[];
  stats: Stats | null;
  providerTests: Record<string, ProviderTestResult | 'testing'>;
  loadSettings(): Promise<void>;
  loadStats(): Promise<void>;
  updateSettings(patch: SettingsPatch): Promise<boolean>;
  testProvider(id: string): Promise<void>;
  /** Fetches what the engine last saw of each provider (the Settings cards' status). */
  refreshProviders(): Promise<void>;
}

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  message: string;
  action?: { label: string; run: () => void };
  /** What the toast's action depends on: Empty trash withdraws every 'trash' Undo (nothing is left to restore). */
  topic?: 'trash';
}

export type Panel = 'none' | 'settings';

export interface UiSlice {
  toasts: Toast[];
  panel: Panel;
  viewerId: string | null;
  /** The image the viewer opens on (a card's expanded strip can open any of its job's images). */
  viewerImage: number;
  /** The grid card whose images are shown in a strip beneath its row. */
  expandedId: string | null;
  online: boolean;
  /** The card the grid should scroll to, focus and flash; seq tells a second reveal of the same card from the first. */
  revealed: { id: string; seq: number } | null;
  /** provider id -> why it looks down (last failure), cleared by a success. */
  providerDown: Record<string, string>;
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  dismissTopic(topic: NonNullable<Toast['topic']>): void;
  reportError(error: unknown): void;
  setPanel(panel: Panel): void;
  openViewer(id: string, imageIndex?: number): void;
  toggleExpanded(id: string): void;
  closeViewer(): void;
  setOnline(online: boolean): void;
}

export interface ActionsSlice {
  setFavorite(ids: readonly string[], favorite: boolean): Promise<void>;
  trash(ids: readonly string[]): Promise<void>;
  restore(ids: readonly string[]): Promise<void>;
  emptyTrash(): Promise<{ removed: number; bytesFreed: number } | null>;
  /** Recreates the history from the library files' embedded settings (offered when the database looks lost). */
  rebuildHistory(): Promise<void>;
  cancel(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  getDetail(id: string): Promise<JobDetail | null>;
  /** Brings a job before the person: its card in the grid (focused, flashed), or else the viewer. */
  revealJob(id: string): Promise<void>;
}

export type AppState = HistorySlice & ComposerSlice & SelectionSlice & SettingsSlice & UiSlice & ActionsSlice;
