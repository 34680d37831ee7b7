import { formatNumber } from '../common/format';
import { selectedIds, selectedImages } from './selection';
import { selectionTraits } from './selection-traits';
import { useApp, useAppShallow, useAppStore } from '../store/context';
import type { AppState, CurationTarget } from '../store/types';
import { BulkActions } from '../curation/BulkActions';
import './selection.css';

/** The images the selection stands for: a card selected whole is all the images it shows, a picture picked alone only it. */
function selectionTarget(state: AppState): Extract<CurationTarget, { images: unknown }> {
  const view = state.filters.view === 'trash' ? 'trash' : 'active';
  return { images: selectedImages(state.selection, state.jobs.order, state.jobs.byId, view) };
}

/** What is selected, counted in images, and what can be done to exactly those: shown from one selected card on. */
export function SelectionBar() {
  const store = useAppStore();
  const ids = useAppShallow((s) => selectedIds(s.selection, s.jobs.order));
  const count = useApp((s) =>
    Object.keys(s.selection.selected).length === 0 ? 0 : selectionTarget(s).images.imageIds.length,
  );
  const inTrash = useApp((s) => s.filters.view === 'trash');
  const traits = useAppShallow((s) =>
    selectionTraits(s.selection, s.jobs.order, s.jobs.byId, s.filters.view === 'trash' ? 'trash' : 'active'),
  );
  const state = useAppShallow((s) => ({
    trashImages: s.trashImages,
    restoreFromTrash: s.restoreFromTrash,
    clear: s.clearSelection,
    selectAll: s.selectAllShown,
  }));
  if (ids.length === 0 || count === 0) return null;
  const target = () => selectionTarget(store.getState());
  const what = count === 1 ? 'selected image' : 'selected images';
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected images">
      <span data-testid="selection-count">
        <strong>{formatNumber(count)}</strong> {count === 1 ? 'image' : 'images'} selected
      </span>
      {inTrash ? (
        <button
          type="button"
          className="btn small"
          onClick={() => {
            const s = store.getState();
            // Cards picked whole go back whole; pictures picked alone go back alone (trash-rules.ts purgeTargetOf).
            const alone = ids.flatMap((id) => s.selection.images[id] ?? []);
            void state.restoreFromTrash(ids, alone);
          }}
        >
          Restore
        </button>
      ) : (
        <>
          <BulkActions
            target={target}
            count={count}
            what={what}
            withTrash={false}
            compare
            favorite={traits.anyNotFavorite}
            reread={traits.anyImported}
            menu={
              <button type="button" className="btn small" onClick={state.selectAll}>
                Select all loaded
              </button>
            }
          />
          <button
            type="button"
            className="btn small danger"
            aria-label="Move to Trash"
            onClick={() => void state.trashImages(target())}
          >
            Trash
          </button>
        </>
      )}
      {inTrash ? (
        <button type="button" className="btn small ghost" onClick={state.selectAll}>
          Select all loaded
        </button>
      ) : null}
      <button
        type="button"
        className="btn small ghost selection-clear"
        aria-label="Clear selection"
        title="Clear selection (Esc)"
        onClick={state.clear}
      >
        ✕
      </button>
    </div>
  );
}
