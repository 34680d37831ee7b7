import { useApp } from '../store/context';

/** Cancel on a queued or running card, over its top-right corner (a sibling of the card's button, not inside it). */
export function LiveCancel({ id }: { id: string }) {
  const prompt = useApp((s) => s.jobs.byId[id]?.prompt);
  const cancel = useApp((s) => s.cancel);
  if (prompt === undefined) return null;
  return (
    <button
      type="button"
      className="live-cancel"
      onClick={() => void cancel(id)}
      aria-label={`Cancel: ${prompt}`}
      title="Cancel this job"
    >
      Cancel
    </button>
  );
}
