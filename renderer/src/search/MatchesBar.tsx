import { formatNumber } from '../common/format';
import { useApp } from '../store/context';
import { countsKeyOf } from '../store/filters';
import { BulkActions } from '../curation/BulkActions';

/** Above the grid while a search or filter narrows it: act on every image that matches, loaded or not. */
export function MatchesBar() {
  // Only counts made for this very query: "all 3" of the last search must not act on this one.
  const images = useApp((s) =>
    s.countsKey === countsKeyOf(s.filters) && s.searchError === null ? (s.counts?.images ?? null) : null,
  );
  const more = useApp((s) => s.counts?.capped.includes('images') === true);
  const narrowed = useApp(
    (s) =>
      s.filters.view === 'favorites' ||
      s.filters.search.trim() !== '' ||
      s.filters.status.length > 0 ||
      s.filters.provider !== null ||
      s.filters.source !== null,
  );
  const inTrash = useApp((s) => s.filters.view === 'trash');
  // The selection bar stands in its place from one selected card on.
  const anySelected = useApp((s) => Object.keys(s.selection.selected).length > 0);
  if (!narrowed || inTrash || anySelected || images === null || images === 0) return null;
  return (
    <div className="selection-bar matches-bar" role="toolbar" aria-label="All matches">
      <span>
        All{' '}
        <strong>
          {formatNumber(images)}
          {more ? '+' : ''}
        </strong>{' '}
        matching image{images === 1 ? '' : 's'}:
      </span>
      <BulkActions
        target={() => ({ query: true })}
        count={images}
        more={more}
        what={images === 1 ? 'matching image' : 'matching images'}
      />
    </div>
  );
}
