import { describe, expect, it } from 'vitest';
import type { QueueView } from '../../../../shared/contract';
import { cancelQuestion, formatCountdown, queueSummary, secondsLeft } from '../../../../renderer/src/queue/queue-text';
import { makeJob } from '../helpers';

function view(running: number, queued: number, paused = false): QueueView {
  return {
    running: Array.from({ length: running }, () => makeJob({ status: 'running' })),
    queued: [],
    queuedTotal: queued,
    control: { paused, providers: [] },
  };
}

describe('queue words', () => {
  it('the top bar says what runs and waits, and Paused first when the queue is paused', () => {
    expect(queueSummary(null)).toBe('Queue');
    expect(queueSummary(view(0, 0))).toBe('Queue');
    expect(queueSummary(view(3, 12))).toBe('3 running · 12 queued');
    expect(queueSummary(view(0, 12, true))).toBe('Paused · 12 queued');
  });

  it('a hold counts down to when it lifts, rounded up, and has no countdown without an end or past it', () => {
    const hold = { kind: 'backoff' as const, message: 'slow down', until: 20_000 };
    expect(secondsLeft(hold, 8_001)).toBe(12);
    expect(secondsLeft(hold, 20_000)).toBeNull();
    expect(secondsLeft({ kind: 'paused', message: 'Paused' }, 0)).toBeNull();
    expect(formatCountdown(12)).toBe('12 s');
    expect(formatCountdown(125)).toBe('2 min 5 s');
    expect(formatCountdown(120)).toBe('2 min');
  });

  it('the cancel question states the count', () => {
    expect(cancelQuestion(12)).toBe('Cancel 12 queued jobs?');
    expect(cancelQuestion(1)).toBe('Cancel 1 queued job?');
  });
});
