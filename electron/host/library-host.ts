/**
 * The library behind a host (desktop and headless alike): one engine on one data dir, which this object can close
 * and reopen elsewhere. It stands in for the engine towards the host, so IPC, HTTP, SSE and the media resolver never
 * hold an engine that a move has closed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  type Handlers,
  type LibraryLocation,
  type MoveStatus,
} from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { createEventBus } from '../base/events.js';
import type { Logger } from '../base/logger.js';
import type { Unsubscribe } from '../base/events.js';
import type { Engine } from '../engine/types.js';
import { copyLibrary, prepareCopy, type CopiedLibrary, type CopyHooks } from '../library/move/copy-library.js';
import { deleteOldCopy, oldCopyCounts } from '../library/move/delete-old-copy.js';
import { PARTIAL_MARKER } from '../library/move/partial.js';
import { clearPointer, libraryPresent, writePointer } from './library-pointer.js';

export interface LibraryHostOptions {
  /** Opens the engine, with its keyring, on a data dir. */
  open(dataDir: string): Promise<Engine>;
  dataDir: string;
  /** The folder came from the pointer file: if it is not there, say so instead of starting an empty library in it. */
  remembered: boolean;
  /** Where "Start a new library" puts one. */
  defaultDir: string;
  /** Where the chosen folder is remembered; null when the host was told its folder (--data-dir). */
  pointerFile: string | null;
  nativeBinding?: string;
  log: Logger;
  /** Running jobs get this long when the library closes for a move. */
  graceMs?: number;
  hooks?: CopyHooks;
}

export interface LibraryHost extends Engine {
  location(): LibraryLocation;
  /** Resolves when the current move (if any) has ended. */
  settled(): Promise<void>;
}

const RUNNING: ReadonlySet<MoveStatus['state']> = new Set(['copying', 'verifying', 'switching']);

