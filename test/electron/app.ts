/**
 * Starts the built app (dist/electron/main.cjs) in real Electron through Playwright's Electron driver, on a profile
 * of its own (ATELIER_USER_DATA_DIR), and the few page steps every Electron test shares.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { USER_DATA_ENV } from '../../electron/desktop/profile-dir.js';
import { DATA_SUBDIR } from '../../electron/host/data-dir.js';
import { MISSING_LINE, findElectronBinary } from './binary.js';
import { BINARY_ENV, ROOT } from './runner.js';

export { ROOT };

/** The binary the runner found; a file run without the runner finds it itself, and fails loudly when there is none. */
export function electronBinary(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[BINARY_ENV];
  if (given !== undefined && given !== '') return given;
  const lookup = findElectronBinary({ env });
  if (!lookup.found) throw new Error(MISSING_LINE);
  return lookup.path;
}

/** The app's environment: ours, on its own profile, never as plain Node. */
export function appEnv(userDataDir: string, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  delete env['ELECTRON_RUN_AS_NODE'];
  env[USER_DATA_ENV] = userDataDir;
  return env;
}

/** Arguments for the app launched by hand (no Playwright): Playwright adds --no-sandbox on Linux, so do we. */
export function plainArgs(platform: NodeJS.Platform = process.platform): string[] {
  return platform === 'linux' ? ['--no-sandbox', ROOT] : [ROOT];
}

export interface RunningApp {
  app: ElectronApplication;
  window: Page;
  userDataDir: string;
  /** The library: <userData>/data, as main.ts picks it. */
  dataDir: string;
  /** Quits the app (if still running) and removes its profile, unless the caller gave the profile. */
  close(): Promise<void>;
}

export async function tempProfile(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'atelier-electron-'));
}

export async function launchApp(options: { userDataDir?: string } = {}): Promise<RunningApp> {
  const ownsProfile = options.userDataDir === undefined;
  const userDataDir = options.userDataDir ?? (await tempProfile());
  const app = await _electron.launch({
    executablePath: electronBinary(),
    args: [ROOT],
    cwd: ROOT,
    env: appEnv(userDataDir),
    timeout: 60_000,
  });
  let exited = false;
  app.on('close', () => (exited = true));
  try {
    const window = await app.firstWindow({ timeout: 60_000 });
    await waitForGallery(window);
    return {
      app,
      window,
      userDataDir,
      dataDir: join(userDataDir, DATA_SUBDIR),
      async close() {
        if (!exited) await app.close();
        if (ownsProfile) await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}

/** The window shows the gallery once its history has loaded (empty or not). */
export async function waitForGallery(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'History' }).waitFor({ timeout: 60_000 });
  await page.locator('#history .grid-scroll[aria-busy="false"]').waitFor({ timeout: 60_000 });
}

interface BridgeResult {
  ok: boolean;
  value?: unknown;
  error?: { message: string };
}

/** Calls one contract channel through the preload's window.atelier, as the renderer does. */
export async function bridgeCall<T>(page: Page, channel: string, input: unknown): Promise<T> {
  const result = await page.evaluate(
    ([name, payload]) => {
      const bridge = (globalThis as unknown as { atelier: Record<string, (input: unknown) => Promise<BridgeResult>> })
        .atelier;
      return bridge[name as string]!(payload);
    },
    [channel, input] as const,
  );
  if (!result.ok) throw new Error(`${channel}: ${result.error?.message ?? 'failed'}`);
  return result.value as T;
}

export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Generates one small image with the built-in provider through the bridge; resolves with its job and image ids. */
export async function seedImage(page: Page, prompt: string, size = 64): Promise<{ jobId: string; imageId: string }> {
  const { job } = await bridgeCall<{ job: { id: string } }>(page, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: size,
    height: size,
    count: 1,
    steps: 2,
  });
  let imageId: string | undefined;
  await waitUntil(async () => {
    const detail = await bridgeCall<{ status: string; images: { id: string }[] }>(page, 'jobs.get', { id: job.id });
    imageId = detail.status === 'succeeded' ? detail.images[0]?.id : undefined;
    return imageId !== undefined;
  }, `"${prompt}" to finish`);
  return { jobId: job.id, imageId: imageId! };
}
