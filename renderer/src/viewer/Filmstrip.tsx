import { jobTitle, thumbSrc } from '../common/thumbs';
import type { ViewKind } from '../curation/curation';
import { useApi, useApp, useJobIndex } from '../store/context';
import { marksOf, stripAround } from './filmstrip';
import './feedback.css';

/** Images either side of the one on screen. */
const REACH = 8;

/**
 * A thin strip under the picture: the neighbouring images (this card's, then the grid's next and previous) with
 * their marks, stars, heart and reject; a click moves there.
 */
export function Filmstrip({
  jobId,
  index,
  place,
  view,
  keep,
  onPick,
}: {
  jobId: string;
  index: number;
  /** Where the job sat in the grid when opened: a job rejected whole has left it, its neighbours have not. */
  place: number;
  view: ViewKind;
  keep: ReadonlySet<string>;
  onPick: (jobId: string, index: number) => void;
}) {
  const api = useApi();
  const order = useApp((s) => s.jobs.order);
  const { byId } = useJobIndex();
  const cells = stripAround(order, byId, view, { jobId, index, place }, REACH, keep);
  if (cells.length < 2) return null;
  return (
    <div className="filmstrip marks-strip" role="group" aria-label="Nearby images">
      {cells.map((cell) => {
        const marks = marksOf(cell.image);
        const other = byId[cell.jobId];
        // This card's images by number (as the toolbar counts them), a neighbour's by its title too.
        const name =
          cell.jobId === jobId || other === undefined
            ? `Image ${cell.index + 1}`
            : `${jobTitle(other)}, image ${cell.index + 1}`;
        const src = thumbSrc(api, cell.image);
        return (
          <button
            key={cell.image.id}
            type="button"
            className={`${cell.current ? 'active' : ''}${marks.rejected ? ' rejected' : ''}`}
            aria-label={`${name}${marks.words === '' ? '' : `: ${marks.words}`}`}
            aria-current={cell.current}
            data-image={cell.image.id}
            onClick={() => onPick(cell.jobId, cell.index)}
          >
            {src === null ? <span className="thumb pending" aria-hidden="true" /> : <img src={src} alt="" />}
            {marks.stars > 0 || marks.favorite || marks.rejected ? (
              <span className="strip-marks" aria-hidden="true">
                {marks.rejected ? <span className="strip-reject">✕</span> : null}
                {marks.favorite ? <span className="strip-fav">♥</span> : null}
                {marks.stars > 0 ? <span className="strip-stars">{'★'.repeat(marks.stars)}</span> : null}
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