export async function createLibraryHost(options: LibraryHostOptions): Promise<LibraryHost> {
  const bus = createEventBus(options.log);
  let dataDir = resolve(options.dataDir);
  let engine: Engine | null = null;
  let state: LibraryLocation['state'] = 'ready';
  let detach: Unsubscribe[] = [];
  let move: MoveStatus | null = null;
  /** A start is being checked: the claim that makes a second start a conflict until this one is running or refused. */
  let starting = false;
  let moving: Promise<void> = Promise.resolve();
  let controller: AbortController | null = null;
  let oldCopy: CopiedLibrary | null = null;
  let closed = false;

  const attach = (next: Engine): void => {
    engine = next;
    dataDir = next.dataDir;
    state = 'ready';
    detach = EVENT_NAMES.map((name) => next.events.on(name, (payload) => bus.emit(name, payload as never)));
  };
  const release = async (graceMs: number): Promise<void> => {
    const current = engine;
    engine = null;
    for (const off of detach) off();
    detach = [];
    await current?.close({ graceMs });
  };
  const current = (): Engine => {
    if (engine !== null) return engine;
    if (state === 'moving') {
      throw new AppError('conflict', 'The library is being moved; it is back as soon as the copy is verified.', {
        retryable: true,
        details: { reason: 'library_moving', dataDir },
      });
    }
    throw new AppError('conflict', `The library folder ${dataDir} is not there — is its drive connected?`, {
      retryable: true,
      details: { reason: 'library_unavailable', dataDir },
    });
  };
  const location = (): LibraryLocation => ({
    state,
    dataDir,
    defaultDir: options.defaultDir,
    pointerFile: options.pointerFile,
    move: move === null ? null : { ...move },
    oldCopy: oldCopy === null ? null : { path: oldCopy.from, ...oldCopyCounts(oldCopy) },
  });
  /** Back on a folder after a failed or cancelled move; if even that fails, the library is reported unavailable. */
  const reopen = async (dir: string): Promise<void> => {
    try {
      attach(await options.open(dir));
    } catch (error) {
      dataDir = dir;
      state = 'unavailable';
      options.log.error('could not reopen the library', { dataDir: dir, error: String(error) });
    }
  };
  const remember = async (dir: string): Promise<void> => {
    if (options.pointerFile === null) return;
    if (resolve(dir) === resolve(options.defaultDir)) await clearPointer(options.pointerFile);
    else await writePointer(options.pointerFile, dir);
  };

  const runMove = async (status: MoveStatus, signal: AbortSignal, imported: readonly string[]): Promise<void> => {
    const from = status.from;
    await release(options.graceMs ?? 3_000);
    let copied: CopiedLibrary;
    try {
      copied = await copyLibrary(from, status.to, {
        signal,
        imported,
        onProgress: (progress) => {
          status.state = progress.phase;
          Object.assign(status, {
            filesDone: progress.filesDone,
            filesTotal: progress.filesTotal,
            bytesDone: progress.bytesDone,
            bytesTotal: progress.bytesTotal,
          });
        },
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
        ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
      });
    } catch (error) {
      const fault = error instanceof AppError ? error : new AppError('storage', String(error));
      status.state = fault.code === 'cancelled' ? 'cancelled' : 'failed';
      status.error = { code: fault.code, message: fault.message };
      await reopen(from);
      return;
    }
    status.state = 'switching';
    try {
      await remember(status.to);
      attach(await options.open(status.to));
    } catch (error) {
      await remember(from).catch(() => undefined);
      status.state = 'failed';
      status.error = {
        code: 'storage',
        message: `The copy in ${status.to} is verified but would not open (${(error as Error).message}); the library stays in ${from}.`,
      };
      await reopen(from);
      return;
    }
    oldCopy = copied;
    status.state = 'done';
    if (options.pointerFile === null) status.nextStart = status.to;
    options.log.info('library moved', { from, to: status.to, files: copied.files.length, bytes: copied.bytes });
  };

  const locationHandlers: Pick<
    Handlers,
    | 'library.location'
    | 'library.move.start'
    | 'library.move.status'
    | 'library.move.cancel'
    | 'library.deleteOldCopy'
    | 'library.retryLocation'
    | 'library.useLocation'
  > = {
    'library.location': async () => location(),
    'library.move.start': async ({ target }) => {
      if (starting || (move !== null && RUNNING.has(move.state))) {
        throw new AppError('conflict', 'The library is already being moved.', { details: { reason: 'move_running' } });
      }
      const engineNow = current();
      const from = engineNow.dataDir;
      // Claimed before the first await: a second start while this one is checked is refused, never run beside it.
      starting = true;
      let imported: string[];
      try {
        imported = (await engineNow.handlers['library.folders']({})).items.map((folder) => folder.path);
        // Checked while the library is still open: a refused target costs the person nothing.
        await prepareCopy(from, resolve(target), options.hooks?.freeSpace, imported);
      } finally {
        starting = false;
      }
      // Closed (quit) or swapped while the target was checked: moving would start on a library no longer served.
      if (closed || engine !== engineNow)
        throw new AppError('conflict', 'The library closed while the move was being checked.', {
          details: { reason: 'library_closed' },
        });
      if (oldCopy !== null && resolve(target) === resolve(oldCopy.from)) oldCopy = null;
      const status: MoveStatus = {
        id: `move-${Date.now()}`,
        state: 'copying',
        from,
        to: resolve(target),
        filesDone: 0,
        filesTotal: 0,
        bytesDone: 0,
        bytesTotal: 0,
      };
      move = status;
      state = 'moving';
      controller = new AbortController();
      const signal = controller.signal;
      moving = runMove(status, signal, imported).catch((error: unknown) => {
        options.log.error('library move failed unexpectedly', { error: String(error) });
      });
      return { ...status };
    },
    'library.move.status': async () => ({ move: move === null ? null : { ...move } }),
    'library.move.cancel': async () => {
      if (move !== null && (move.state === 'copying' || move.state === 'verifying')) controller?.abort();
      return { move: move === null ? null : { ...move } };
    },
    'library.deleteOldCopy': async (confirmed) => {
      if (oldCopy === null) throw new AppError('not_found', 'There is no old copy of the library to delete.');
      if (resolve(oldCopy.from) === resolve(dataDir))
        throw new AppError('conflict', 'That copy is the library in use.');
      const result = await deleteOldCopy(oldCopy, confirmed);
      oldCopy = null;
      return result;
    },
    'library.retryLocation': async () => {
      if (state === 'unavailable' && libraryPresent(dataDir)) await reopenOrThrow(dataDir);
      return location();
    },
    'library.useLocation': async ({ mode, path }) => {
      if (state !== 'unavailable')
        throw new AppError('conflict', 'The library is open; use Move library… to put it elsewhere.');
      const dir = resolve(path ?? options.defaultDir);
      if (mode === 'open' && existsSync(join(dir, PARTIAL_MARKER))) {
        throw new AppError(
          'invalid_request',
          `${dir} holds an unfinished copy of a library (a move was interrupted). Open the library it was copied from and move it again.`,
          {
            details: { reason: 'partial_copy' },
          },
        );
      }
      if (mode === 'open' && !existsSync(join(dir, 'atelier.db'))) {
        throw new AppError(
          'invalid_request',
          `${dir} holds no Atelier library. Pick the folder that has atelier.db in it.`,
          { details: { reason: 'not_a_library' } },
        );
      }
      if (mode === 'new' && existsSync(dir) && !existsSync(join(dir, 'atelier.db')) && readdirSync(dir).length > 0) {
        throw new AppError(
          'invalid_request',
          `${dir} already holds other files. Start a new library in an empty or new folder.`,
          { details: { reason: 'target_not_empty' } },
        );
      }
      await reopenOrThrow(dir);
      await remember(dir);
      return location();
    },
  };
  const reopenOrThrow = async (dir: string): Promise<void> => {
    attach(await options.open(dir));
  };

  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((name) => [
      name,
      async (input: unknown) => (current().handlers[name] as (input: unknown) => Promise<unknown>)(input),
    ]),
  ) as unknown as Handlers;
  Object.assign(handlers, locationHandlers);

  if (options.remembered && !libraryPresent(dataDir)) {
    state = 'unavailable';
    options.log.warn('the remembered library folder is not there', { dataDir });
  } else {
    attach(await options.open(dataDir));
  }

  return {
    get dataDir() {
      return dataDir;
    },
    handlers,
    events: bus,
    resolveMedia: (kind, imageId) => engine?.resolveMedia(kind, imageId) ?? null,
    exportDownload: (id) => engine?.exportDownload(id) ?? null,
    location,
    settled: () => moving,
    async close(closeOptions = {}) {
      if (closed) return;
      closed = true;
      controller?.abort();
      await moving;
      await release(closeOptions.graceMs ?? 3_000);
    },
  };
}
