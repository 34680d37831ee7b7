import { useApp } from '../store/context';
import { queueSummary } from './queue-text';

/** The top bar's door to the queue: its counts at rest ("Paused · 12 queued"), the panel on a click or Q. */
export function QueueButton() {
  const summary = useApp((s) => queueSummary(s.queue));
  const paused = useApp((s) => s.queue?.control.paused === true);
  const open = useApp((s) => s.queueOpen);
  const setOpen = useApp((s) => s.setQueueOpen);
  return (
    <button
      type="button"
      id="queue-button"
      className={`btn ghost queue-button${paused ? ' paused' : ''}${open ? ' active' : ''}`}
      aria-controls="queue-panel"
      aria-expanded={open}
      title="Show the queue (Q)"
      onClick={() => setOpen(!open)}
    >
      <span>Queue</span>
      {summary === 'Queue' ? null : <span className="queue-button-counts">{summary}</span>}
    </button>
  );
}
