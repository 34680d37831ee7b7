/**
 * Automatic updates from the release feed (electron-updater): a check on start and every day, the download in the
 * background, and "Restart to update" once it is ready. Never in a development run, never with the setting off.
 * Electron-free: main.ts hands in electron-updater's autoUpdater, app.isPackaged and the setting.
 */
import type { UpdateStatus } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../base/clock.js';
import { type Logger } from '../base/logger.js';

export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

/** electron-updater's logger shape. */
export interface UpdaterLog {
  info(message?: unknown): void;
  warn(message?: unknown): void;
  error(message?: unknown): void;
}

/** The part of electron-updater's AppUpdater used here; its `autoUpdater` satisfies it as it is. */
export interface UpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  logger: UpdaterLog | null;
  checkForUpdates(): Promise<{
    downloadPromise?: Promise<unknown> | null;
    cancellationToken?: { cancel(): void };
  } | null>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-not-available' | 'update-downloaded',
    listener: (info: { version: string }) => void,
  ): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const systemTimers: UpdateTimers = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface AutoUpdatesDeps {
  /** electron-updater's autoUpdater, asked for only when updates run: a development run never builds one. */
  updater(): UpdaterPort;
  /** app.isPackaged: false in `npm start`, where there is no installer to update. */
  isPackaged: boolean;
  /** The `updates.auto` setting as stored now. */
  enabled(): boolean | Promise<boolean>;
  /** Every change of status, for the window (the `updates.status` event). */
  onStatus(status: UpdateStatus): void;
  log: Logger;
  clock?: Clock;
  timers?: UpdateTimers;
}

export interface AutoUpdates {
  start(): Promise<void>;
  /** Reads the setting again: off stops the daily check, on starts it again with a check now. */
  settingChanged(): Promise<void>;
  status(): UpdateStatus;
  /** Quits and installs the downloaded update; a conflict when none is ready. */
  restart(): void;
  stop(): void;
}

export function createAutoUpdates(deps: AutoUpdatesDeps): AutoUpdates {
  const { log } = deps;
  let port: UpdaterPort | null = null;
  const updater = (): UpdaterPort => (port ??= deps.updater());
  const clock = deps.clock ?? systemClock;
  const timers = deps.timers ?? systemTimers;
  let current: UpdateStatus = { state: 'idle', checkedAt: null };
  let timer: unknown = null;
  let wired = false;
  let checking = false;
  let loggedOff: string | null = null;
  // Each check numbers itself: its 'error' event and its rejected promise are the same failure, reported once.
  let cycle = 0;
  let reported = -1;
  let cancel: (() => void) | null = null;

  // Read through a call: the updater's events change `current` while a check awaits.
  const stateNow = (): UpdateStatus['state'] => current.state;
  const set = (next: UpdateStatus): void => {
    current = next;
    deps.onStatus(next);
  };

  const off = (reason: 'development' | 'setting'): void => {
    if (loggedOff !== reason) {
      loggedOff = reason;
      log.info(
        reason === 'development'
          ? 'Automatic updates are off: this is a development run.'
          : 'Automatic updates are off in Settings.',
      );
    }
    set({ state: 'off', reason });
  };

  const fail = (at: number, error: unknown): void => {
    if (reported === at) return;
    reported = at;
    log.warn('update check failed', { error: error instanceof Error ? error.message : String(error) });
    set({ state: 'error', message: personMessage(error) });
  };

  const wire = (): void => {
    if (wired) return;
    wired = true;
    // Errors come to us as 'error' events and are logged once per check there; the updater's own copy would repeat them.
    const u = updater();
    u.logger = { info: (m) => log.info(String(m)), warn: (m) => log.warn(String(m)), error: () => undefined };
    u.on('checking-for-update', () => set({ state: 'checking' }));
    u.on('update-not-available', () => set({ state: 'idle', checkedAt: clock.now() }));
    u.on('update-available', (info) => set({ state: 'downloading', version: info.version, percent: 0 }));
    u.on('download-progress', (progress) => {
      // Whole percents only: the updater reports many times a second.
      const percent = Math.min(100, Math.max(0, Math.floor(progress.percent)));
      if (current.state === 'downloading' && current.percent !== percent) set({ ...current, percent });
    });
    u.on('update-downloaded', (info) => set({ state: 'ready', version: info.version }));
    u.on('error', (error) => fail(cycle, error));
  };

  const check = async (): Promise<void> => {
    // One at a time, and none once an update waits for its restart.
    if (checking || current.state === 'downloading' || current.state === 'ready') return;
    checking = true;
    cycle += 1;
    const at = cycle;
    set({ state: 'checking' });
    try {
      const result = await updater().checkForUpdates();
      if (result?.cancellationToken !== undefined) cancel = () => result.cancellationToken?.cancel();
      // The download runs on in the background; its failure also arrives as an 'error' event.
      result?.downloadPromise?.catch((error: unknown) => fail(at, error));
      // null: the updater itself found nothing to do (it saw no packaged app).
      if (result === null && stateNow() === 'checking') set({ state: 'idle', checkedAt: clock.now() });
    } catch (error) {
      fail(at, error);
    } finally {
      checking = false;
    }
  };

  const begin = (): void => {
    wire();
    updater().autoDownload = true;
    updater().autoInstallOnAppQuit = true;
    loggedOff = null;
    if (current.state === 'off') set({ state: 'idle', checkedAt: null });
    timer = timers.setInterval(() => void check(), CHECK_EVERY_MS);
    void check();
  };

  const halt = (): void => {
    if (timer !== null) timers.clearInterval(timer);
    timer = null;
  };

  const apply = async (): Promise<void> => {
    if (!deps.isPackaged) return off('development');
    let on: boolean;
    try {
      on = await deps.enabled();
    } catch (error) {
      // Updates are never worth a failed start: the status says so, and the app runs on.
      log.error('automatic updates could not read their setting', { error: String(error) });
      set({
        state: 'error',
        message: 'Automatic updates could not start; Atelier tries again when the setting changes.',
      });
      return;
    }
    if (on && timer === null) begin();
    if (!on) {
      halt();
      // Off means nothing more by itself: no download goes on, nothing installs at the next quit.
      cancel?.();
      cancel = null;
      if (port !== null) port.autoInstallOnAppQuit = false;
      off('setting');
    }
  };

  return {
    start: apply,
    settingChanged: apply,
    status: () => current,
    restart() {
      if (current.state !== 'ready') throw new AppError('conflict', 'No update is ready to install yet.');
      log.info('restarting to install an update', { version: current.version });
      // Silent, then run again: the person asked for a restart, not for an installer's pages.
      updater().quitAndInstall(true, true);
    },
    stop: halt,
  };
}

const OFFLINE =
  /ERR_INTERNET_DISCONNECTED|ERR_NETWORK|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT/;
const NO_FEED = /\b404\b|latest.*\.yml|No published versions|Unable to find latest version/i;

/** What went wrong, in words a person can act on; the full error goes to the log. */
export function personMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (OFFLINE.test(text)) return 'Atelier could not reach the update server (offline?). It tries again tomorrow.';
  if (NO_FEED.test(text)) return 'No update was published for this version yet. Atelier looks again tomorrow.';
  const first = text.split('\n')[0]?.trim().slice(0, 200) ?? '';
  return `Checking for updates failed${first === '' ? '' : `: ${first}`}. Atelier tries again tomorrow.`;
}
