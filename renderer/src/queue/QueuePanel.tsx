import { useCallback, useEffect, useRef } from 'react';
import { useApp } from '../store/context';
import { CancelQueued } from './CancelQueued';
import { ProviderRow } from './ProviderRow';
import { QueuedList } from './QueuedList';
import { RunningRow } from './RunningRow';
import './queue.css';

/** The queue beside the gallery: running jobs (Skip), then queued ones in order (moved by keys or drag), per provider. */
export function QueuePanel() {
  const queue = useApp((s) => s.queue);
  const providers = useApp((s) => s.providers);
  const setOpen = useApp((s) => s.setQueueOpen);
  const pause = useApp((s) => s.pauseQueue);
  const resume = useApp((s) => s.resumeQueue);
  const panel = useRef<HTMLElement>(null);

  const nameOf = useCallback((id: string) => providers.find((p) => p.id === id)?.name ?? id, [providers]);
  const close = useCallback(() => {
    setOpen(false);
    document.getElementById('queue-button')?.focus();
  }, [setOpen]);

  // Opened by Q or the button: the keyboard goes to the panel, so its rows are one Tab away.
  useEffect(() => panel.current?.focus(), []);

  const paused = queue?.control.paused === true;
  const busyProviders = (queue?.control.providers ?? []).filter(
    (p) => p.running > 0 || p.queued > 0 || p.hold !== undefined,
  );
  const hidden = queue === null ? 0 : queue.queuedTotal - queue.queued.length;
  return (
    <aside
      id="queue-panel"
      className="queue-panel"
      aria-labelledby="queue-title"
      tabIndex={-1}
      ref={panel}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented && !(event.target as Element).closest('dialog')) {
          event.preventDefault();
          close();
        }
      }}
    >
      <header className="queue-header">
        <h2 id="queue-title">Queue</h2>
        {paused ? <span className="queue-badge">Paused</span> : null}
        <span className="queue-spacer" />
        <button
          type="button"
          className={paused ? 'btn small primary' : 'btn small'}
          onClick={() => void (paused ? resume() : pause())}
          title={paused ? 'New jobs start again' : 'Running jobs finish; nothing new starts'}
        >
          {paused ? 'Resume queue' : 'Pause queue'}
        </button>
        <button
          type="button"
          className="btn small ghost"
          aria-label="Close the queue"
          title="Close (Esc)"
          onClick={close}
        >
          ✕
        </button>
      </header>
      {queue === null ? (
        <p className="queue-empty">Loading the queue…</p>
      ) : (
        <div className="queue-body">
          {busyProviders.length === 0 ? null : (
            <section aria-labelledby="queue-providers">
              <h3 id="queue-providers">Providers</h3>
              <ul className="queue-providers">
                {busyProviders.map((p) => (
                  <ProviderRow key={p.id} state={p} name={nameOf(p.id)} />
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="queue-running">
            <h3 id="queue-running">Running · {queue.running.length}</h3>
            {queue.running.length === 0 ? (
              <p className="queue-empty">{paused ? 'Paused: nothing new starts.' : 'Nothing running.'}</p>
            ) : (
              <ul className="queue-list">
                {queue.running.map((job) => (
                  <RunningRow key={job.id} job={job} providerName={nameOf(job.provider)} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="queue-queued">
            <h3 id="queue-queued">Queued · {queue.queuedTotal}</h3>
            <p id="queue-move-help" className="queue-help">
              Drag a job, or Alt+↑/↓ to move it, Alt+Home to the top, Alt+End to the end.
            </p>
            {queue.queued.length === 0 ? (
              <p className="queue-empty">Nothing waiting.</p>
            ) : (
              <QueuedList jobs={queue.queued} nameOf={nameOf} />
            )}
            {hidden > 0 ? <p className="queue-help">And {hidden} more after these.</p> : null}
          </section>
        </div>
      )}
      {/* Only with something to cancel: no dead button at the panel's foot. */}
      {queue !== null && queue.queuedTotal > 0 ? (
        <footer className="queue-footer">
          <CancelQueued total={queue.queuedTotal} />
        </footer>
      ) : null}
    </aside>
  );
}
