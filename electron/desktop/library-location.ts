import { join } from 'node:path';
import type { Keyring } from '../base/keyring.js';
import type { Logger } from '../base/logger.js';
import type { Engine, EngineOptions } from '../engine/types.js';
import { DATA_SUBDIR } from '../host/data-dir.js';
import { createLibraryHost, type LibraryHost } from '../host/library-host.js';
import { pointerPath, readPointer } from '../host/library-pointer.js';

export interface DesktopLibraryOptions {
  /** `app.getPath('userData')`: the default library is its data/ folder, and the pointer file sits beside it. */
  userData: string;
  createEngine(options: EngineOptions): Promise<Engine>;
  createKeyring(dataDir: string): Keyring;
  log: Logger;
  nativeBinding?: string;
  graceMs?: number;
}

/**
 * The desktop app's library: <userData>/data, or the folder a move put it in (remembered in
 * <userData>/library-location.json). A remembered folder that is not there opens nothing and is reported instead.
 */
export async function openDesktopLibrary(options: DesktopLibraryOptions): Promise<LibraryHost> {
  const pointerFile = pointerPath(options.userData);
  const defaultDir = join(options.userData, DATA_SUBDIR);
  const remembered = await readPointer(pointerFile);
  const binding = options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding };
  return createLibraryHost({
    open: (dataDir) =>
      options.createEngine({ dataDir, keyring: options.createKeyring(dataDir), log: options.log, ...binding }),
    dataDir: remembered ?? defaultDir,
    remembered: remembered !== null,
    defaultDir,
    pointerFile,
    log: options.log,
    ...binding,
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
  });
}
