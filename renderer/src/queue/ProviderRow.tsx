import { useEffect, useState } from 'react';
import type { QueueProviderState } from '../../../shared/contract';
import { useApp } from '../store/context';
import { formatCountdown, secondsLeft } from './queue-text';

/** Re-renders each second while a hold counts down to its end; nothing ticks for a hold without one. */
function useCountdown(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return now;
}

/** One provider instance: running of its limit, queued, its per-minute limit, why it holds, and pause or resume. */
export function ProviderRow({ state, name }: { state: QueueProviderState; name: string }) {
  const pause = useApp((s) => s.pauseQueue);
  const resume = useApp((s) => s.resumeQueue);
  const now = useCountdown(state.hold?.until);
  const paused = state.hold?.kind === 'paused';
  const left = state.hold === undefined ? null : secondsLeft(state.hold, now);
  const counts = [
    `${state.running}/${state.limit} running`,
    `${state.queued} queued`,
    state.perMinute === undefined ? null : `≤ ${state.perMinute}/min`,
  ].filter(Boolean);
  return (
    <li className={state.hold === undefined ? 'queue-provider' : `queue-provider held ${state.hold.kind}`}>
      <div className="queue-row-main">
        <p className="queue-provider-name">{name}</p>
        <p className="queue-meta">{counts.join(' · ')}</p>
        {state.hold === undefined ? null : (
          <p className="queue-hold" role="status">
            {state.hold.message}
            {left === null ? null : <span className="queue-countdown"> Lifts in {formatCountdown(left)}.</span>}
          </p>
        )}
      </div>
      <button
        type="button"
        className="btn small"
        aria-pressed={paused}
        aria-label={`${paused ? 'Resume' : 'Pause'} ${name}`}
        onClick={() => void (paused ? resume(state.id) : pause(state.id))}
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
    </li>
  );
}
