import { useApp, useAppStore } from '../store/context';
import { PinnedWork } from './PinnedWork';

/**
 * Above the grid: work started that the filters hide, pinned (PinnedWork), and "N new — show" for arrivals held while
 * the person is scrolled down (one click goes back to the top and shows them).
 */
export function NewArrivals({ scrollRef }: { scrollRef: React.RefObject<HTMLElement | null> }) {
  const store = useAppStore();
  const pending = useApp((s) => s.jobs.pendingTop.length);
  return (
    <>
      <PinnedWork />
      {pending === 0 ? null : (
        // Anchored under the pinned work, so the two never cover each other.
        <div className="arrivals-anchor">
          <button
            type="button"
            className="new-arrivals"
            onClick={() => {
              scrollRef.current?.scrollTo({ top: 0 });
              store.getState().showArrivals();
            }}
          >
            {pending} new — show
          </button>
        </div>
      )}
    </>
  );
}
