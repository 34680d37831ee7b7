import { describe, expect, it } from 'vitest';
import { createSpendGate, type SpendGateDeps } from '../../../electron/spend/spend-gate.js';
import { fakeClock, memoryCosts } from './memory-costs.js';

const flux = { model: 'flux-2-pro', count: 1, width: 1024, height: 1024 };

function gate(options: { caps?: Record<string, number>; prices?: Record<string, number>; at?: Date } = {}) {
  const costs = memoryCosts();
  const clock = fakeClock(options.at ?? new Date(2026, 11, 14, 12, 0));
  const caps = { ...options.caps };
  const deps: SpendGateDeps = {
    costs,
    clock,
    prices: () => options.prices ?? {},
    capOf: (id) => (Object.hasOwn(caps, id) ? caps[id] : undefined),
    nameOf: (id) => (id === 'bfl' ? 'FLUX' : id),
  };
  return { spend: createSpendGate(deps), costs, clock, caps };
}

/** Spend already recorded this month, as a reported cost. */
function spent(g: ReturnType<typeof gate>, providerId: string, usd: number, jobId = `old-${usd}`): void {
  g.spend.admit(jobId, providerId, 'bfl', flux);
  g.spend.record(jobId, providerId, 'bfl', 'flux-2-pro', flux, { costUsd: usd });
}

