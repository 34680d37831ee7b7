import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm run native:electron` puts Electron builds of better-sqlite3: outside node_modules, per target. */
export const NATIVE_DIR = '.electron-native';
export const BINDING_FILE = 'better_sqlite3.node';

export function nativeTargetDir(root: string, platform: string, arch: string): string {
  return join(root, NATIVE_DIR, `${platform}-${arch}`);
}

export interface NativeContext {
  isPackaged: boolean;
  /** app.getAppPath(): the repo root in development, …/resources/app.asar when packaged. */
  appPath: string;
  platform: string;
  arch: string;
}

/**
 * The Electron build of better-sqlite3 for this process. Packaged: unpacked next to app.asar (native code cannot be
 * loaded from inside an archive). Development: the per-target build in .electron-native/. node_modules keeps the
 * Node build that `npm test` uses, so neither overwrites the other.
 */
export function nativeBindingPath(context: NativeContext): string | undefined {
  const file = context.isPackaged
    ? join(`${context.appPath}.unpacked`, 'native', BINDING_FILE)
    : join(nativeTargetDir(context.appPath, context.platform, context.arch), BINDING_FILE);
  return existsSync(file) ? file : undefined;
}
