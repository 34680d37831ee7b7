import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import {
  CHECK_EVERY_MS,
  createAutoUpdates,
  personMessage,
  type UpdaterLog,
} from '../../../electron/desktop/updates.js';

type CheckResult = { downloadPromise?: Promise<unknown> | null; cancellationToken?: { cancel(): void } } | null;

/** electron-updater's AppUpdater as far as Atelier uses it: an EventEmitter whose checks the test scripts. */
class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  logger: UpdaterLog | null = null;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  cancelled = 0;
  /** What the next check does; by default: nothing new. */
  next: () => Promise<CheckResult> = () => this.nothingNew();
  async nothingNew(): Promise<CheckResult> {
    this.emit('checking-for-update');
    this.emit('update-not-available', { version: '0.1.0' });
    return { downloadPromise: null };
  }
  checkForUpdates(): Promise<CheckResult> {
    this.checks += 1;
    return this.next();
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
  /** A check that finds 0.2.0 and downloads it in the background, as autoDownload does. */
  offers(version: string, download: Promise<unknown>): void {
    this.next = async () => {
      this.emit('checking-for-update');
      this.emit('update-available', { version });
      return { downloadPromise: download, cancellationToken: { cancel: () => (this.cancelled += 1) } };
    };
  }
  /** A check that fails as electron-updater's does: an 'error' event, then the promise rejects with the same error. */
  failsWith(message: string): void {
    this.next = async () => {
      this.emit('checking-for-update');
      const error = new Error(message);
      this.emit('error', error);
      throw error;
    };
  }
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

function setup(options: { isPackaged?: boolean; enabled?: boolean } = {}) {
  const updater = new FakeUpdater();
  let built = 0;
  const statuses: UpdateStatus[] = [];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  let enabled = options.enabled ?? true;
  const updates = createAutoUpdates({
    updater: () => {
      built += 1;
      return updater;
    },
    isPackaged: options.isPackaged ?? true,
    enabled: () => enabled,
    onStatus: (status) => statuses.push(status),
    log,
    clock: { now: () => Date.now() },
    timers: {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    },
  });
  return { updater, statuses, log, updates, setEnabled: (on: boolean) => (enabled = on), built: () => built };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('automatic updates', () => {
  it('never checks in a development run, and says why once', async () => {
    const { updater, updates, statuses, log, setEnabled, built } = setup({ isPackaged: false });
    await updates.start();
    setEnabled(false);
    await updates.settingChanged();
    setEnabled(true);
    await updates.settingChanged();
    await vi.advanceTimersByTimeAsync(3 * CHECK_EVERY_MS);
    expect(updater.checks).toBe(0);
    expect(built()).toBe(0);
    expect(updates.status()).toEqual({ state: 'off', reason: 'development' });
    expect(statuses.at(-1)).toEqual({ state: 'off', reason: 'development' });
    expect(log.info.mock.calls.filter(([m]) => String(m).includes('development'))).toHaveLength(1);
  });

  it('never checks with the setting off', async () => {
    const { updater, updates } = setup({ enabled: false });
    await updates.start();
    await vi.advanceTimersByTimeAsync(3 * CHECK_EVERY_MS);
    expect(updater.checks).toBe(0);
    expect(updates.status()).toEqual({ state: 'off', reason: 'setting' });
  });

  it('checks on start and again every 24 hours, and says when it last found nothing new', async () => {
    const { updater, updates } = setup();
    await updates.start();
    await flush();
    expect(updater.checks).toBe(1);
    expect(updates.status()).toEqual({ state: 'idle', checkedAt: 1_800_000_000_000 });
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS - 1_000);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updater.checks).toBe(2);
    expect(updates.status()).toEqual({ state: 'idle', checkedAt: 1_800_000_000_000 + CHECK_EVERY_MS });
  });

  it('downloads in the background, reports whole percents, and is ready with the version', async () => {
    const { updater, updates, statuses } = setup();
    let finish!: (files: string[]) => void;
    updater.offers('0.2.0', new Promise((resolve) => (finish = resolve)));
    await updates.start();
    await flush();
    expect(updater.autoDownload).toBe(true);
    expect(updates.status()).toEqual({ state: 'downloading', version: '0.2.0', percent: 0 });
    updater.emit('download-progress', { percent: 41.2 });
    updater.emit('download-progress', { percent: 41.9 });
    updater.emit('download-progress', { percent: 87.5 });
    expect(
      statuses.filter((s) => s.state === 'downloading').map((s) => (s.state === 'downloading' ? s.percent : -1)),
    ).toEqual([0, 41, 87]);
    updater.emit('update-downloaded', { version: '0.2.0' });
    finish(['/cache/Atelier-0.2.0.exe']);
    await flush();
    expect(statuses.at(-1)).toEqual({ state: 'ready', version: '0.2.0' });
  });

  it('restarts to update only when one is ready, silently and running again', async () => {
    const { updater, updates } = setup();
    expect(() => updates.restart()).toThrow(AppError);
    expect(updater.installs).toEqual([]);
    updater.offers('0.2.0', Promise.resolve([]));
    await updates.start();
    await flush();
    expect(() => updates.restart()).toThrow(/No update is ready/);
    updater.emit('update-downloaded', { version: '0.2.0' });
    updates.restart();
    expect(updater.installs).toEqual([[true, true]]);
  });

  it('waits for the restart once ready: the daily check does not download it again', async () => {
    const { updater, updates } = setup();
    updater.offers('0.2.0', Promise.resolve([]));
    await updates.start();
    await flush();
    updater.emit('update-downloaded', { version: '0.2.0' });
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(updater.checks).toBe(1);
    expect(updates.status()).toEqual({ state: 'ready', version: '0.2.0' });
  });

  it('an offline check ends as one error status and one log line, and the next day checks again', async () => {
    const { updater, updates, statuses, log } = setup();
    updater.failsWith('net::ERR_INTERNET_DISCONNECTED');
    await updates.start();
    await flush();
    const errors = statuses.filter((s) => s.state === 'error');
    expect(errors).toEqual([
      { state: 'error', message: 'Atelier could not reach the update server (offline?). It tries again tomorrow.' },
    ]);
    expect(log.warn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(updater.checks).toBe(2);
    expect(statuses.filter((s) => s.state === 'error')).toHaveLength(2);
    expect(log.warn).toHaveBeenCalledTimes(2);
  });

  it('a failed background download is one error status, never an unhandled rejection', async () => {
    const { updater, updates, statuses } = setup();
    const failure = new Error('sha512 checksum mismatch');
    updater.offers('0.2.0', Promise.reject(failure));
    await updates.start();
    // electron-updater dispatches the download's failure as an event too.
    updater.emit('error', failure);
    await flush();
    expect(statuses.filter((s) => s.state === 'error')).toEqual([
      {
        state: 'error',
        message: 'Checking for updates failed: sha512 checksum mismatch. Atelier tries again tomorrow.',
      },
    ]);
  });

  it('turning the setting off stops the daily check and any download; on again checks at once and daily', async () => {
    const { updater, updates, setEnabled } = setup();
    await updates.start();
    await flush();
    updater.offers('0.2.0', new Promise(() => undefined));
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(updater.checks).toBe(2);
    setEnabled(false);
    await updates.settingChanged();
    expect(updater.cancelled).toBe(1);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updates.status()).toEqual({ state: 'off', reason: 'setting' });
    await vi.advanceTimersByTimeAsync(3 * CHECK_EVERY_MS);
    expect(updater.checks).toBe(2);
    updater.next = () => updater.nothingNew();
    setEnabled(true);
    await updates.settingChanged();
    await flush();
    expect(updater.checks).toBe(3);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(updater.checks).toBe(4);
  });

  it("keeps the updater's own error lines out of the log (they arrive once as events) but passes its info on", async () => {
    const { updater, updates, log } = setup();
    await updates.start();
    updater.logger?.error('Error: net::ERR_INTERNET_DISCONNECTED');
    updater.logger?.info('Checking for update');
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith('Checking for update');
  });
});

describe('automatic updates that cannot read their setting', () => {
  it('end as an error status, and the start goes on', async () => {
    const updater = new FakeUpdater();
    const statuses: UpdateStatus[] = [];
    const updates = createAutoUpdates({
      updater: () => updater,
      isPackaged: true,
      enabled: () => Promise.reject(new Error('database is locked')),
      onStatus: (status) => statuses.push(status),
      log: { info: vi.fn(), warn: vi.fn(), error: vi.fn() },
    });
    await expect(updates.start()).resolves.toBeUndefined();
    expect(statuses).toEqual([
      { state: 'error', message: 'Automatic updates could not start; Atelier tries again when the setting changes.' },
    ]);
    expect(updater.checks).toBe(0);
  });
});

describe('personMessage', () => {
  it('names a missing feed and keeps an unknown error to its first line', () => {
    expect(
      personMessage(
        new Error('HttpError: 404 \n"method: GET url: https://github.com/o/r/releases/download/v0.1.0/latest.yml"'),
      ),
    ).toBe('No update was published for this version yet. Atelier looks again tomorrow.');
    expect(personMessage(new Error('disk full\nstack…'))).toBe(
      'Checking for updates failed: disk full. Atelier tries again tomorrow.',
    );
  });
});
