import { useApp } from '../store/context';
import { queueSummary } from './queue-text';

/**
 * The top bar's door to the queue, the panel on a click or Q. Its counts ("1 running · 12 queued") are in its tooltip,
 * not its face: the live chip beside it shows them already, and a face that grew and shrank with them would move the
 * controls after it each time a job ended. Only a pause, the person's own act, shows on it.
 */
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
      title={summary === 'Queue' ? 'Show the queue (Q)' : `Queue: ${summary} (Q)`}
      onClick={() => setOpen(!open)}
    >
      <span>Queue</span>
      {paused ? <span className="queue-button-counts">Paused</span> : null}
    </button>
  );
}
