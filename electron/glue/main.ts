/**
 * The Electron main process: one locked-down window on the app's own scheme, the engine behind typed IPC, and the
 * desktop touches (menu, progress bar, notifications, theme). Everything that can be plain Node lives elsewhere.
 */
import { arch, release } from 'node:os';
import { join } from 'node:path';
import electronLog from 'electron-log/main';
import {
  BrowserWindow,
  Menu,
  Notification,
  app,
  clipboard,
  dialog,
  nativeTheme,
  screen,
  session,
  shell,
  type BrowserWindowConstructorOptions,
} from 'electron';
import { autoUpdater } from 'electron-updater';
import type { Handlers } from '../../shared/contract.js';
import { createEngine } from '../engine/create-engine.js';
import { createEventBus } from '../base/events.js';
import type { EngineEvents } from '../base/events.js';
import type { Engine } from '../engine/types.js';
import { APP_ENTRY_URL } from '../desktop/app-url.js';
import { createDesktopHandlers } from './channels.js';
import { offerCrashReport, writeCrashReport } from '../desktop/crash-reports.js';
import { watchCrashes } from '../desktop/crash-watch.js';
import { collectDiagnostics, versionLines, type DiagnosticsFacts } from '../desktop/diagnostics.js';
import { helpCommands } from '../desktop/help-commands.js';
import { learningKeyring } from '../desktop/known-secrets.js';
import { createScrubber } from '../desktop/log-scrub.js';
import { createDesktopLog } from '../desktop/logs.js';
import { openDesktopLibrary } from '../desktop/library-location.js';
import { JobIndicators, notificationFor } from '../desktop/indicators.js';
import { menuTemplate } from './menu.js';
import { createAutoUpdates, type AutoUpdates } from '../desktop/updates.js';
import { nativeBindingPath } from '../desktop/native-binding.js';
import { userDataOverride } from '../desktop/profile-dir.js';
import { guardWebContents } from './window-security.js';
import {
  DEFAULT_STATE,
  MIN_SIZE,
  loadWindowState,
  saveWindowState,
  type WindowState,
} from '../desktop/window-state.js';
import { MENU_IPC_CHANNEL } from '../host/channel-names.js';
import { CONTENT_SECURITY_POLICY } from '../host/security.js';
import { registerIpc } from './ipc.js';
import { handleProtocols, registerPrivilegedSchemes } from './media-protocol.js';
import { createSecretBook } from '../providers/redact.js';
import { createSafeStorageKeyring } from './safe-storage-keyring.js';

/** Running jobs get this long to finish when the app quits; then the store closes and they resume as interrupted. */
const QUIT_GRACE_MS = 3_000;

// One book of every secret the process has seen: the engine redacts against it, and so does the log file.
const secrets = createSecretBook();
const scrub = createScrubber(() => secrets.redactor());
/** Main's and the engine's log: electron-log's file in the OS log folder (see desktop/logs.ts). */
const log = createDesktopLog(electronLog, scrub);

const about = (dataDir: string): Omit<DiagnosticsFacts, 'library'> => ({
  app: { name: app.getName(), version: app.getVersion(), packaged: app.isPackaged },
  versions: { electron: process.versions.electron, chrome: process.versions.chrome, node: process.versions.node },
  os: { platform: process.platform, release: release(), arch: arch() },
  dataDir,
  logsDir: log.folder,
});

// A crash leaves a report on this computer (never uploaded); the next start offers it.
watchCrashes({ process, app }, (event) => {
  const path = writeCrashReport(log.folder, event, {
    at: new Date(),
    about: versionLines(about('')),
    tail: log.tail(),
    scrub,
  });
  log.error('crash report written', { kind: event.kind, path });
});

let engine: Engine | null = null;
let updates: AutoUpdates | null = null;
let mainWindow: BrowserWindow | null = null;
let unregisterIpc: (() => void) | null = null;
let quitting: 'no' | 'closing' | 'closed' = 'no';

// Both schemes must be registered as privileged before `ready`.
registerPrivilegedSchemes();

