import type { ProviderGroup } from '../../../shared/providers/groups';
import type {
  JobDetail,
  ProviderInfo,
  ProviderTestResult,
  QueueWait,
  Settings,
  SettingsPatch,
  Stats,
} from '../../../shared/contract';
import type { ChannelOutput, Preset } from '../../../shared/contract';
import type { QueueControlState, QueueView } from '../../../shared/contract';
import type { ComposerDraft, PendingSubmit } from '../composer/composer';
import type { PromptWalk } from '../composer/prompt-walk';
import type { Selection } from '../gallery/selection';
import type { PurgeTarget } from '../curation/trash-rules';
import type { Filters } from './filters';
import type { JobsData } from './jobs-model';
import type {
  ImportProgressEvent,
  JobSummary,
  JobProgressEvent,
  LibraryFolder,
  RereadProgress,
} from '../../../shared/contract';
import type { ImportsData } from '../library/import/imports-model';
import type { Board, CorrectableField, MatchCounts, SourceCount, TagCount } from '../../../shared/contract';
import type { ImageTargets } from '../curation/curation';
import type { Layout } from '../gallery/layout-mode';
import type { PanelName, PanelState } from '../app/panels';
import type { IterateAction, Support, WorkingFrom } from '../iterate/iterate';
import type { Mask } from '../iterate/mask-brush';
import type { ReferencePick } from '../iterate/references';
import type { LibraryModel, ModelLibrary } from '../../../shared/contract';
import type { ModelFilter } from '../models/model-view';
import type { SweepAxisDraft } from '../sweeps/sweep-axes';
import type { SweepCellPosition, SweepDetail, SweepSummary } from '../../../shared/contract';
import type { RequestWithoutKey } from '../composer/composer';

/**
 * Every slice's type, composed into AppState. The slices import these; this file imports nothing from a slice, so the
 * types never loop back through the code that implements them.
 */
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
  /** The search the engine could not read, where and why; the grid keeps the last results meanwhile. */
  searchError: { text: string; at: number; message: string } | null;
  applyJobChanged(job: JobSummary): void;
  /** Many jobs in one update (an import's arrivals): one render, not one each. */
  applyJobsChanged(jobs: readonly JobSummary[]): void;
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
  /** A job started while the filters hide it stops being pinned above the grid (jobs-model.ts `pinned`). */
  dismissPinned(id: string): void;
  /** Clears the filters and search, then brings the job before the person. */
  showPinned(id: string): Promise<void>;
}

export interface ComposerSlice {
  draft: ComposerDraft;
  fieldErrors: Record<string, string>;
  submitting: boolean;
  pendingSubmit: PendingSubmit | null;
  updateDraft(patch: Partial<ComposerDraft>): void;
  chooseProvider(id: string): void;
  /** One press of Generate; `at` is when it was pressed (the input event's time), to tell a double click. */
  submit(press?: { at: number }): Promise<void>;
  /** The job's settings, with the seed of the image on screen (`imageId`), mapped onto the provider that runs them. */
  reuseSettings(job: JobDetail, imageId?: string): void;
  /** What did not carry over to the composer's provider (Reuse settings, a new provider's sampler). */
  draftNotes: { title: string; warnings: string[] } | null;
  dismissNotes(): void;
  /** null until the preset menu first opens. */
  presets: Preset[] | null;
  presetsError: string | null;
  loadPresets(): Promise<void>;
  applyPreset(id: string): void;
  clearTemplate(): void;
  savePreset(name: string): Promise<boolean>;
  deletePreset(id: string): Promise<boolean>;
  importStyles(csv: string): Promise<boolean>;
  /** Where ↑ and ↓ in the prompt box are in the prompt history (the job history is HistorySlice's). */
  promptWalk: PromptWalk;
  /** ↑ (1, older) or ↓ (-1, newer) in the prompt box; false at either end. */
  recallPrompt(direction: 1 | -1): Promise<boolean>;
  searchPromptHistory(search: string): Promise<ChannelOutput<'prompts.history'>['items']>;
}

