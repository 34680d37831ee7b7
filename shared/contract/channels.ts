/** The channel map: one input and one output schema per channel. Names are public: rename nothing. */
import { z } from 'zod';
import { ById, ByImage, Empty, Id, Ids, ProviderId } from './common.js';
import { GenerateRequest, JobDetail, ListPage, ListQuery, Stats, SubmitResult } from './jobs.js';
import { RebuildResult, RemoveOrphans, RetentionLimits, RetentionPreview, TrashSummary } from './library.js';
import {
  ImportRequest,
  ImportSummary,
  LibraryFolder,
  RemovedFolder,
  RemoveFolder,
  RereadProgress,
  SetFolderWatch,
  SourceCount,
} from './imports.js';
import {
  Board,
  BoardImages,
  CountQuery,
  CreateBoard,
  CurationResult,
  ImageTarget,
  MatchCounts,
  RenameBoard,
  RenamedTag,
  RenameTag,
  SetImageFavorite,
  SetImageRejected,
  SetRating,
  TagCount,
  TagImages,
  UndoRequest,
} from './curation.js';
import { CorrectedSettings, CorrectSettings, RevertCorrections, SavedNote, SetImageNote } from './corrections.js';
import { SuggestRequest, SuggestResult } from './search.js';
import { ProviderInfo, ProviderTestResult } from './providers.js';
import { Settings, SettingsPatch } from './settings.js';
import { SpendSummary } from './spend.js';
import {
  AddProvider,
  ImportedStyles,
  ImportStyles,
  Preset,
  PromptHistory,
  PromptHistoryQuery,
  SavedMask,
  SaveMask,
  SavePreset,
} from './iterate.js';
import { ExportSummary, StartExport } from './export.js';
import { DroppedImages, DroppedPaths, PickedFolder, StartDrag, StartedDrag } from './desktop.js';
import { UpdateStatus } from './updates.js';
import {
  DeletedOldCopy,
  DeleteOldCopy,
  LibraryLocation,
  MoveStatus,
  StartMove,
  UseLocation,
} from './library-location.js';
import { DuplicatesPage, DuplicatesQuery, SimilarQuery, SimilarResult } from './similar.js';
import { ConnectedEngine, ConnectEngine, FoundEngines } from './discovery.js';
import { RerunSweep, StartSweep, SweepDetail, SweepSheet, SweepSheetRequest, SweepSummary } from './sweeps.js';
import { ModelLibrary, ModelLibraryQuery, SetModelNote } from './models.js';
import { CancelQueued, QueueControlState, QueueTarget, QueueView, ReorderQueue } from './queue.js';

const Updated = z.object({ updated: z.number().int() });
const Removed = z.object({ removed: z.number().int(), bytesFreed: z.number().int() });
const Done = z.object({});

