import type { LibraryFolder } from '../../../shared/contract.js';
import type { JobStore } from '../../db/types.js';

export interface LibraryFoldersDeps {
  store: JobStore;
  /** The live watcher's state for a folder ('off' when it is not watched). */
  watchState(folderId: string): LibraryFolder['watchState'];
  /** Stops watching a folder before it leaves the library. */
  unwatch(folderId: string): Promise<void>;
}

/** The folders (and single files) the person imported: listed with their counts, removed without touching a file. */
export function createLibraryFolders(deps: LibraryFoldersDeps) {
  return {
    list(): LibraryFolder[] {
      return deps.store.imports
        .folders()
        .map(({ isFile: _isFile, ...folder }) => ({ ...folder, watchState: deps.watchState(folder.id) }));
    },
    async remove(id: string): Promise<{ trashed: string[] }> {
      await deps.unwatch(id);
      return deps.store.imports.removeFolder(id);
    },
  };
}

export type LibraryFolders = ReturnType<typeof createLibraryFolders>;
