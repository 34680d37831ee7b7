import { useState } from 'react';
import type { JobProgressEvent } from '../../../shared/contract';
import { ETA_START, estimate, observe, progressOf, type EtaState } from './eta';

interface Seen {
  tick: JobProgressEvent | undefined;
  state: EtaState;
  at: number;
}

function take(prior: EtaState, tick: JobProgressEvent | undefined): Seen {
  const at = performance.now();
  return { tick, state: observe(prior, progressOf(tick), at), at };
}

/**
 * Milliseconds left on a job, from the ticks this card has seen (it re-renders per tick, so each is read once).
 * The reading is taken while rendering, React's "state from the previous render" pattern: no extra commit per tick.
 */
export function useEta(tick: JobProgressEvent | undefined): number | null {
  const [seen, setSeen] = useState<Seen>(() => take(ETA_START, tick));
  if (seen.tick !== tick) {
    const next = take(seen.state, tick);
    setSeen(next);
    return estimate(next.state, next.at);
  }
  return estimate(seen.state, seen.at);
}
