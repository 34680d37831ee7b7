import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({
  logsDir: '',
  app: undefined as unknown as EventEmitter,
  quietLog: undefined as unknown as () => void,
}));

// main.ts loads against a mocked Electron whose app never becomes ready: only its top-level wiring runs.
vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const app = Object.assign(new EventEmitter(), {
    name: 'Atelier',
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => new Promise(() => undefined),
    getName: () => 'Atelier',
    getVersion: () => '1.2.3',
    quit: vi.fn(),
    exit: vi.fn(),
  });
  h.app = app;
  const none = {};
  return {
    app,
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    BrowserWindow: class {},
    ClipboardItem: class {},
    Menu: none,
    Notification: none,
    clipboard: none,
    dialog: none,
    nativeTheme: none,
    screen: none,
    session: none,
    shell: none,
    ipcMain: none,
    safeStorage: none,
    nativeImage: none,
  };
});
// electron-log's Node logger has the main one's file transport; here it writes into the test's folder.
vi.mock('electron-log/main', async () => {
  const nodeLog = (await import('electron-log/node')).default;
  const logger = nodeLog.create({ logId: 'main-wiring' });
  logger.transports.file.resolvePathFn = () => `${h.logsDir}/main.log`;
  h.quietLog = () => {
    logger.transports.console.level = false;
  };
  return { default: logger };
});

const EVENTS = ['uncaughtException', 'unhandledRejection'] as const;
const proc = process as unknown as EventEmitter;

describe('main.ts crash wiring', () => {
  const before = new Map(EVENTS.map((name) => [name, proc.listeners(name)]));
  const added = (name: (typeof EVENTS)[number]) =>
    proc.listeners(name).filter((l) => !before.get(name)!.includes(l)) as Array<(error: unknown) => void>;

  beforeAll(async () => {
    h.logsDir = await mkdtemp(join(tmpdir(), 'atelier-main-'));
    await import('../../../electron/glue/main.js');
    h.quietLog();
  });
  afterAll(async () => {
    // The listeners main added to this test process go, so vitest's own handling is as it was.
    for (const name of EVENTS) for (const listener of added(name)) proc.removeListener(name, listener);
    await rm(h.logsDir, { recursive: true, force: true });
  });

  const reports = () =>
    readdirSync(join(h.logsDir, 'crashes')).filter((name) => name.endsWith('Z.txt') || /Z-\d+\.txt$/.test(name));

  it('writes a report into <logs>/crashes when a renderer crashes, and logs where', () => {
    h.app.emit('render-process-gone', {}, {}, { reason: 'crashed', exitCode: 139 });
    const [name] = reports();
    const text = readFileSync(join(h.logsDir, 'crashes', name!), 'utf8');
    expect(text).toContain('What happened: renderer gone');
    expect(text).toContain('Atelier 1.2.3 (development)');
    expect(text).toContain('"reason":"crashed"');
    expect(readFileSync(join(h.logsDir, 'main.log'), 'utf8')).toContain('crash report written');
  });

  it("writes one for main's uncaught errors too, without the prompt they carried", () => {
    const [listener] = added('uncaughtException');
    listener!(new Error('provider body {"prompt":"a secret garden at night"}'));
    const texts = reports().map((name) => readFileSync(join(h.logsDir, 'crashes', name), 'utf8'));
    const report = texts.find((text) => text.includes('What happened: uncaught exception'));
    expect(report).toContain('"prompt":"[prompt omitted]"');
    expect(texts.join('\n')).not.toContain('secret garden');
    expect(readFileSync(join(h.logsDir, 'main.log'), 'utf8')).not.toContain('secret garden');
  });
});
