import { useRef, useState, type ReactNode } from 'react';
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
import { useOutsideClose } from '../common/use-outside-close';

/** Rate, favourite, tag, board or trash many images at once: one engine transaction, one Undo. */
export function BulkActions({
  target,
  count,
  what,
  withTrash = true,
  more = false,
  compare = false,
  favorite = true,
  reread = true,
  menu,
}: {
  target: () => CurationTarget;
  count: number;
  what: string;
  withTrash?: boolean;
  more?: boolean;
  compare?: boolean;
  /** The one favourite toggle's direction: favourite them all, or (all already are) take them out. */
  favorite?: boolean;
  /** Offer Re-read settings (only imported files have settings of their own to read again). */
  reread?: boolean;
  /** Given: the less used actions and these go in a More menu, so the bar keeps to one row. */
  menu?: ReactNode;
}) {
  const store = useAppStore();
  // Showing one board (its own images, not a smart board's query): its images can leave it from here.
  const shownBoard = useApp(
    (s) => s.boards?.find((b) => b.query === undefined && boardSearch(b) === s.filters.search.trim()) ?? null,
  );
  const [tag, setTag] = useState('');
  const [confirmTrash, setConfirmTrash] = useState(false);
  const [exporting, setExporting] = useState<ExportTarget | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const closeMenu = () => setMenuOpen(false);
  useOutsideClose(menuOpen, menuRef, closeMenu);
  const s = store.getState;
  // A count the engine stopped at its cap says so: "25,000+" is never passed off as the exact number.
  const label = `${formatNumber(count)}${more ? '+' : ''} ${what}`;
  const secondary = (
    <>
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
      {reread ? (
        <button
          type="button"
          className="btn small"
          aria-label={`Re-read settings of ${label}`}
          title="Read the settings again from the files, with this version's readers (ratings, tags and corrections stay)"
          onClick={() => void s().rereadImages(target())}
        >
          Re-read settings
        </button>
      ) : null}
    </>
  );
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
      {favorite ? (
        <button
          type="button"
          className="btn small"
          aria-label={`Favorite ${label}`}
          onClick={() => void s().favoriteImages(target(), true)}
        >
          ♥<span className="bulk-word"> Favorite</span>
        </button>
      ) : (
        <button
          type="button"
          className="btn small"
          aria-label={`Unfavorite ${label}`}
          onClick={() => void s().favoriteImages(target(), false)}
        >
          ♡<span className="bulk-word"> Unfavorite</span>
        </button>
      )}
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
      {menu === undefined ? secondary : null}
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
      {menu === undefined ? null : (
        <div
          className="bulk-more"
          ref={menuRef}
          onKeyDown={(e) => {
            // Escape puts the menu away and keeps the selection (the bar's Escape would clear it).
            if (e.key === 'Escape' && menuOpen) {
              e.stopPropagation();
              closeMenu();
            }
          }}
        >
          <button
            type="button"
            className="btn small"
            aria-haspopup="true"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            More ▾
          </button>
          {menuOpen ? (
            // A click on any action inside runs it and puts the menu away.
            <div className="bulk-more-menu" role="group" aria-label="More actions" onClick={closeMenu}>
              {secondary}
              {menu}
            </div>
          ) : null}
        </div>
      )}
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
