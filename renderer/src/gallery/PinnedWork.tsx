import { JobCard } from './JobCard';
import { jobTitle } from '../common/thumbs';
import { useApp, useAppShallow } from '../store/context';
import './new-work.css';

/** A pinned card's size: large enough to watch it run, small enough to leave the grid its room. */
const PINNED_EDGE = 132;

/**
 * Work started while the filters or the search hide it, above the grid: each card live as it runs, with "Not in this
 * view", Show (clears the filters and brings it into the grid) and Dismiss. It stays until the filters change.
 */
export function PinnedWork() {
  const pinned = useAppShallow((s) => s.jobs.pinned);
  const showPinned = useApp((s) => s.showPinned);
  const dismissPinned = useApp((s) => s.dismissPinned);
  const byId = useApp((s) => s.jobs.byId);
  if (pinned.length === 0) return null;
  return (
    <section className="pinned-work" aria-label="New work not in this view">
      <ul className="pinned-list">
        {pinned.map((id) => {
          const job = byId[id];
          if (job === undefined) return null;
          const title = jobTitle(job);
          return (
            <li key={id} className="pinned-item" data-pinned={id}>
              <JobCard id={id} width={PINNED_EDGE} height={PINNED_EDGE} />
              <div className="pinned-note">
                <span className="pinned-hint">Not in this view</span>
                <span className="pinned-actions">
                  <button
                    type="button"
                    className="btn small"
                    aria-label={`Show in the grid: ${title}`}
                    title="Clear the filters and search, and show it in the grid"
                    onClick={() => void showPinned(id)}
                  >
                    Show
                  </button>
                  <button
                    type="button"
                    className="icon"
                    aria-label={`Dismiss: ${title}`}
                    title="Stop pinning it here"
                    onClick={() => dismissPinned(id)}
                  >
                    ×
                  </button>
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
