import { describe, expect, it } from 'vitest';
import { JobDetail, JobSummary } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { UUID_V7_PATTERN } from '../../../shared/ids.js';
import { finished, image, manualClock, open, req, tempDir } from './helpers.js';

function codeOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected an AppError');
}

describe('submit', () => {
  it('stores a queued job with a UUIDv7 id and times from the injected clock, in the contract shape', () => {
    const store = open({ now: () => 1_700_000_000_123 });
    const { job, created } = store.submit(
      req('a red fox', { negativePrompt: 'blur', model: 'm', idempotencyKey: 'secret-key' }),
    );
    expect(created).toBe(true);
    expect(job.id).toMatch(UUID_V7_PATTERN);
    expect(job).toMatchObject({
      status: 'queued',
      createdAt: 1_700_000_000_123,
      updatedAt: 1_700_000_000_123,
      cancelRequested: false,
      favorite: false,
      trashedAt: null,
    });
    expect(JobDetail.parse(job)).toEqual(job);
    expect(JobSummary.parse(store.getSummary(job.id))).toEqual(store.getSummary(job.id));
    // The raw idempotency key is never stored or returned.
    expect(JSON.stringify(job)).not.toContain('secret-key');
    expect(job.events.map((e) => e.kind)).toEqual(['submitted']);
  });

  it('replays the same key + same request (ignoring timeout and key order) and refuses a different request', () => {
    const dir = tempDir();
    const store = open({ dataDir: dir });
    const first = store.submit(req('fox', { idempotencyKey: 'k1', seed: 5 }));
    const again = store.submit({
      seed: 5,
      idempotencyKey: 'k1',
      timeoutMs: 9_000,
      count: 1,
      height: 512,
      width: 512,
      prompt: 'fox',
      provider: 'builtin',
    });
    expect(again.created).toBe(false);
    expect(again.job.id).toBe(first.job.id);
    const conflict = codeOf(() => store.submit(req('fox', { idempotencyKey: 'k1', seed: 6 })));
    expect(conflict.code).toBe('conflict');
    expect(conflict.details).toMatchObject({ jobId: first.job.id });
    expect(store.stats().total).toBe(1);
    // Without a key every submit is new; the replay survives a reopen.
    expect(store.submit(req('fox', { seed: 5 })).created).toBe(true);
    store.close();
    const reopened = open({ dataDir: dir });
    expect(reopened.submit(req('fox', { idempotencyKey: 'k1', seed: 5 })).job.id).toBe(first.job.id);
  });

  it('rejects an invalid request as invalid_request and stores nothing', () => {
    const store = open();
    const error = codeOf(() => store.submit({ ...req(), width: 5 }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/Width must be at least 64/);
    expect(store.stats().total).toBe(0);
  });

  it('is overloaded (retryable) at the pending capacity and persists nothing', () => {
    const store = open({ limits: { maxPendingJobs: 2 } });
    const a = store.submit(req('a')).job.id;
    store.submit(req('b'));
    const error = codeOf(() => store.submit(req('c', { idempotencyKey: 'c' })));
    expect(error).toMatchObject({ code: 'overloaded', retryable: true });
    expect(store.stats().total).toBe(2);
    // A running job still counts; a finished one frees its slot.
    store.claim(a);
    expect(codeOf(() => store.submit(req('c'))).code).toBe('overloaded');
    store.succeed(a, [], { timings: {} });
    expect(store.submit(req('c', { idempotencyKey: 'c' })).created).toBe(true);
  });

  it('is overloaded when the logical byte budget would be exceeded, and persists nothing', () => {
    const store = open({ limits: { maxLogicalBytes: 200_000, maxResultBytes: 64 * 1024 } });
    store.submit(req('x'));
    store.submit(req('y'));
    const error = codeOf(() => store.submit(req('z'.repeat(10_000))));
    expect(error).toMatchObject({ code: 'overloaded', retryable: true, details: { reason: 'byte_budget' } });
    expect(store.stats().total).toBe(2);
  });
});

describe('submitMany', () => {
  it('stores a burst in order, answering each as submit() would: created, invalid, replayed, conflicting, overloaded', () => {
    const store = open({ limits: { maxPendingJobs: 3 } });
    const outcomes = store.submitMany([
      req('a', { idempotencyKey: 'k' }),
      req('bad', { width: 0 }),
      req('a', { idempotencyKey: 'k' }),
      req('other', { idempotencyKey: 'k' }),
      req('b'),
      req('c'),
      req('d'),
    ]);
    const code = (i: number) => {
      const o = outcomes[i]!;
      return o.ok ? 'ok' : o.error instanceof AppError ? o.error.code : String(o.error);
    };
    expect(outcomes.map((_, i) => code(i))).toEqual([
      'ok',
      'invalid_request',
      'ok',
      'conflict',
      'ok',
      'ok',
      'overloaded',
    ]);
    const value = (i: number) => {
      const o = outcomes[i]!;
      if (!o.ok) throw new Error(`outcome ${i} was refused`);
      return o.value;
    };
    expect(value(0).created).toBe(true);
    expect(value(2)).toMatchObject({ created: false, job: { id: value(0).job.id } });
    const made = [value(0), value(4), value(5)];
    expect(made.map((r) => r.job.prompt)).toEqual(['a', 'b', 'c']);
    expect(made.map((r) => r.job.id)).toEqual(made.map((r) => r.job.id).sort());
    for (const r of made) {
      expect(JobDetail.parse(r.job)).toEqual(r.job);
      expect(r.job.events.map((e) => e.kind)).toEqual(['submitted']);
      expect(store.get(r.job.id)).toEqual(r.job);
    }
    expect(store.list({ limit: 10, view: 'all' }).items.map((j) => j.prompt)).toEqual(['c', 'b', 'a']);
    expect(store.stats().byStatus.queued).toBe(3);
  });

  it('answers a batch with nothing valid, storing nothing', () => {
    const store = open();
    const outcomes = store.submitMany([req('bad', { width: 0 })]);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.ok).toBe(false);
    expect(store.stats().total).toBe(0);
  });
});

