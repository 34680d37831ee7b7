import { useState } from 'react';
import type { LibraryFolder } from '../../../../shared/contract';
import { useApp } from '../../store/context';
import './folders.css';

/**
 * Watch on or off for one imported folder, at any time: on, what a tool saves there later comes in by itself (and
 * what it saved while not watched is caught up on); off, the folder stays in the library but is no longer followed.
 */
export function WatchSwitch({ folder }: { folder: LibraryFolder }) {
  const setWatch = useApp((s) => s.setFolderWatch);
  const [busy, setBusy] = useState(false);
  if (folder.isFile === true) return null;
  return (
    <label className="watch-switch">
      <input
        type="checkbox"
        role="switch"
        checked={folder.watch}
        disabled={busy}
        aria-label={`Watch ${folder.path} for new images`}
        onChange={(e) => {
          setBusy(true);
          void setWatch(folder.id, e.target.checked).finally(() => setBusy(false));
        }}
      />
      <span aria-hidden="true">Watch</span>
    </label>
  );
}