export const channels = {
  'jobs.submit': { input: GenerateRequest, output: SubmitResult },
  'jobs.list': { input: ListQuery, output: ListPage },
  'jobs.get': { input: ById, output: JobDetail },
  'jobs.cancel': { input: ById, output: JobDetail },
  'jobs.retry': { input: ById, output: SubmitResult },
  'jobs.setFavorite': { input: z.strictObject({ ids: Ids, favorite: z.boolean() }), output: Updated },
  'jobs.trash': { input: z.strictObject({ ids: Ids }), output: Updated },
  'jobs.restore': { input: z.strictObject({ ids: Ids }), output: Updated },
  'jobs.purge': { input: z.strictObject({ ids: Ids }), output: Removed },
  'jobs.emptyTrash': { input: Empty, output: Removed },
  /** Delete permanently, from the trash view: trashed jobs and trashed images only; anything else is left alone. */
  'jobs.purgeTrashed': {
    input: z.strictObject({ ids: z.array(Id).max(10_000), imageIds: z.array(Id).max(10_000) }),
    output: Removed,
  },
  'jobs.stats': { input: Empty, output: Stats },
  /** Running jobs, then queued ones in the order they start, with pauses and holds per provider. */
  'queue.view': { input: Empty, output: QueueView },
  /** Moves queued jobs before another (null: to the end); moving before the first is "move to top". */
  'queue.reorder': { input: ReorderQueue, output: z.object({ moved: z.number().int() }) },
  /** Pauses the whole queue, or one provider: running jobs finish, nothing new starts; accepted work is still collected. */
  'queue.pause': { input: QueueTarget, output: QueueControlState },
  'queue.resume': { input: QueueTarget, output: QueueControlState },
  /** Cancels every queued job (of one target) when the count the person confirmed is still the count. */
  'queue.cancelQueued': { input: CancelQueued, output: z.object({ cancelled: z.number().int() }) },
  'jobs.trashSummary': { input: Empty, output: TrashSummary },
  'jobs.previewRetention': { input: RetentionLimits, output: RetentionPreview },
  'jobs.count': { input: CountQuery, output: MatchCounts },
  'images.setRating': { input: SetRating, output: CurationResult },
  'images.setFavorite': { input: SetImageFavorite, output: CurationResult },
  /** Rejects (or un-rejects) images: a rejected image leaves the default view; is:rejected finds it. */
  'images.setRejected': { input: SetImageRejected, output: CurationResult },
  'images.trash': { input: ImageTarget, output: CurationResult },
  'images.restore': { input: ImageTarget, output: CurationResult },
  'images.tag': { input: TagImages, output: CurationResult },
  /** Undoes one curation action (every image it changed, as it was), once. */
  'images.undo': { input: UndoRequest, output: Updated },
  'tags.list': { input: Empty, output: z.object({ items: z.array(TagCount) }) },
  'tags.rename': { input: RenameTag, output: RenamedTag },
  'boards.list': { input: Empty, output: z.object({ items: z.array(Board) }) },
  'boards.create': { input: CreateBoard, output: z.object({ board: Board }) },
  'boards.rename': { input: RenameBoard, output: z.object({ board: Board }) },
  'boards.delete': { input: ById, output: Updated },
  'boards.add': { input: BoardImages, output: CurationResult },
  'boards.remove': { input: BoardImages, output: CurationResult },
  /** Corrects what an imported file was read to say; the file's own values stay beside (JobDetail.corrections). */
  'jobs.correct': { input: CorrectSettings, output: CorrectedSettings },
  'jobs.revertCorrections': { input: RevertCorrections, output: CorrectedSettings },
  /** An image's free-text note (empty removes it); searchable with note:. */
  'images.setNote': { input: SetImageNote, output: SavedNote },
  'search.suggest': { input: SuggestRequest, output: SuggestResult },
  'library.rebuild': { input: Empty, output: RebuildResult },
  'library.removeOrphans': { input: RemoveOrphans, output: Removed },
  'library.import': { input: ImportRequest, output: z.object({ import: ImportSummary }) },
  'library.imports': { input: Empty, output: z.object({ items: z.array(ImportSummary) }) },
  /** Reads the settings of these images' files again with this build's readers (their curation stays). */
  'library.reread': { input: ImageTarget, output: z.object({ marked: z.number().int() }) },
  'library.rereadStatus': { input: Empty, output: RereadProgress },
  'library.cancelImport': { input: ById, output: z.object({ import: ImportSummary }) },
  'library.pauseImport': { input: ById, output: z.object({ import: ImportSummary }) },
  'library.resumeImport': { input: ById, output: z.object({ import: ImportSummary }) },
  'library.folders': { input: Empty, output: z.object({ items: z.array(LibraryFolder) }) },
  'library.removeFolder': { input: RemoveFolder, output: RemovedFolder },
  'library.setFolderWatch': { input: SetFolderWatch, output: z.object({ folder: LibraryFolder }) },
  /** The tools the library holds images of (the Source filter lists only these). */
  'library.sources': { input: Empty, output: z.object({ items: z.array(SourceCount) }) },
  // The library's folder: answered by the host (electron/host/library-host.ts), which owns the engine.
  'library.location': { input: Empty, output: LibraryLocation },
  /** Copies the library to an empty or new folder, verifies every file, then switches to it. */
  'library.move.start': { input: StartMove, output: MoveStatus },
  'library.move.status': { input: Empty, output: z.object({ move: MoveStatus.nullable() }) },
  'library.move.cancel': { input: Empty, output: z.object({ move: MoveStatus.nullable() }) },
  /** Deletes the verified files of the copy a move left behind, when the confirmed counts match. */
  'library.deleteOldCopy': { input: DeleteOldCopy, output: DeletedOldCopy },
  /** The remembered folder was not there at start: look again (Wait). */
  'library.retryLocation': { input: Empty, output: LibraryLocation },
  'library.useLocation': { input: UseLocation, output: LibraryLocation },
  'images.similar': { input: SimilarQuery, output: SimilarResult },
  'images.duplicates': { input: DuplicatesQuery, output: DuplicatesPage },
  'providers.list': { input: Empty, output: z.object({ providers: z.array(ProviderInfo) }) },
  'providers.test': { input: z.strictObject({ id: ProviderId }), output: ProviderTestResult },
  /** Another server of a kind; its settings (URL, key) are set through settings.update like any provider's. */
  'providers.add': { input: AddProvider, output: z.object({ provider: ProviderInfo }) },
  /** Removes an added instance (the first of each kind stays); its queued jobs move to any instance of its kind. */
  'providers.remove': {
    input: z.strictObject({ id: ProviderId }),
    output: z.object({ removed: z.boolean(), movedJobs: z.number().int() }),
  },
  /** Probes this computer's usual engine ports (127.0.0.1 only) and names what answers. */
  'engines.find': { input: Empty, output: FoundEngines },
  /** Turns on a found ComfyUI or A1111/Forge at its address (a new instance when the first points elsewhere), then tests it. */
  'engines.connect': { input: ConnectEngine, output: ConnectedEngine },
  /** Up to three settings as axes over a base request: each cell a job linked to the sweep, found with sweep:<id>. */
  'sweeps.start': { input: StartSweep, output: z.object({ sweep: SweepSummary }) },
  'sweeps.list': { input: Empty, output: z.object({ items: z.array(SweepSummary) }) },
  /** The grid: axes, and each cell's newest job. */
  'sweeps.get': { input: ById, output: SweepDetail },
  /** Runs cells again (absent: the failed, cancelled and missing ones), each as a new job of the same cell. */
  'sweeps.rerun': { input: RerunSweep, output: z.object({ submitted: z.number().int() }) },
  /** One Z page as one PNG: axis labels drawn, the sweep's settings embedded. */
  'sweeps.sheet': { input: SweepSheetRequest, output: SweepSheet },
  /** Checkpoints, LoRAs, embeddings and VAEs of every server, with the images made with each. */
  'models.library': { input: ModelLibraryQuery, output: ModelLibrary },
  'models.setNote': { input: SetModelNote, output: z.object({ note: z.string() }) },
  /** Lists every connected server's models again. */
  'models.refresh': { input: Empty, output: z.object({ servers: z.number().int(), models: z.number().int() }) },
  'presets.list': { input: Empty, output: z.object({ items: z.array(Preset) }) },
  'presets.save': { input: SavePreset, output: z.object({ preset: Preset }) },
  'presets.delete': { input: ById, output: Updated },
  /** AUTOMATIC1111's styles.csv (name, prompt, negative_prompt) as presets; a style's {prompt} becomes the template. */
  'presets.importStyles': { input: ImportStyles, output: ImportedStyles },
  'prompts.history': { input: PromptHistoryQuery, output: PromptHistory },
  'images.saveMask': { input: SaveMask, output: SavedMask },
  'export.start': { input: StartExport, output: z.object({ export: ExportSummary }) },
  'export.list': { input: Empty, output: z.object({ items: z.array(ExportSummary) }) },
  'export.cancel': { input: ById, output: z.object({ export: ExportSummary }) },
  'settings.get': { input: Empty, output: Settings },
  'settings.update': { input: SettingsPatch, output: Settings },
  /** Spend per paid provider today and this month, caps and the prices in force (caps and prices: settings.update). */
  'spend.summary': { input: Empty, output: SpendSummary },
  // Desktop-only touches: the headless host answers these with `desktop_only`.
  'desktop.reveal': { input: ByImage, output: Done },
  'desktop.copyImage': { input: ByImage, output: Done },
  'desktop.saveAs': { input: ByImage, output: z.object({ saved: z.boolean() }) },
  'desktop.startDrag': { input: StartDrag, output: StartedDrag },
  /** The OS picker for folders and files to import; no paths when the person closes it. */
  'desktop.pickImportPaths': { input: Empty, output: z.object({ paths: z.array(z.string()) }) },
  /** The OS folder picker for Export to folder…; null when the person closes it. */
  'desktop.pickFolder': { input: Empty, output: PickedFolder },
  /** Which dropped files are this window's own drag-out of library originals (a drop on a board, not an import). */
  'desktop.droppedImages': { input: DroppedPaths, output: DroppedImages },
  /** Where automatic updates stand; `off` (unsupported) in the headless host, which has no installer. */
  'updates.status': { input: Empty, output: UpdateStatus },
  /** Quits and installs a downloaded update (desktop only; a conflict when none is ready). */
  'updates.restart': { input: Empty, output: Done },
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];
/** What a caller may send (defaults not yet applied). */
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['input']>;
/** What a handler receives after validation. */
export type ChannelInput<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;

export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

/** The engine side: one function per channel. */
export type Handlers = {
  [C in ChannelName]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>>;
};
