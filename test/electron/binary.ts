/**
 * Finds the Electron binary the way node_modules/electron/index.js does (path.txt, ELECTRON_OVERRIDE_DIST_PATH),
 * without requiring that module: when the binary is missing it starts a download, which must never happen here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const MISSING_LINE =
  'Electron is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD?): the Electron tests run on CI and on desktops; see README';

/** What electron's install.js writes to path.txt on each OS. */
const DEFAULT_EXECUTABLE: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  win32: 'electron.exe',
};

export type BinaryLookup = { found: true; path: string } | { found: false; looked: string };

export interface BinaryOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The electron package's folder; by default the one node resolves from here. */
  electronDir?: string;
}

export function electronPackageDir(): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

export function findElectronBinary(options: BinaryOptions = {}): BinaryLookup {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const dir = options.electronDir ?? electronPackageDir();
  if (dir === null) return { found: false, looked: 'node_modules/electron' };
  const pathFile = join(dir, 'path.txt');
  const recorded = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const executable = recorded !== '' ? recorded : (DEFAULT_EXECUTABLE[platform] ?? 'electron');
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  // Without an override, no path.txt means install.js never finished: there is no binary, whatever the guess.
  if ((override === undefined || override === '') && recorded === '') return { found: false, looked: pathFile };
  const path = override !== undefined && override !== '' ? join(override, executable) : join(dir, 'dist', executable);
  return existsSync(path) ? { found: true, path } : { found: false, looked: path };
}