export interface IterateSlice {
  /** The image the composer's next Generate starts from (image-to-image), with its strength. */
  workingFrom: WorkingFrom | null;
  /** The image the viewer's mask brush is open on. */
  editing: { jobId: string; imageId: string } | null;
  /** A variation, upscale or repaint on its way to the queue. */
  iterating: boolean;
  useAsInput(jobId: string, imageId: string): void;
  /** Library images the next Generate shows the model beside the prompt, in order (iterate/references.ts). */
  references: readonly ReferencePick[];
  /** Adds one at the end; false (with a toast saying why) when it is already there or the list is full. */
  addReference(jobId: string, imageId: string): boolean;
  removeReference(imageId: string): void;
  clearReferences(): void;
  setInputStrength(strength: number): void;
  clearInput(): void;
  openEditor(jobId: string, imageId: string): void;
  closeEditor(): void;
  makeVariations(jobId: string, imageId: string): Promise<boolean>;
  upscale(jobId: string, imageId: string, factor: 2 | 4): Promise<boolean>;
  /** Saves the painted mask and submits the masked edit; true once it is queued. */
  /** `prompt`: the mask editor's own (empty: the source's); without it, the composer's. */
  repaint(jobId: string, imageId: string, mask: Mask, strength?: number, prompt?: string): Promise<boolean>;
  /** Whether an action can run on this image now, and if not why. */
  supportOf(action: IterateAction, jobId: string, imageId: string | undefined): Support;
  /** Runs an action from a button, the card menu or a key; a disabled one says why in a toast. */
  runAction(action: IterateAction, jobId: string, imageId: string): Promise<boolean>;
}

export interface SelectionSlice {
  selection: Selection;
  focusedJobId: string | null;
  /** `imageId`: the click landed on that picture of the card, which picks it alone (gallery/selection.ts). */
  click(id: string, mods: { range: boolean; toggle: boolean }, imageId?: string): void;
  selectAllShown(): void;
  clearSelection(): void;
  setFocused(id: string | null): void;
}

export interface SettingsSlice {
  settings: Settings | null;
  providers: ProviderInfo[];
  stats: Stats | null;
  /** The queue held up by the disk (from jobs.stats, then jobs.queue events); null when nothing waits for it. */
  queueWaiting: QueueWait | null;
  applyQueueWaiting(waiting: QueueWait | null): void;
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
  topic?: 'trash' | 'curation';
  /** A newer toast with the same key takes this one's place (one "Added as reference 3", not three stacked). */
  replaces?: string;
}

export type Panel = 'none' | 'settings';

