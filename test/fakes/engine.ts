/**
 * A small in-memory Engine for host tests (IPC, headless HTTP): real contract types, no database. It records what
 * the hosts pass in so tests can assert on validated input, and lets a test emit events and place media files.
 */
import type { ChannelInput, EventName, Events, Handlers, JobDetail, Settings } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { Engine, MediaFile, MediaKind } from '../../electron/engine/types.js';

export interface FakeEngine extends Engine {
  /** Every validated input each handler received, in order. */
  readonly calls: { channel: string; input: unknown }[];
  /** `${kind}/${imageId}` → file; what resolveMedia answers. */
  readonly media: Map<string, MediaFile>;
  emit<E extends EventName>(name: E, payload: Events[E]): void;
  listenerCount(): number;
  closedWith: { graceMs?: number } | null;
}

const desktopOnly = (): never => {
  throw new AppError('desktop_only', 'This works in the desktop app only.');
};

export function createFakeEngine(dataDir: string): FakeEngine {
  const jobs = new Map<string, JobDetail>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const calls: { channel: string; input: unknown }[] = [];
  const media = new Map<string, MediaFile>();
  let settings: Settings = {
    concurrency: { global: 2 },
    retention: { trashAutoEmptyDays: 30, maxJobs: null, maxBytes: null, maxAgeDays: null },
    theme: 'system',
    providers: {},
    library: { xmpSidecars: false },
    updates: { auto: true },
    dataDir,
  };

  const emit = <E extends EventName>(name: E, payload: Events[E]): void => {
    for (const listener of listeners.get(name) ?? []) (listener as (p: Events[E]) => void)(payload);
  };
  const record = <C extends keyof Handlers>(channel: C, input: ChannelInput<C>): void => {
    calls.push({ channel, input });
  };
  const getJob = (id: string): JobDetail => {
    const job = jobs.get(id);
    if (job === undefined) throw new AppError('not_found', 'There is no job with that id.');
    return job;
  };

  // Channels the host tests never call through this fake: answering them would be a second importer to keep in step.
  const notImplementedHere = <C extends keyof Handlers>(names: C[]): Pick<Handlers, C> =>
    Object.fromEntries(
      names.map((n) => [
        n,
        async () => {
          throw new AppError('internal', `The fake engine does not answer ${n}.`);
        },
      ]),
    ) as unknown as Pick<Handlers, C>;

  const handlers: Handlers = {
    async 'jobs.submit'(input) {
      record('jobs.submit', input);
      if (input.prompt === 'boom') throw new Error('unexpected failure with a secret stack');
      const now = Date.now();
      const { idempotencyKey: _key, ...request } = input;
      const job: JobDetail = {
        id: uuidv7(now),
        status: 'queued',
        createdAt: now,
        updatedAt: now,
        provider: input.provider,
        prompt: input.prompt,
        width: input.width,
        height: input.height,
        count: input.count,
        favorite: false,
        trashedAt: null,
        images: [],
        source: 'atelier',
        request,
        cancelRequested: false,
        events: [],
      };
      jobs.set(job.id, job);
      emit('jobs.changed', { job });
      return { job, created: true };
    },
    async 'jobs.list'(input) {
      record('jobs.list', input);
      return { items: [...jobs.values()].slice(0, input.limit), nextCursor: null };
    },
    async 'jobs.get'(input) {
      record('jobs.get', input);
      return getJob(input.id);
    },
    async 'jobs.cancel'(input) {
      record('jobs.cancel', input);
      return { ...getJob(input.id), cancelRequested: true };
    },
    async 'jobs.retry'(input) {
      record('jobs.retry', input);
      throw new AppError('conflict', 'Only a finished job can be retried.', { details: { id: input.id } });
    },
    async 'jobs.setFavorite'(input) {
      record('jobs.setFavorite', input);
      return { updated: input.ids.length };
    },
    async 'jobs.trash'(input) {
      record('jobs.trash', input);
      return { updated: input.ids.length };
    },
    async 'jobs.restore'(input) {
      record('jobs.restore', input);
      return { updated: input.ids.length };
    },
    async 'jobs.purge'(input) {
      record('jobs.purge', input);
      emit('jobs.removed', { ids: input.ids });
      return { removed: input.ids.length, bytesFreed: 0 };
    },
    async 'jobs.purgeTrashed'(input) {
      record('jobs.purgeTrashed', input);
      return { removed: input.ids.length, bytesFreed: 0 };
    },
    async 'jobs.emptyTrash'(input) {
      record('jobs.emptyTrash', input);
      return { removed: 0, bytesFreed: 0 };
    },
    async 'jobs.stats'(input) {
      record('jobs.stats', input);
      throw new AppError('overloaded', 'Busy, try again.');
    },
    async 'jobs.trashSummary'(input) {
      record('jobs.trashSummary', input);
      return { jobs: 0, images: 0, looseImages: 0, bytes: 0, favorites: 0 };
    },
    async 'jobs.previewRetention'(input) {
      record('jobs.previewRetention', input);
      return { jobs: 0, images: 0, bytes: 0 };
    },
    async 'library.rebuild'(input) {
      record('library.rebuild', input);
      return { jobs: 0, images: 0, known: 0, unreadable: 0 };
    },
    async 'library.removeOrphans'(input) {
      record('library.removeOrphans', input);
      return { removed: 0, bytesFreed: 0 };
    },
    async 'providers.list'(input) {
      record('providers.list', input);
      return { providers: [] };
    },
    async 'providers.test'(input) {
      record('providers.test', input);
      throw new AppError('provider_unavailable', 'Nothing answers at that address.');
    },
    async 'settings.get'(input) {
      record('settings.get', input);
      return settings;
    },
    async 'settings.update'(input) {
      record('settings.update', input);
      if (input.theme !== undefined) settings = { ...settings, theme: input.theme };
      return settings;
    },
    'desktop.reveal': desktopOnly,
    'desktop.copyImage': desktopOnly,
    'desktop.saveAs': desktopOnly,
    'desktop.startDrag': desktopOnly,
    'desktop.pickImportPaths': desktopOnly,
    'desktop.pickFolder': desktopOnly,
    'desktop.droppedImages': desktopOnly,
    'updates.status': async () => ({ state: 'off', reason: 'unsupported' }),
    'updates.restart': desktopOnly,
    'spend.summary': async () => ({
      month: '2026-01',
      today: '2026-01-01',
      capsResetOn: '1 February 2026',
      providers: [],
      prices: [],
    }),
    ...notImplementedHere(['engines.find', 'engines.connect']),
    ...notImplementedHere(['sweeps.start', 'sweeps.list', 'sweeps.get', 'sweeps.rerun', 'sweeps.sheet']),
    ...notImplementedHere(['models.library', 'models.setNote', 'models.refresh']),
    ...notImplementedHere(['queue.view', 'queue.reorder', 'queue.pause', 'queue.resume', 'queue.cancelQueued']),
    ...notImplementedHere([
      'library.import',
      'library.imports',
      'library.reread',
      'library.rereadStatus',
      'library.cancelImport',
      'library.pauseImport',
      'library.resumeImport',
      'library.folders',
      'library.removeFolder',
      'library.setFolderWatch',
      'library.sources',
    ]),
    ...notImplementedHere([
      'jobs.count',
      'images.setRating',
      'images.setFavorite',
      'images.setRejected',
      'images.trash',
      'images.restore',
      'images.tag',
      'images.undo',
      'tags.list',
      'tags.rename',
      'boards.list',
      'boards.create',
      'boards.rename',
      'boards.delete',
      'boards.add',
      'boards.remove',
      'search.suggest',
    ]),
    ...notImplementedHere(['images.similar', 'images.duplicates']),
    ...notImplementedHere(['jobs.correct', 'jobs.revertCorrections', 'images.setNote']),
    ...notImplementedHere([
      'providers.add',
      'providers.remove',
      'presets.list',
      'presets.save',
      'presets.delete',
      'presets.importStyles',
      'prompts.history',
      'images.saveMask',
    ]),
    ...notImplementedHere(['export.start', 'export.list', 'export.cancel']),
    ...notImplementedHere([
      'library.location',
      'library.move.start',
      'library.move.status',
      'library.move.cancel',
      'library.deleteOldCopy',
      'library.retryLocation',
      'library.useLocation',
    ]),
  };

  const engine: FakeEngine = {
    dataDir,
    handlers,
    calls,
    media,
    closedWith: null,
    events: {
      on(name, listener) {
        const set = listeners.get(name) ?? new Set();
        listeners.set(name, set);
        set.add(listener as (payload: never) => void);
        return () => set.delete(listener as (payload: never) => void);
      },
    },
    exportDownload: () => null,
    resolveMedia(kind: MediaKind, imageId: string) {
      return media.get(`${kind}/${imageId}`) ?? null;
    },
    async close(options) {
      engine.closedWith = options ?? {};
    },
    emit,
    listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
  return engine;
}