describe('lifecycle', () => {
  it('claims with a compare-and-set that succeeds once', () => {
    const store = open();
    const { job } = store.submit(req());
    expect(store.claim(job.id)).toBe(true);
    expect(store.claim(job.id)).toBe(false);
    expect(store.get(job.id)).toMatchObject({ status: 'running', progress: { stage: 'starting', partialImages: 0 } });
    expect(store.claim('018bcfe5-6800-7000-8000-0000000000ff')).toBe(false);
  });

  it('stamps every change of a job later than the one before, even within one millisecond of the clock', () => {
    // A client keeps whichever version of a job has the later updatedAt: a start in the submit's millisecond was lost.
    const store = open({ now: () => 1_700_000_000_000 });
    const { job } = store.submit(req());
    const stamps = [job.updatedAt];
    expect(store.claim(job.id)).toBe(true);
    stamps.push(store.getSummary(job.id).updatedAt);
    store.setProgress(job.id, { stage: 'sampling', fraction: 0.5, partialImages: 1 });
    stamps.push(store.getSummary(job.id).updatedAt);
    expect(store.requeue(job.id, 'Its server went away.')).toBe(true);
    stamps.push(store.getSummary(job.id).updatedAt);
    expect(store.claim(job.id)).toBe(true);
    stamps.push(store.getSummary(job.id).updatedAt);
    stamps.push(store.fail(job.id, { code: 'provider_error', message: 'No.', retryable: false }).updatedAt);
    for (let i = 1; i < stamps.length; i += 1) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
  });

  it('never claims a job whose cancel was requested', () => {
    const store = open();
    const { job } = store.submit(req());
    expect(store.requestCancel(job.id)).toMatchObject({
      status: 'cancelled',
      cancelRequested: true,
      error: { code: 'cancelled' },
    });
    expect(store.claim(job.id)).toBe(false);
    expect(store.queued(10)).toEqual([]);
  });

  it('writes progress only when the stage or partial count changes', () => {
    const store = open();
    const { job } = store.submit(req());
    expect(store.setProgress(job.id, { stage: 'generating', partialImages: 0 })).toBe(false); // not running yet
    store.claim(job.id);
    expect(store.setProgress(job.id, { stage: 'generating', fraction: 0.1, partialImages: 0 })).toBe(true);
    expect(store.setProgress(job.id, { stage: 'generating', fraction: 0.5, partialImages: 0 })).toBe(false);
    expect(store.setProgress(job.id, { stage: 'generating', fraction: 0.6, partialImages: 1 })).toBe(true);
    expect(store.setProgress(job.id, { stage: 'encoding', partialImages: 1 })).toBe(true);
    expect(store.get(job.id).progress).toEqual({ stage: 'encoding', partialImages: 1 });
    expect(codeOf(() => store.setProgress(job.id, { stage: '', partialImages: 0 })).code).toBe('invalid_request');
  });

  it('succeeds with its images and result in one transaction', () => {
    const store = open();
    const { job } = store.submit(req('two images', { count: 2 }));
    store.claim(job.id);
    const images = [image(0), image(1)];
    const summary = store.succeed(job.id, images, { seed: 7, revisedPrompt: 'revised', timings: { totalMs: 12 } });
    expect(summary.status).toBe('succeeded');
    expect(summary.images.map((i) => i.id)).toEqual(images.map((i) => i.id));
    expect(store.get(job.id).result).toEqual({ seed: 7, revisedPrompt: 'revised', timings: { totalMs: 12 } });
    expect(store.image(images[1]!.id)).toMatchObject({
      jobId: job.id,
      index: 1,
      path: images[1]!.path,
      thumbPath: images[1]!.thumbPath,
    });
    // Finishing twice is a conflict, not a silent overwrite.
    expect(codeOf(() => store.succeed(job.id, [], { timings: {} })).code).toBe('conflict');
  });

  it('rolls back the status when an image row is refused', () => {
    const store = open();
    const { job } = store.submit(req());
    store.claim(job.id);
    const dup = image(0);
    expect(() => store.succeed(job.id, [dup, { ...image(0), id: dup.id }], { timings: {} })).toThrow();
    expect(store.get(job.id)).toMatchObject({ status: 'running', images: [] });
  });

  it('fails and cancels with a structured error', () => {
    const store = open();
    const a = store.submit(req('a')).job.id;
    store.claim(a);
    const failed = store.fail(a, {
      code: 'provider_rejected',
      message: 'Blocked by the safety system.',
      retryable: false,
      details: { status: 400 },
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'provider_rejected', message: 'Blocked by the safety system.' },
    });
    expect(store.get(a).errorDetail).toEqual({
      code: 'provider_rejected',
      message: 'Blocked by the safety system.',
      retryable: false,
      details: { status: 400 },
    });
    const b = store.submit(req('b')).job.id;
    store.claim(b);
    expect(store.markCancelled(b, 'Stopped by you.')).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled', message: 'Stopped by you.' },
    });
    expect(codeOf(() => store.fail(b, { code: 'internal', message: 'x', retryable: false })).code).toBe('conflict');
    expect(codeOf(() => store.get('018bcfe5-6800-7000-8000-0000000000ff')).code).toBe('not_found');
  });

  it('bounds an oversized result or error instead of storing it whole', () => {
    const store = open({ limits: { maxResultBytes: 4_096 } });
    const a = store.submit(req('a')).job.id;
    store.claim(a);
    store.succeed(a, [], {
      revisedPrompt: 'r'.repeat(50_000),
      usage: { blob: 'u'.repeat(50_000) },
      timings: { totalMs: 3 },
    });
    const result = store.get(a).result!;
    expect(JSON.stringify(result).length).toBeLessThan(5_000);
    expect(result.timings).toEqual({ totalMs: 3 });
    expect(result.usage).toMatchObject({ truncated: true });
    const b = store.submit(req('b')).job.id;
    store.claim(b);
    store.fail(b, {
      code: 'provider_error',
      message: 'm'.repeat(100_000),
      retryable: true,
      details: { body: 'd'.repeat(100_000) },
    });
    const error = store.get(b).errorDetail!;
    expect(error.code).toBe('provider_error');
    expect(error.retryable).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(2_001);
    expect(error.details).toMatchObject({ truncated: true });
    expect(JobDetail.safeParse(store.get(b)).success).toBe(true);
  });

  it('cancels a queued job at once and flags a running one for the worker', () => {
    const store = open();
    const queued = store.submit(req('q')).job.id;
    const running = store.submit(req('r')).job.id;
    store.claim(running);
    expect(store.requestCancel(queued).status).toBe('cancelled');
    const flagged = store.requestCancel(running);
    expect(flagged).toMatchObject({ status: 'running', cancelRequested: true });
    expect(flagged.events.map((e) => e.kind)).toContain('cancel_requested');
    // Terminal jobs are unchanged.
    const done = finished(store);
    expect(store.requestCancel(done)).toMatchObject({ status: 'succeeded', cancelRequested: false });
  });

  it('recovers on open: work a provider accepted with a handle goes back to the head of the queue, keeping it', () => {
    const dir = tempDir();
    const clock = manualClock();
    const first = open({ dataDir: dir, now: clock.now });
    const waiting = first.submit(req('waiting')).job.id;
    const accepted = first.submit(req('accepted')).job.id;
    const cancelling = first.submit(req('cancel asked')).job.id;
    const plain = first.submit(req('no handle')).job.id;
    for (const id of [accepted, cancelling, plain]) first.claim(id, 'bfl-2');
    expect(first.setRemote(accepted, { instance: 'bfl-2', id: 'task-1', data: { pollingUrl: 'https://x/1' } })).toBe(
      true,
    );
    first.setRemote(cancelling, { instance: 'bfl-2', id: 'task-2' });
    first.requestCancel(cancelling);
    // Only a running job takes a handle.
    expect(first.setRemote(waiting, { instance: 'bfl-2', id: 'task-3' })).toBe(false);
    first.close();
    const second = open({ dataDir: dir, now: clock.now });
    expect(second.info).toMatchObject({ recoveredInterrupted: 2, recoveredResumed: 1 });
    expect(second.get(accepted)).toMatchObject({ status: 'queued' });
    expect(second.get(accepted).events.at(-1)?.kind).toBe('resuming');
    expect(second.get(cancelling).status).toBe('interrupted');
    expect(second.get(plain).status).toBe('interrupted');
    const queue = second.queued(10);
    expect(queue.map((q) => q.id)).toEqual([accepted, waiting]);
    expect(queue[0]!.remote).toEqual({ instance: 'bfl-2', id: 'task-1', data: { pollingUrl: 'https://x/1' } });
    expect(queue[1]!.remote).toBeUndefined();
  });

  it('recovers on open: running becomes interrupted (not retryable, check history), queued stay queued oldest first', () => {
    const dir = tempDir();
    const clock = manualClock();
    const first = open({ dataDir: dir, now: clock.now });
    const older = first.submit(req('older')).job.id;
    const running = first.submit(req('running')).job.id;
    const newer = first.submit(req('newer')).job.id;
    first.claim(running);
    // Simulated crash: the process dies without close(); here the lock is released by closing.
    first.close();
    const second = open({ dataDir: dir, now: clock.now });
    expect(second.info.recoveredInterrupted).toBe(1);
    const job = second.get(running);
    expect(job.status).toBe('interrupted');
    expect(job.errorDetail).toMatchObject({ code: 'interrupted', retryable: false });
    expect(job.errorDetail!.message).toMatch(/check your history before retrying/);
    expect(job.events.at(-1)?.kind).toBe('interrupted');
    expect(second.queued(10).map((q) => q.id)).toEqual([older, newer]);
    expect(second.queued(10)[0]!.request).toEqual(req('older'));
    expect(second.recoverInterrupted()).toEqual({ interrupted: 0, resumed: 0 });
  });
});