describe('the spend gate', () => {
  it('refuses a job that would pass the monthly cap, in words, and admits one that reaches it exactly', () => {
    const g = gate({ caps: { bfl: 20 } });
    spent(g, 'bfl', 19.94);
    expect(g.spend.admit('job-1', 'bfl', 'bfl', flux)).toEqual({ ok: true, estimateUsd: 0.03 });
    g.spend.record('job-1', 'bfl', 'bfl', 'flux-2-pro', flux, { costUsd: 0.03 });
    const refused = g.spend.admit('job-2', 'bfl', 'bfl', { ...flux, count: 2 });
    expect(refused).toEqual({
      ok: false,
      capUsd: 20,
      spentUsd: 19.97,
      estimateUsd: 0.06,
      message:
        'Paused: FLUX would pass its monthly cap of $20.00 ($19.97 spent, this job ~$0.06). Raise the cap in ' +
        'Settings → Spend or wait until 1 January 2027.',
    });
    expect(g.spend.pausedByCap('bfl')).toBe(refused.ok ? null : refused.message);
    expect(g.spend.admit('job-3', 'bfl', 'bfl', flux)).toMatchObject({ ok: true });
  });

  it('counts running jobs against the cap, so jobs admitted together cannot pass it together', () => {
    const g = gate({ caps: { bfl: 0.2 } });
    const answers = Array.from({ length: 10 }, (_, i) => g.spend.admit(`job-${i}`, 'bfl', 'bfl', flux));
    expect(answers.filter((a) => a.ok)).toHaveLength(6);
    expect(g.spend.runningUsd('bfl')).toBeCloseTo(0.18);
    const refused = answers.find((a) => !a.ok);
    expect(refused?.ok === false && refused.message).toContain('($0.00 spent, $0.18 running, this job ~$0.03)');
    // A job that ended unbilled frees its share; a recorded one turns its share into spend.
    g.spend.release('job-0');
    g.spend.record('job-1', 'bfl', 'bfl', 'flux-2-pro', flux, {});
    expect(g.spend.runningUsd('bfl')).toBeCloseTo(0.12);
    expect(g.spend.admit('job-10', 'bfl', 'bfl', flux)).toMatchObject({ ok: true });
  });

  it('a job admitted again replaces its own hold instead of adding a second', () => {
    const g = gate({ caps: { bfl: 0.05 } });
    expect(g.spend.admit('job-1', 'bfl', 'bfl', flux).ok).toBe(true);
    expect(g.spend.admit('job-1', 'bfl', 'bfl', flux).ok).toBe(true);
    expect(g.spend.runningUsd('bfl')).toBeCloseTo(0.03);
  });

  it("the provider's reported cost beats the estimate; an unbelievable one is replaced by the estimate", () => {
    const g = gate();
    g.spend.admit('a', 'bfl', 'bfl', flux);
    expect(g.spend.record('a', 'bfl', 'bfl', 'flux-2-pro', flux, { costUsd: 0.045 })).toEqual({
      usd: 0.045,
      source: 'reported',
    });
    for (const costUsd of [Number.NaN, -1, Number.POSITIVE_INFINITY, 1e12]) {
      expect(g.spend.record('b', 'bfl', 'bfl', 'flux-2-pro', flux, { costUsd })).toEqual({
        usd: 0.03,
        source: 'estimated',
      });
    }
    expect(g.costs.entries.get('a')).toMatchObject({ usdMicros: 45_000, source: 'reported', day: '2026-12-14' });
  });

  it('a key a provider echoes where its cost should be never reaches the ledger or the answer', () => {
    const g = gate();
    g.spend.admit('a', 'bfl', 'bfl', flux);
    const echoed = { costUsd: 'sk-ECHOED-key' as unknown as number };
    expect(g.spend.record('a', 'bfl', 'bfl', 'flux-2-pro', flux, echoed)).toEqual({ usd: 0.03, source: 'estimated' });
    expect(JSON.stringify([...g.costs.entries.values()])).not.toContain('ECHOED');
  });

  it("the person's price is the estimate when the provider says nothing", () => {
    const g = gate({ prices: { 'bfl/flux-2-pro': 0.5 } });
    expect(g.spend.admit('a', 'bfl', 'bfl', flux)).toEqual({ ok: true, estimateUsd: 0.5 });
    expect(g.spend.record('a', 'bfl', 'bfl', 'flux-2-pro', flux, {})).toEqual({ usd: 0.5, source: 'estimated' });
  });

  it('a new month starts from nothing, in local time', () => {
    const g = gate({ caps: { bfl: 1 }, at: new Date(2026, 11, 31, 23, 58) });
    spent(g, 'bfl', 0.99);
    expect(g.spend.admit('late', 'bfl', 'bfl', flux).ok).toBe(false);
    expect(g.spend.pausedByCap('bfl')).toMatch(/wait until 1 January 2027\.$/);
    g.clock.set(new Date(2027, 0, 1, 0, 0));
    // The refusal belonged to December: January's queue is not paused by it.
    expect(g.spend.pausedByCap('bfl')).toBeNull();
    expect(g.spend.admit('late', 'bfl', 'bfl', flux)).toMatchObject({ ok: true });
    g.spend.record('late', 'bfl', 'bfl', 'flux-2-pro', flux, {});
    expect(g.costs.entries.get('late')?.day).toBe('2027-01-01');
  });

  it('raising the cap ends the pause', () => {
    const g = gate({ caps: { bfl: 0.02 } });
    expect(g.spend.admit('a', 'bfl', 'bfl', flux).ok).toBe(false);
    expect(g.spend.pausedByCap('bfl')).not.toBeNull();
    g.caps['bfl'] = 5;
    expect(g.spend.pausedByCap('bfl')).toBeNull();
  });

  it('caps are per provider instance, and a provider without one is never paused', () => {
    const g = gate({ caps: { 'bfl-2': 0.01 } });
    expect(g.spend.admit('a', 'bfl', 'bfl', { ...flux, count: 10 }).ok).toBe(true);
    expect(g.spend.admit('b', 'bfl-2', 'bfl', flux).ok).toBe(false);
  });

  it('free kinds are always admitted and record nothing', () => {
    const g = gate({ caps: { comfyui: 0 } });
    expect(g.spend.admit('a', 'comfyui', 'comfyui', { count: 4, width: 512, height: 512 })).toEqual({
      ok: true,
      estimateUsd: 0,
    });
    expect(g.spend.record('a', 'comfyui', 'comfyui', 'x', { count: 1, width: 512, height: 512 }, {})).toBeUndefined();
    expect(g.costs.entries.size).toBe(0);
  });

  it('a cost the disk refused to record keeps its hold against the cap', () => {
    const g = gate({ caps: { bfl: 0.05 } });
    g.spend.admit('a', 'bfl', 'bfl', flux);
    g.costs.recordCost = () => {
      throw new Error('disk full');
    };
    expect(() => g.spend.record('a', 'bfl', 'bfl', 'flux-2-pro', flux, {})).toThrow('disk full');
    expect(g.spend.admit('b', 'bfl', 'bfl', flux).ok).toBe(false);
  });
});
