import { queueWaitLabel } from '../common/format';
import { useApp } from '../store/context';

/** "2 rendering · 3 queued" as one string, so the chip re-renders only when a count changes. */
function useLiveSummary(): { text: string; first: string | null } {
  const text = useApp((s) => {
    let rendering = 0;
    let queued = 0;
    for (const id of s.jobs.liveIds) {
      const status = s.jobs.byId[id]?.status;
      if (status === 'queued') queued += 1;
      else if (status !== undefined) rendering += 1;
    }
    // A queue held up by the disk says so first, where the counts would otherwise just sit still.
    const waiting = s.queueWaiting === null ? null : queueWaitLabel(s.queueWaiting);
    return [waiting, rendering > 0 ? `${rendering} rendering` : null, queued > 0 ? `${queued} queued` : null]
      .filter(Boolean)
      .join(' · ');
  });
  // The running job first (the oldest live one is running or next), else the first queued.
  const first = useApp(
    (s) => s.jobs.liveIds.find((id) => s.jobs.byId[id]?.status === 'running') ?? s.jobs.liveIds[0] ?? null,
  );
  return { text, first };
}

/**
 * How much is rendering, at a glance, in the top bar: a fixed size whether or not anything runs (hidden by
 * visibility, never removed), so nothing shifts when jobs start and end. A click brings the first live job into view.
 */
export function LiveChip() {
  const { text, first } = useLiveSummary();
  const revealJob = useApp((s) => s.revealJob);
  const waiting = useApp((s) => s.queueWaiting?.message ?? null);
  const idle = first === null;
  return (
    <button
      type="button"
      className={idle ? 'live-chip idle' : waiting === null ? 'live-chip' : 'live-chip waiting'}
      disabled={idle}
      title={waiting ?? 'Show the job rendering now'}
      onClick={() => {
        if (first !== null) void revealJob(first);
      }}
    >
      <span className="live-chip-dot" aria-hidden="true" />
      <span className="live-chip-text">{idle ? 'Nothing rendering' : text}</span>
    </button>
  );
}
