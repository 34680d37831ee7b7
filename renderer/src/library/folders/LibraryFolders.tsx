import { useEffect, useState } from 'react';
import type { LibraryFolder } from '../../../../shared/contract';
import { formatCount, formatNumber } from '../../common/format';
import { useApp } from '../../store/context';
import { ConfirmDialog } from '../../common/ConfirmDialog';
import { WatchSwitch } from './WatchSwitch';

const WATCH_LABELS: Record<LibraryFolder['watchState'], string> = {
  watching: 'Watching',
  failed: 'Watch failed',
  off: 'Not watched',
};

/** Settings → Library → Folders: what was imported, and removing a folder from the library (never from the disk). */
export function LibraryFolders() {
  const folders = useApp((s) => s.folders);
  const load = useApp((s) => s.loadFolders);
  const remove = useApp((s) => s.removeFolder);
  const toast = useApp((s) => s.toast);
  const openImport = useApp((s) => s.openImportDialog);
  const [removing, setRemoving] = useState<LibraryFolder | null>(null);
  useEffect(() => void load(), [load]);

  return (
    <section aria-labelledby="folders-title">
      <div className="section-head">
        <h3 id="folders-title">Folders</h3>
        <button type="button" className="btn small" onClick={() => openImport()}>
          Import…
        </button>
      </div>
      {folders === null ? (
        <div className="skeleton line" aria-label="Loading folders" />
      ) : folders.length === 0 ? (
        <p className="muted small">
          No folders imported yet. Import one to see the images you made with other tools here.
        </p>
      ) : (
        <ul className="folder-list">
          {folders.map((f) => (
            <li key={f.id} className="folder-row" aria-label={`Folder ${f.path}`}>
              <div className="folder-main">
                <span className="mono" title={f.path}>
                  {f.path}
                </span>
                <span className="muted small">
                  {f.mode === 'link' ? 'Linked' : 'Copied'} ·{' '}
                  <span className={f.watchState === 'failed' ? 'warn-text' : ''}>{WATCH_LABELS[f.watchState]}</span> ·{' '}
                  {formatCount(f.images, 'image')}
                  {f.missing > 0 ? <span className="warn-text"> · {formatNumber(f.missing)} missing</span> : null}
                </span>
              </div>
              <WatchSwitch folder={f} />
              <button type="button" className="btn small" onClick={() => setRemoving(f)}>
                Remove from library
              </button>
            </li>
          ))}
        </ul>
      )}
      {removing === null ? null : (
        <ConfirmDialog
          title="Remove this folder from the library?"
          confirmLabel={`Move ${formatCount(removing.images, 'image')} to the trash`}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const folder = removing;
            setRemoving(null);
            void remove(folder.id).then((trashed) => {
              if (trashed !== null)
                toast({
                  kind: 'info',
                  message: `Folder removed: ${formatCount(trashed, 'image')} moved to the trash. Your files were not touched.`,
                });
            });
          }}
        >
          <p data-testid="remove-folder-counts">
            The {formatCount(removing.images, 'image')} from <span className="mono">{removing.path}</span> move to
            Atelier’s trash{removing.watch ? ', and the folder is no longer watched' : ''}. You can restore them from
            the trash.
          </p>
          <p className="muted">The files on your disk are not touched: nothing there is moved, changed or deleted.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
