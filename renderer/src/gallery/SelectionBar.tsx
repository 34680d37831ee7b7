import { visibleImages } from '../curation/curation';
import { selectedIds } from './selection';
import { useApp, useAppShallow, useAppStore } from '../store/context';
import type { AppState, CurationTarget } from '../store/types';
import { BulkActions } from '../curation/BulkActions';

/** Every image the selected cards show: a bulk action on jobs is one on all their images. */
function selectionTarget(state: AppState, ids: readonly string[]): CurationTarget {
  const imageIds: string[] = [];
  const jobIds: string[] = [];
  for (const id of ids) {
    const job = state.jobs.byId[id];
    if (job === undefined) continue;
    jobIds.push(id);
    for (const image of visibleImages(job, 'active')) imageIds.push(image.id);
  }
  return { images: { imageIds, jobIds } };
}

export function SelectionBar() {
  const store = useAppStore();
  const ids = useAppShallow((s) => selectedIds(s.selection, s.jobs.order));
  const inTrash = useApp((s) => s.filters.view === 'trash');
  const state = useAppShallow((s) => ({
    favoriteJobs: s.favoriteJobs,
    trashJobs: s.trashJobs,
    restoreJobs: s.restoreJobs,
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
        <button type="button" className="btn small" onClick={() => void state.restoreJobs(ids)}>
          Restore
        </button>
      ) : (
        <>
          <BulkActions
            target={() => selectionTarget(store.getState(), ids)}
            count={ids.length}
            what={ids.length === 1 ? 'selected job' : 'selected jobs'}
            withTrash={false}
            compare
          />
          <button type="button" className="btn small" onClick={() => void state.favoriteJobs(ids, false)}>
            Unfavorite
          </button>
          <button type="button" className="btn small danger" onClick={() => void state.trashJobs(ids)}>
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
