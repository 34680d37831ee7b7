import { posix, win32 } from 'node:path';

/** Electron's productName: its userData directory is named after it on every OS. */
export const PRODUCT_NAME = 'Atelier';
/** The library lives in a folder of its own inside userData, apart from Chromium's caches and cookies. */
export const DATA_SUBDIR = 'data';

/** Electron's `app.getPath('userData')` for Atelier, computed without Electron so the headless host shares it. */
export function userDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const join = platform === 'win32' ? win32.join : posix.join;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  const xdg = env.XDG_CONFIG_HOME;
  // Electron ignores a relative XDG_CONFIG_HOME, as the XDG spec asks.
  return join(xdg !== undefined && xdg.startsWith('/') ? xdg : join(home, '.config'), PRODUCT_NAME);
}

export function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const join = platform === 'win32' ? win32.join : posix.join;
  return join(userDataDir(platform, env, home), DATA_SUBDIR);
}
