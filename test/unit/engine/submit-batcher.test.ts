import { describe, expect, it } from 'vitest';
import type { GenerateRequest, JobDetail } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { SubmitOutcome } from '../../../electron/db/types.js';
import { createSubmitBatcher } from '../../../electron/engine/submit-batcher.js';

const request = (prompt: string): GenerateRequest => ({ provider: 'builtin', prompt, width: 64, height: 64, count: 1 });

/** A store that records each batch it is handed and answers each request with a job named after its prompt. */
function recordingStore(fail?: (batch: number) => unknown) {
  const batches: string[][] = [];
  return {
    batches,
    submitMany(requests: GenerateRequest[]): SubmitOutcome[] {
      batches.push(requests.map((r) => r.prompt));
      const error = fail?.(batches.length);
      if (error !== undefined) throw error;
      return requests.map((r) => ({ ok: true, value: { job: { id: r.prompt } as JobDetail, created: true } }));
    },
  };
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('submit batcher', () => {
  it('stores submits made in one turn together, at most maxBatch per commit, each answered with its own job', async () => {
    const store = recordingStore();
    const batcher = createSubmitBatcher(store, 50, 0);
    const prompts = Array.from({ length: 120 }, (_, i) => `p${i}`);
    const answers = await Promise.all(prompts.map((p) => batcher.submit(request(p))));
    expect(answers.map((a) => a.job.id)).toEqual(prompts);
    expect(store.batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(store.batches.flat()).toEqual(prompts);
  });

  it('in a burst (4 submits within a window) holds the next commit for the window so the ones arriving meanwhile share it', async () => {
    const store = recordingStore();
    const batcher = createSubmitBatcher(store, 50, 200);
    await batcher.submit(request('alone'));
    const later: Array<Promise<unknown>> = [];
    for (let i = 0; i < 5; i += 1) {
      later.push(batcher.submit(request(`turn ${i}`)));
      await nextTurn();
    }
    await Promise.all(later);
    expect(store.batches).toEqual([['alone'], ['turn 0'], ['turn 1'], ['turn 2', 'turn 3', 'turn 4']]);
  });

  it('stores each submit of a client that waits for its answers on the next turn, never holding it for the window', async () => {
    const store = recordingStore();
    const batcher = createSubmitBatcher(store, 50, 30);
    for (let i = 0; i < 6; i += 1) {
      // A client that waits for each answer and 12 ms more: well inside one window, yet 4 of them span more than one.
      await new Promise((r) => setTimeout(r, 12));
      const first = await Promise.race([
        batcher.submit(request(`spaced ${i}`)),
        nextTurn()
          .then(nextTurn)
          .then(() => 'held back'),
      ]);
      expect(first).toEqual({ job: { id: `spaced ${i}` }, created: true });
    }
    expect(store.batches.map((b) => b.length)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('rejects every submit of a batch whose transaction failed, and stores the next batch', async () => {
    const full = new AppError('storage', 'The disk is full.');
    const store = recordingStore((n) => (n === 1 ? full : undefined));
    const batcher = createSubmitBatcher(store, 2, 0);
    const settled = await Promise.allSettled(['a', 'b', 'c'].map((p) => batcher.submit(request(p))));
    expect(settled.map((s) => (s.status === 'rejected' ? s.reason : s.value.job.id))).toEqual([full, full, 'c']);
  });
});
