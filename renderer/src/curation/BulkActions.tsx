import { useState } from 'react';
import { COMPARE_MAX, COMPARE_MIN } from '../viewer/compare';
import { visibleImages } from './curation';
import { formatNumber } from '../common/format';
import { useApp, useAppStore } from '../store/context';
import { toMatchQuery } from '../store/filters';
import type { CurationTarget } from '../store/types';
import { boardSearch } from './BoardsList';
import { BoardPicker } from './BoardPicker';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ExportDialog, type ExportTarget } from '../library/export/ExportDialog';

/** Rate, favourite, tag, board or trash many images at once: one engine transaction, one Undo. */
export function BulkActions({
  target,
  count,
  what,
  withTrash = true,
  more = false,
  compare = false,
}: {
  target: () => CurationTarget;
  count: number;
  what: string;
  withTrash?: boolean;
  more?: boolean;
  compare?: boolean;
}) {
  const store = useAppStore();
  // Showing one board (its own images, not a smart board's query): its images can leave it from here.
  const shownBoard = useApp(
    (s) => s.boards?.find((b) => b.query === undefined && boardSearch(b) === s.filters.search.trim()) ?? null,
  );
  const [tag, setTag] = useState('');
  const [confirmTrash, setConfirmTrash] = useState(false);
  const [exporting, setExporting] = useState<ExportTarget | null>(null);
  const s = store.getState;
  // A count the engine stopped at its cap says so: "25,000+" is never passed off as the exact number.
  const label = `${formatNumber(count)}${more ? '+' : ''} ${what}`;
  return (
    <>
      <select
        aria-label={`Rate ${label}`}
        value=""
        onChange={(e) => {
          if (e.target.value !== '') void s().rate(target(), Number(e.target.value));
        }}
      >
        <option value="">Rate…</option>
        {[5, 4, 3, 2, 1].map((n) => (
          <option key={n} value={n}>
            {'★'.repeat(n)}
          </option>
        ))}
        <option value="0">Clear rating</option>
      </select>
      <button
        type="button"
        className="btn small"
        aria-label={`Favorite ${label}`}
        onClick={() => void s().favoriteImages(target(), true)}
      >
        ♥ Favorite
      </button>
      <form
        className="bulk-tag"
        onSubmit={(e) => {
          e.preventDefault();
          const name = tag.trim();
          if (name === '') return;
          setTag('');
          void s().tagImages(target(), { add: [name] });
        }}
      >
        <input
          type="text"
          aria-label={`Tag ${label}`}
          placeholder="Tag…"
          value={tag}
          maxLength={64}
          onChange={(e) => setTag(e.target.value)}
        />
      </form>
      <BoardPicker label={`Add ${label} to a board`} target={target} />
      {shownBoard === null ? null : (
        <button
          type="button"
          className="btn small"
          aria-label={`Remove ${label} from ${shownBoard.name}`}
          onClick={() => void s().removeFromBoard(shownBoard.id, target())}
        >
          Remove from board
        </button>
      )}
      <button
        type="button"
        className="btn small"
        aria-label={`Export ${label}`}
        onClick={() => {
          const t = target();
          setExporting('query' in t ? { query: toMatchQuery(s().filters) } : { ids: t.images.imageIds });
        }}
      >
        Export…
      </button>
      <button
        type="button"
        className="btn small"
        aria-label={`Re-read settings of ${label}`}
        title="Read the settings again from the files, with this version's readers (ratings, tags and corrections stay)"
        onClick={() => void s().rereadImages(target())}
      >
        Re-read settings
      </button>
      {compare && count >= COMPARE_MIN && count <= COMPARE_MAX ? (
        <button
          type="button"
          className="btn small"
          aria-label={`Compare ${label}`}
          onClick={() => {
            const t = target();
            if (!('images' in t)) return;
            // The selected images themselves, side by side: what the count says is what is compared.
            const picked = new Set(t.images.imageIds);
            const items = t.images.jobIds.flatMap((jobId) => {
              const job = s().jobs.byId[jobId];
              const shown = job === undefined ? [] : visibleImages(job, 'active').filter((i) => picked.has(i.id));
              return shown.map((image) => ({ jobId, imageId: image.id }));
            });
            if (items.length >= COMPARE_MIN) s().openCompare(items);
          }}
        >
          Compare
        </button>
      ) : null}
      {exporting === null ? null : <ExportDialog target={exporting} label={label} onClose={() => setExporting(null)} />}
      {withTrash ? (
        <button
          type="button"
          className="btn small danger"
          aria-label={`Move ${label} to Trash`}
          onClick={() => setConfirmTrash(true)}
        >
          Trash
        </button>
      ) : null}
      {confirmTrash ? (
        <ConfirmDialog
          title={`Move ${label} to the Trash?`}
          confirmLabel="Move to Trash"
          danger
          onCancel={() => setConfirmTrash(false)}
          onConfirm={() => {
            setConfirmTrash(false);
            void s().trashImages(target());
          }}
        >
          <p>They stay in the Trash until you empty it; Undo brings them all back.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
