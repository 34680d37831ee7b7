/**
 * End-to-end harness: the real engine and the headless host on a temp data dir, the renderer built by Vite into a
 * temp folder, and Debian's Chromium driven by playwright-core. Everything it starts, it stops and removes.
 */
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath } from './chromium-path.js';
import { buildRendererInto, type BuiltRenderer } from './renderer-build.js';
import { createEngine, type EngineTestSeams } from '../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';
import { splitEngineOptions } from '../fakes/engine-options.js';
import type { Engine } from '../../electron/engine/types.js';
import { startServer, type RunningServer } from '../../electron/serve/server.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The built renderer. Under vitest it is the one build of the run (global-setup.ts), shared by every e2e file, and its
 * `remove()` does nothing (the global teardown removes it); elsewhere (the benches) each call builds its own.
 */
export async function buildRenderer(): Promise<BuiltRenderer> {
  const shared = await sharedRendererDir();
  if (shared !== undefined) return { dir: shared, remove: () => Promise.resolve() };
  return buildRendererInto();
}

async function sharedRendererDir(): Promise<string | undefined> {
  if (process.env['VITEST'] === undefined) return undefined;
  const { inject } = await import('vitest');
  return inject('rendererDir');
}

export interface Host {
  engine: Engine;
  server: RunningServer;
  dataDir: string;
  /** The one link with the token; the page then lives on the cookie. */
  url: string;
  origin: string;
  stop(): Promise<void>;
}

/** What `startHost` takes besides the renderer and the data dir. */
export interface HostOptions {
  port?: number;
  token?: string;
  engine?: EngineTestSeams & { providerDefaults?: Record<string, { baseUrl?: string }> };
}

export async function startHost(options: HostOptions & { rendererDir: string; dataDir: string }): Promise<Host> {
  const keyring = await createFileKeyring(options.dataDir);
  const mixed = splitEngineOptions(options.engine ?? {});
  const engine = await createEngine(
    { dataDir: options.dataDir, keyring, ...mixed.options },
    { maintenanceIntervalMs: 0, ...mixed.seams },
  );
  const token = options.token ?? 'e2e-token-0123456789abcdef';
  let server: RunningServer;
  try {
    server = await startServer({ engine, rendererDir: options.rendererDir, token, port: options.port ?? 0 });
  } catch (error) {
    await engine.close({ graceMs: 0 });
    throw error;
  }
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    engine,
    server,
    dataDir: options.dataDir,
    url: server.url,
    origin,
    async stop() {
      await server.close();
      await engine.close({ graceMs: 500 });
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface BrowserOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  extraArgs?: string[];
  advancedOpen?: boolean;
}

export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'atelier-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
    viewport: options.viewport ?? { width: 1360, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  // Most tests set a steps or seed field: Advanced starts open for them unless a test asks for a new person's view.
  if (options.advancedOpen !== false)
    await context.addInitScript(() => {
      const store = (
        globalThis as unknown as {
          localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
        }
      ).localStorage;
      if (store.getItem('atelier.composerAdvanced') === null) store.setItem('atelier.composerAdvanced', 'open');
    });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** A loopback port that nothing listens on (bound, then released): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export { rm };

/** Stops what an e2e file started, in reverse order; any part may be missing if its setup failed. */
export async function tearDown(parts: {
  browser?: Browser;
  host?: Host;
  dataDir?: string;
  renderer?: { remove(): Promise<void> };
}): Promise<void> {
  await parts.browser?.close();
  await parts.host?.stop();
  if (parts.dataDir !== undefined) await rm(parts.dataDir, { recursive: true, force: true });
  await parts.renderer?.remove();
}

export interface OpenAppOptions {
  /** The temp data dir's name prefix, e.g. 'atelier-e2e-search-'. */
  prefix: string;
  /** Fills the new data dir before the engine opens it (e.g. a large library written straight to disk). */
  beforeHost?: (dataDir: string) => Promise<unknown>;
  host?: HostOptions;
  /** Seeds through the API once the host is up, before the browser starts. */
  seed?: (host: Host) => Promise<unknown>;
  browser?: BrowserOptions;
  /** Runs on the page before it opens the app: init scripts, listeners, emulated media, default timeouts. */
  beforeGoto?: (page: Page) => Promise<unknown> | void;
  /** Opens the app's link (with its token) in the page; true unless told. */
  goto?: boolean;
}

/**
 * The app as an e2e file uses it. `close()` tears down in reverse what is in the fields at the time it runs, so a
 * test that restarts the host assigns the new one to `host` and it is the one stopped.
 */
export interface App {
  renderer: BuiltRenderer;
  dataDir: string;
  host: Host;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The opening of almost every e2e file: the run's renderer build, a temp data dir, the host on it, the seed, Chromium,
 * and the page on the app. If a step fails, what was started is torn down before the error is rethrown.
 */
export async function openApp(options: OpenAppOptions): Promise<App> {
  const parts: Parameters<typeof tearDown>[0] = {};
  try {
    const renderer = (parts.renderer = await buildRenderer());
    const dataDir = (parts.dataDir = await tempDir(options.prefix));
    await options.beforeHost?.(dataDir);
    const host = (parts.host = await startHost({ ...options.host, rendererDir: renderer.dir, dataDir }));
    await options.seed?.(host);
    const browser = (parts.browser = await launchBrowser(options.browser));
    await options.beforeGoto?.(browser.page);
    if (options.goto !== false) await browser.page.goto(host.url);
    const app: App = {
      renderer,
      dataDir,
      host,
      browser,
      page: browser.page,
      close: () => tearDown({ browser: app.browser, host: app.host, dataDir: app.dataDir, renderer: app.renderer }),
    };
    return app;
  } catch (error) {
    await tearDown(parts).catch(() => undefined);
    throw error;
  }
}