// A profile elsewhere (tests, see desktop/profile-dir.ts) must be set before the lock, which lives in userData.
const profileDir = userDataOverride(process.env);
if (profileDir !== null) app.setPath('userData', profileDir);

if (!app.requestSingleInstanceLock()) {
  // Another Atelier owns the library: it will focus its window (see 'second-instance').
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow === null) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  // start's own failures too (a read-only or damaged library): they end in the dialog below, not a silent exit.
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error));
}

function fatal(error: unknown): void {
  log.error('Atelier could not start', { error: String(error) });
  // The store's start-up errors say what happened and what to do; a person sees them before the app exits.
  dialog.showErrorBox('Atelier could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}

const windowStateFile = (): string => join(app.getPath('userData'), 'window-state.json');

async function createWindow(rendererUrl: string): Promise<BrowserWindow> {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const state = await loadWindowState(windowStateFile(), workAreas);
  const options: BrowserWindowConstructorOptions = {
    ...state.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Atelier',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16161a' : '#f6f6f4',
    webPreferences: {
      preload: join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: true,
    },
  };
  const win = new BrowserWindow(options);
  guardWebContents(win.webContents, (url) => shell.openExternal(url));
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  let saveTimer: NodeJS.Timeout | undefined;
  const remember = (): void => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      if (win.isDestroyed()) return;
      const next: WindowState = {
        bounds:
          win.isMaximized() || win.isFullScreen() ? (win.getNormalBounds() ?? DEFAULT_STATE.bounds) : win.getBounds(),
        maximized: win.isMaximized(),
      };
      void saveWindowState(windowStateFile(), next).catch((error: unknown) =>
        log.warn('window state not saved', { error: String(error) }),
      );
    }, 400);
  };
  win.on('resize', remember);
  win.on('move', remember);
  win.on('maximize', remember);
  win.on('unmaximize', remember);
  win.on('close', remember);
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  await win.loadURL(rendererUrl);
  return win;
}

function applyTheme(theme: 'system' | 'dark' | 'light'): void {
  nativeTheme.themeSource = theme;
}

function watchJobs(current: Engine): void {
  const indicators = new JobIndicators();
  const refresh = (): void => {
    const { progress } = indicators.current();
    if (mainWindow !== null && !mainWindow.isDestroyed()) mainWindow.setProgressBar(progress);
  };
  current.events.on('jobs.progress', (payload) => {
    indicators.progress(payload);
    refresh();
  });
  current.events.on('jobs.removed', (payload) => {
    indicators.removed(payload);
    refresh();
  });
  current.events.on('jobs.changed', (payload) => {
    const finished = indicators.changed(payload);
    refresh();
    const focused = mainWindow !== null && !mainWindow.isDestroyed() && mainWindow.isFocused();
    if (finished !== null && !focused && Notification.isSupported()) {
      const notification = new Notification({ ...notificationFor(finished), silent: false });
      notification.on('click', () => {
        mainWindow?.show();
        mainWindow?.focus();
      });
      notification.show();
    }
  });
}

