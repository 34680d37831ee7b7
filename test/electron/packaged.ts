/**
 * The app `npm run dist -- --dir` unpacked (ATELIER_PACKAGED_APP): where its executable and its fuse-carrying binary
 * are, and how to start it. Its fuses turn off --inspect, so Playwright's Electron driver cannot attach: the app is
 * started by hand with Chromium's --remote-debugging-port and driven over CDP instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { electronBinary as unpackedBinary } from '../../electron/build/fuses.js';

const PRODUCT = 'Atelier';
const LINUX_EXECUTABLE = 'atelier';

export interface PackagedApp {
  /** What to run. */
  executable: string;
  /** What @electron/fuses reads: the .app on macOS, the executable elsewhere. */
  fuseTarget: string;
}

/** Accepts the unpacked folder (linux-unpacked, win-unpacked, mac, mac-arm64), the .app, or the executable itself. */
export function resolvePackagedApp(given: string, platform: NodeJS.Platform = process.platform): PackagedApp {
  if (!existsSync(given)) throw new Error(`ATELIER_PACKAGED_APP points at nothing: ${given}`);
  let target = given;
  if (statSync(given).isDirectory() && !given.endsWith('.app'))
    target = unpackedBinary(given, platform, PRODUCT, LINUX_EXECUTABLE);
  if (!existsSync(target)) throw new Error(`No packaged Atelier in ${given} (looked for ${basename(target)})`);
  if (target.endsWith('.app')) return { executable: join(target, 'Contents', 'MacOS', PRODUCT), fuseTarget: target };
  return { executable: target, fuseTarget: target };
}

export interface StartedPackaged {
  child: ChildProcess;
  browser: Browser;
  /** Everything the app wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the packaged app and connects over CDP once Chromium says where ("DevTools listening on ws://…"). */
export async function startPackaged(
  executable: string,
  env: Record<string, string>,
  args: string[],
): Promise<StartedPackaged> {
  const child = spawn(executable, ['--remote-debugging-port=0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the packaged app never opened DevTools; it said:\n${seen}`)),
      60_000,
    );
    const read = (chunk: Buffer): void => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr!.on('data', read);
    child.stdout!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the packaged app exited (${code}) before DevTools opened; it said:\n${seen}`));
    });
  });
  const browser = await chromium.connectOverCDP(endpoint);
  return {
    child,
    browser,
    output: () => seen,
    async stop() {
      await browser.close().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill();
        await gone;
      }
    },
  };
}
