import type { LibraryFolder } from '../../../shared/contract.js';
import type { JobStore } from '../../db/types.js';
import { AppError } from '../../../shared/errors.js';

export interface LibraryFoldersDeps {
  store: JobStore;
  /** The live watcher's state for a folder ('off' when it is not watched). */
  watchState(folderId: string): LibraryFolder['watchState'];
  /** Stops watching a folder before it leaves the library. */
  unwatch(folderId: string): Promise<void>;
  /** Starts (with a catch-up in the background) or stops the live watcher of a folder. */
  setWatch(folderId: string, on: boolean): Promise<unknown>;
}

/** The folders (and single files) the person imported: listed with their counts, removed without touching a file. */
export function createLibraryFolders(deps: LibraryFoldersDeps) {
  const list = (): LibraryFolder[] =>
    deps.store.imports.folders().map((folder) => ({ ...folder, watchState: deps.watchState(folder.id) }));
  return {
    list,
    /** Watch on or off, later: recorded first (a restart keeps it), then the watcher follows. */
    async setWatch(id: string, watch: boolean): Promise<LibraryFolder> {
      deps.store.imports.setFolderWatch(id, watch);
      await deps.setWatch(id, watch);
      const folder = list().find((f) => f.id === id);
      if (folder === undefined)
        throw new AppError('not_found', `There is no library folder ${id}.`, { details: { id } });
      return folder;
    },
    async remove(id: string): Promise<{ trashed: string[] }> {
      await deps.unwatch(id);
      return deps.store.imports.removeFolder(id);
    },
  };
}

export type LibraryFolders = ReturnType<typeof createLibraryFolders>;