export interface UiSlice {
  toasts: Toast[];
  panel: Panel;
  viewerId: string | null;
  /** The image the viewer opens on (a card's expanded strip can open any of its job's images). */
  viewerImage: number;
  /** The images shown side by side in Compare (2–4), or null while it is closed. */
  compare: { jobId: string; imageId: string }[] | null;
  /** The grid card whose images are shown in a strip beneath its row. */
  expandedId: string | null;
  online: boolean;
  /** The card the grid should scroll to, focus and flash; seq tells a second reveal of the same card from the first. */
  revealed: { id: string; seq: number } | null;
  /** provider id -> why it looks down (last failure), cleared by a success. */
  providerDown: Record<string, string>;
  /** In a narrow window the composer is a drawer over the gallery: whether it is out. */
  composerOpen: boolean;
  setComposerOpen(open: boolean): void;
  /** The panels folded away or shown in a wide window (app/panels.ts), remembered in this browser. */
  panels: PanelState;
  /** The empty boards column, opened by hand to make a first board (not remembered: empty, it stays out of the way). */
  sidebarRevealed: boolean;
  /** Tab on a picture: fold every panel away, or bring back what was folded. */
  toggleAllPanels(): void;
  togglePanel(name: PanelName): void;
  /** Shows one panel (N shows the composer it writes into). */
  showPanel(name: PanelName): void;
  /** The gallery's thumbnail size (a card's smallest width in px), remembered in this browser. */
  thumbSize: number;
  setThumbSize(size: number): void;
  /** The history as the image grid or as the compact list, remembered in this browser. */
  layout: Layout;
  setLayout(layout: Layout): void;
  toast(toast: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
  dismissTopic(topic: NonNullable<Toast['topic']>): void;
  reportError(error: unknown): void;
  setPanel(panel: Panel): void;
  /** Settings opened at one group of providers (the empty state's "Add a hosted key"); null once shown. */
  settingsSection: ProviderGroup | null;
  openSettingsAt(section: ProviderGroup | null): void;
  openViewer(id: string, imageIndex?: number): void;
  toggleExpanded(id: string): void;
  closeViewer(): void;
  openCompare(items: { jobId: string; imageId: string }[]): void;
  closeCompare(): void;
  setOnline(online: boolean): void;
}

/** What is done to whole jobs (the engine's jobs.* calls); what is done to images is CurationSlice's (`…Images`). */
export interface JobActionsSlice {
  favoriteJobs(ids: readonly string[], favorite: boolean): Promise<void>;
  trashJobs(ids: readonly string[]): Promise<void>;
  restoreJobs(ids: readonly string[]): Promise<void>;
  emptyTrash(): Promise<{ removed: number; bytesFreed: number } | null>;
  /** Recreates the history from the library files' embedded settings (offered when the database looks lost). */
  rebuildHistory(): Promise<void>;
  cancel(id: string): Promise<void>;
  retry(id: string): Promise<void>;
  getDetail(id: string): Promise<JobDetail | null>;
  /** Brings a job before the person: its card in the grid (focused, flashed), or else the viewer. */
  revealJob(id: string): Promise<void>;
}

/** Corrections of an imported image's settings and a note per image (annotations-slice.ts). */
export interface AnnotationsSlice {
  /** Sends the changed fields; false when the engine refused them (the reason is shown). */
  correctSettings(jobId: string, set: Record<string, string | number>): Promise<boolean>;
  /** Back to what the file says: the fields named, or all. */
  revertCorrections(jobId: string, fields?: CorrectableField[]): Promise<boolean>;
  /** Saves an image's note (empty removes it). */
  saveNote(imageId: string, text: string): Promise<boolean>;
}

export interface ImportDialogState {
  /** Paths to start from (a drop, the desktop picker). */
  paths: string[];
  /** Why the paths are not filled in (a drop in the browser), shown in the dialog. */
  note: string | null;
}

export interface ImportsSlice {
  imports: ImportsData;
  /** When this window opened: imports that ended before it stay out of the panel. */
  importsOpenedAt: number;
  /** Finished imports the person closed in the panel. */
  dismissedImports: Record<string, true>;
  dismissImport(id: string): void;
  /** Imported folders (Settings → Library); null until first asked for. */
  folders: LibraryFolder[] | null;
  importDialog: ImportDialogState | null;
  applyImportProgress(event: ImportProgressEvent): void;
  loadImports(): Promise<void>;
  /** Starts an import; resolves to the error to show in the dialog, or null once it runs (the dialog closes). */
  startImport(request: { paths: string[]; mode: 'link' | 'copy'; watch: boolean }): Promise<unknown>;
  controlImport(id: string, action: 'pause' | 'resume' | 'cancel'): Promise<void>;
  openImportDialog(prefill?: Partial<ImportDialogState>): void;
  closeImportDialog(): void;
  loadFolders(): Promise<void>;
  /** Removes a folder from the library; resolves to how many jobs went to the trash, or null on failure. */
  removeFolder(id: string): Promise<number | null>;
  /** The background re-read of imported files' settings; null until first heard of. */
  reread: RereadProgress | null;
  applyRereadProgress(progress: RereadProgress): void;
  /** Reads these images' files again with this version's readers (their curation stays). */
  rereadImages(target: CurationTarget): Promise<void>;
  /** The gallery shows exactly the images this import added (the `import:` search), every other filter cleared. */
  showImported(id: string): void;
  /** The toast of an import that ended: what came in, with Show N imported. */
  toastImportEnd(id: string): void;
  /** Watch switched on or off for an imported folder, later (Settings → Library → Folders). */
  setFolderWatch(id: string, watch: boolean): Promise<void>;
  /** The tools the library holds images of, with counts (the Source filter's options); null until first asked for. */
  sources: SourceCount[] | null;
  loadSources(): Promise<void>;
}

/** What a curation action covers: images picked (the focus, the selection), or every match of the current query. */
export type CurationTarget = { images: ImageTargets } | { query: true };

export interface CurationSlice {
  /** The image in focus inside the focused card (null: its first). */
  focusedImageId: string | null;
  /** After a rating key, the focus moves on to the next image (culling). */
  autoAdvance: boolean;
  /** How many match the current search and filters, per tab, and images for "all matches". */
  counts: MatchCounts | null;
  /** The filters the counts were made for (countsKeyOf): while a newer query's are on their way, they are stale. */
  countsKey: string | null;
  tags: TagCount[] | null;
  boards: Board[] | null;
  focusImage(jobId: string, imageId: string | null): void;
  setAutoAdvance(on: boolean): void;
  rate(target: CurationTarget, rating: number): Promise<boolean>;
  favoriteImages(target: CurationTarget, favorite: boolean): Promise<boolean>;
  /** X: rejected images leave the default view (is:rejected shows them); a toast offers Undo (quiet: the viewer's sign says it). */
  rejectImages(target: CurationTarget, rejected: boolean, options?: { quiet?: boolean }): Promise<boolean>;
  trashImages(target: CurationTarget): Promise<boolean>;
  restoreImages(target: CurationTarget): Promise<boolean>;
  tagImages(target: CurationTarget, change: { add?: string[]; remove?: string[] }): Promise<boolean>;
  /** `before`: the cards as they were (picked images); `wholeQuery`: the action covered a query, so refetch. */
  undoCuration(undoId: string, before: readonly JobSummary[], wholeQuery: boolean): Promise<void>;
  loadCounts(): Promise<void>;
  /** loadCounts a moment after a first page, once the keystrokes pause. */
  loadCountsSoon(): void;
  loadTags(): Promise<void>;
  renameTag(from: string, to: string): Promise<boolean>;
  loadBoards(): Promise<void>;
  createBoard(name: string, query?: string): Promise<Board | null>;
  renameBoard(id: string, name: string): Promise<boolean>;
  deleteBoard(id: string): Promise<void>;
  addToBoard(boardId: string, target: CurationTarget): Promise<void>;
  removeFromBoard(boardId: string, target: CurationTarget): Promise<void>;
}

/** The queue panel's state (queue-slice.ts): the engine's queue view, moved, paused and cancelled from the window. */
export interface QueueSlice {
  /** null until first fetched. */
  queue: QueueView | null;
  queueOpen: boolean;
  setQueueOpen(open: boolean): void;
  loadQueue(): Promise<void>;
  /** A fetch a moment from now, one for a burst of events; nothing before the queue was first fetched. */
  loadQueueSoon(): void;
  applyQueueControl(control: QueueControlState): void;
  /** Shown at once, then confirmed by a fresh view. */
  reorderQueue(ids: readonly string[], before: string | null): Promise<void>;
  pauseQueue(provider?: string): Promise<void>;
  resumeQueue(provider?: string): Promise<void>;
  /** `actual`: the queue changed meanwhile and nothing was cancelled; null: it failed (the reason is shown). */
  cancelQueued(expected: number, provider?: string): Promise<{ cancelled: number } | { actual: number } | null>;
}

/** Inside the trash view: Restore, and Delete permanently behind its counted question. */
export interface TrashSlice {
  /** The open "Delete N images permanently?" question and what it removes. */
  purgeAsk: (PurgeTarget & { question: string }) | null;
  /** Jobs trashed whole go whole; of a card whose images were trashed one by one, only those (or the picked ones). */
  askPurge(jobIds: readonly string[], imageIds?: readonly string[]): void;
  cancelPurge(): void;
  confirmPurge(): Promise<void>;
  restoreFromTrash(jobIds: readonly string[], imageIds?: readonly string[]): Promise<void>;
}

/** Sweeps (sweeps/sweeps-slice.ts): the composer's axes, the list of sweeps and the one grid open. */
export interface SweepsSlice {
  /** null until first fetched. */
  sweeps: SweepSummary[] | null;
  loadSweeps(): Promise<void>;
  /** The grid on screen: its sweep (null while it loads), the Z page shown, why it could not load. */
  sweepView: { id: string; detail: SweepDetail | null; page: number; error: string | null } | null;
  openSweep(id: string): Promise<void>;
  closeSweep(): void;
  setSweepPage(page: number): void;
  /** Re-submits these cells, or every failed or missing one; the grid is read again. */
  rerunSweep(cells?: SweepCellPosition[]): Promise<void>;
  /** The composer's Sweep section: open or folded, its axes, and an engine's refusal per axis. */
  sweepSectionOpen: boolean;
  setSweepSectionOpen(open: boolean): void;
  sweepAxes: SweepAxisDraft[];
  setSweepAxes(axes: SweepAxisDraft[]): void;
  sweepErrors: Record<number, string>;
  sweepStarting: boolean;
  /** Starts the sweep over `base`; the same axes and base keep one key until it starts (a double click makes one). */
  startSweep(base: RequestWithoutKey): Promise<boolean>;
}

/** The Models screen and the library of models and LoRAs it and the composer's LoRA picker read (models/models-slice.ts). */
export interface ModelsSlice {
  modelsOpen: boolean;
  modelFilter: ModelFilter;
  /** Every model and LoRA as last loaded; null until first asked for. */
  modelLibrary: ModelLibrary | null;
  modelsState: LoadState | 'idle';
  modelsError: string | null;
  /** Opens the Models screen, filtered as given (the viewer's "In model library"), and loads the library again. */
  openModels(filter?: Partial<ModelFilter>): void;
  closeModels(): void;
  setModelFilter(patch: Partial<ModelFilter>): void;
  loadModels(): Promise<void>;
  /** Loads the library unless it is already here (the LoRA picker). */
  ensureModels(): Promise<void>;
  /** Asks every server for its lists again, then reloads. */
  refreshModels(): Promise<void>;
  /** Saves a model's note (empty removes it); false when refused (the reason is shown, the old note back). */
  saveModelNote(key: string, note: string): Promise<boolean>;
  /** Closes the screen and runs the gallery search for the images made with it. */
  showModelImages(model: Pick<LibraryModel, 'kind' | 'name'>): void;
}

export type AppState = ModelsSlice &
  CurationSlice &
  SweepsSlice &
  TrashSlice &
  QueueSlice &
  HistorySlice &
  ComposerSlice &
  SelectionSlice &
  SettingsSlice &
  UiSlice &
  JobActionsSlice &
  AnnotationsSlice &
  ImportsSlice &
  IterateSlice;
