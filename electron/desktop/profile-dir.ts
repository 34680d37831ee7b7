import { resolve } from 'node:path';

/**
 * ATELIER_USER_DATA_DIR moves the app's whole profile (library in <dir>/data, window state, Chromium's caches and
 * the single-instance lock) to another folder: the Electron tests run each app on a temporary one. Unset or empty,
 * the OS's user-data folder is used as always.
 */
export const USER_DATA_ENV = 'ATELIER_USER_DATA_DIR';

/** The absolute profile folder the environment asks for, or null when it asks for none. */
export function userDataOverride(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): string | null {
  const value = env[USER_DATA_ENV];
  if (value === undefined || value.trim() === '') return null;
  return resolve(cwd, value);
}
