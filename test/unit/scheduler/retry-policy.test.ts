import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, shouldRetry, sleep } from '../../../electron/scheduler/retry-policy.js';

const policy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

describe('retry policy', () => {
  it('retries only retryable errors, before acceptance, within the attempt bound', () => {
    const refused = new AppError('provider_unavailable', 'refused', {
      retryable: true,
      details: { phase: 'before_accept' },
    });
    expect(shouldRetry(refused, 1, false, policy)).toBe(true);
    expect(shouldRetry(refused, 4, false, policy)).toBe(false);
    // Accepted work may have been billed: never re-sent on its own.
    expect(shouldRetry(refused, 1, true, policy)).toBe(false);
    expect(shouldRetry(new AppError('timeout', 'slow', { retryable: false }), 1, false, policy)).toBe(false);
    expect(shouldRetry(new AppError('provider_error', 'dropped stream'), 1, false, policy)).toBe(false);
    expect(shouldRetry(new Error('boom'), 1, false, policy)).toBe(false);
    expect(
      shouldRetry(
        new AppError('provider_unavailable', 'x', { retryable: true, details: { phase: 'after_accept' } }),
        1,
        false,
        policy,
      ),
    ).toBe(false);
  });

  it('backs off exponentially with jitter and honours Retry-After', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, r) => {
        const d = retryDelayMs(new AppError('provider_unavailable', 'x'), attempt, policy, () => r);
        const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        return d >= cap / 2 - 1 && d <= cap + 1;
      }),
    );
    const limited = new AppError('provider_rate_limited', 'slow down', { details: { retryAfterMs: 7_000 } });
    expect(retryDelayMs(limited, 1, policy, () => 0)).toBe(7_000);
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThan(1);
  });

  it('sleep rejects with cancelled as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
  });
});