async function start(): Promise<void> {
  const rendererDir = join(app.getAppPath(), 'dist', 'renderer');
  const nativeBinding = nativeBindingPath({
    isPackaged: app.isPackaged,
    appPath: app.getAppPath(),
    platform: process.platform,
    arch: process.arch,
  });
  if (nativeBinding === undefined) {
    log.warn('No Electron build of better-sqlite3 found: run `npm run native:electron` (npm start does it).');
  }
  // <userData>/data apart from Chromium's caches, or where a move put it; a move switches it while the app runs.
  const library = await openDesktopLibrary({
    userData: app.getPath('userData'),
    // Every engine the library host opens shares the log's book of secrets, and its keyring teaches it.
    createEngine: (options) => createEngine({ ...options, secrets }),
    createKeyring: (dir) => learningKeyring(createSafeStorageKeyring(dir), secrets),
    log,
    graceMs: QUIT_GRACE_MS,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  });
  engine = library;
  const current = library;

  // The CSP also rides on every atelier:// response; this covers anything else the session loads.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  // Atelier needs no camera, location, notifications-from-the-page or other web permission.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  handleProtocols(rendererDir, current);

  const desktop = createDesktopHandlers(current, () => mainWindow);
  // The updater's status rides beside the engine's events, to the window only (the headless host has no updater).
  const updateEvents = createEventBus(log);
  const events: EngineEvents = {
    on(name, listener) {
      const offs = [current.events.on(name, listener), updateEvents.on(name, listener)];
      return () => offs.forEach((unsubscribe) => unsubscribe());
    },
  };
  const autoUpdates = createAutoUpdates({
    updater: () => autoUpdater,
    isPackaged: app.isPackaged,
    enabled: async () => (await current.handlers['settings.get']({})).updates.auto,
    onStatus: (status) => updateEvents.emit('updates.status', status),
    log,
  });
  updates = autoUpdates;
  const handlers: Handlers = {
    ...current.handlers,
    ...desktop,
    async 'settings.update'(input) {
      const settings = await current.handlers['settings.update'](input);
      applyTheme(settings.theme);
      if (input.updates?.auto !== undefined) await autoUpdates.settingChanged();
      return settings;
    },
    'updates.status': async () => autoUpdates.status(),
    'updates.restart': async () => {
      autoUpdates.restart();
      return {};
    },
  };
  unregisterIpc = registerIpc({
    handlers,
    events,
    target: () => (mainWindow === null || mainWindow.isDestroyed() ? null : mainWindow.webContents),
    onUnexpected: (channel, error) => log.error('unexpected error', { channel, error: String(error) }),
  });
  // A library that is not there (its drive unplugged) has no settings yet: the window asks what to do.
  applyTheme((await current.handlers['settings.get']({}).catch(() => ({ theme: 'system' as const }))).theme);
  watchJobs(current);

  const importFolder = (): void => {
    if (mainWindow !== null && !mainWindow.isDestroyed()) mainWindow.webContents.send(MENU_IPC_CHANNEL, 'import');
  };
  const help = helpCommands({
    logsFolder: () => log.folder,
    openPath: (path) => shell.openPath(path),
    writeText: (text) => clipboard.writeText(text),
    diagnostics: () => collectDiagnostics(about(current.location().dataDir), current.handlers),
    log,
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(menuTemplate(process.platform === 'darwin', app.name, { importFolder, ...help })),
  );
  mainWindow = await createWindow(APP_ENTRY_URL);
  offerLastCrash(mainWindow);
  // After the window: the first check never holds up the start.
  await autoUpdates.start();

  app.on('activate', () => {
    if (mainWindow === null && quitting === 'no') void createWindow(APP_ENTRY_URL).then((win) => (mainWindow = win));
  });
}

function offerLastCrash(win: BrowserWindow): void {
  void offerCrashReport(log.folder, {
    ask: async (path) => {
      const { response } = await dialog.showMessageBox(win, {
        type: 'info',
        buttons: ['Open', 'Dismiss'],
        defaultId: 0,
        cancelId: 1,
        message: 'Atelier stopped unexpectedly last time.',
        detail: `A crash report was saved on this computer; it is never sent anywhere. Open it to read it or attach it to a bug report.\n\n${path}`,
      });
      return response === 0;
    },
    open: (path) => shell.openPath(path),
  }).catch((error: unknown) => log.warn('could not offer the crash report', { error: String(error) }));
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

// Quit: stop taking calls, let running jobs finish for a moment, close the store (PRAGMA optimize), then exit.
app.on('before-quit', (event) => {
  if (quitting === 'closed' || engine === null) return;
  event.preventDefault();
  if (quitting === 'closing') return;
  quitting = 'closing';
  updates?.stop();
  unregisterIpc?.();
  unregisterIpc = null;
  const closing = engine;
  void closing
    .close({ graceMs: QUIT_GRACE_MS })
    .catch((error: unknown) => log.error('engine did not close cleanly', { error: String(error) }))
    .finally(() => {
      quitting = 'closed';
      app.quit();
    });
});
