import { selectedIds } from '../lib/selection';
import { useApp, useAppShallow } from '../store/context';

export function SelectionBar() {
  const ids = useAppShallow((s) => selectedIds(s.selection, s.jobs.order));
  const inTrash = useApp((s) => s.filters.view === 'trash');
  const state = useAppShallow((s) => ({
    setFavorite: s.setFavorite,
    trash: s.trash,
    restore: s.restore,
    clear: s.clearSelection,
    selectAll: s.selectAllShown,
  }));
  if (ids.length < 2) return null;
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected jobs">
      <span>
        <strong>{ids.length}</strong> selected
      </span>
      {inTrash ? (
        <button type="button" className="btn small" onClick={() => void state.restore(ids)}>
          Restore
        </button>
      ) : (
        <>
          <button type="button" className="btn small" onClick={() => void state.setFavorite(ids, true)}>
            Favorite
          </button>
          <button type="button" className="btn small" onClick={() => void state.setFavorite(ids, false)}>
            Unfavorite
          </button>
          <button type="button" className="btn small danger" onClick={() => void state.trash(ids)}>
            Move to Trash
          </button>
        </>
      )}
      <button type="button" className="btn small ghost" onClick={state.selectAll}>
        Select all loaded
      </button>
      <button type="button" className="btn small ghost" onClick={state.clear}>
        Clear selection
      </button>
    </div>
  );
}
