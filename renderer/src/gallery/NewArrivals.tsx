import { useApp, useAppStore } from '../store/context';

/** "N new — show": arrivals held while the person is scrolled down; one click goes back to the top and shows them. */
export function NewArrivals({ scrollRef }: { scrollRef: React.RefObject<HTMLElement | null> }) {
  const store = useAppStore();
  const pending = useApp((s) => s.jobs.pendingTop.length);
  if (pending === 0) return null;
  return (
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
  );
}
