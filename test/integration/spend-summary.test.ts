import { afterEach, describe, expect, it } from 'vitest';
import { SettingsPatch } from '../../shared/contract.js';
import type { SpendGate } from '../../electron/spend/spend-gate.js';
import { startHarness, type Harness } from './engine/harness.js';

/** The engine with a clock the test sets, and the spend gate the scheduler admits jobs through. */
async function engineAt(at: Date): Promise<{ harness: Harness; gate: SpendGate; clock: { set(at: Date): void } }> {
  let now = at.getTime();
  let gate: SpendGate | undefined;
  const harness = await startHarness({ clock: { now: () => now }, spendGate: (g) => (gate = g) });
  opened.push(harness);
  return { harness, gate: gate!, clock: { set: (next) => void (now = next.getTime()) } };
}

const opened: Harness[] = [];
afterEach(async () => {
  for (const harness of opened.splice(0)) await harness.cleanup();
});

const flux = { model: 'flux-2-pro', count: 1, width: 1024, height: 1024 };

describe('spend.summary and settings.spend through the engine', () => {
  it('lists each paid provider with today, this month, the cap and the running estimate; free ones are left out', async () => {
    const { harness, gate, clock } = await engineAt(new Date(2026, 11, 30, 10, 0));
    const { engine } = harness;
    await engine.handlers['settings.update']({ spend: { monthlyCapUsd: { bfl: 1 } } });
    gate.admit('yesterday', 'bfl', 'bfl', flux);
    gate.record('yesterday', 'bfl', 'bfl', 'flux-2-pro', flux, { costUsd: 0.5 });
    clock.set(new Date(2026, 11, 31, 9, 0));
    gate.admit('today', 'bfl', 'bfl', flux);
    gate.record('today', 'bfl', 'bfl', 'flux-2-pro', flux, {});
    gate.admit('running', 'bfl', 'bfl', flux);

    const summary = await engine.handlers['spend.summary']({});
    expect(summary).toMatchObject({ month: '2026-12', today: '2026-12-31', capsResetOn: '1 January 2027' });
    expect(summary.providers.map((p) => p.kind)).not.toContain('comfyui');
    expect(summary.providers.map((p) => p.kind)).not.toContain('builtin');
    expect(summary.providers.find((p) => p.id === 'bfl')).toEqual({
      id: 'bfl',
      kind: 'bfl',
      name: 'Black Forest Labs FLUX',
      todayUsd: 0.03,
      monthUsd: 0.53,
      runningUsd: 0.03,
      capUsd: 1,
      pausedByCap: null,
      estimated: true,
      days: [
        { day: '2026-12-30', usd: 0.5, jobs: 1 },
        { day: '2026-12-31', usd: 0.03, jobs: 1 },
      ],
    });
    // Gemini and OpenAI are not set up, have no cap and spent nothing: nothing to say about them.
    expect(summary.providers.map((p) => p.id)).toEqual(['bfl']);
    // The models used and each paid provider's default model, with the price in force.
    expect(summary.prices.find((r) => r.key === 'bfl/flux-2-pro')).toEqual({
      key: 'bfl/flux-2-pro',
      kind: 'bfl',
      model: 'flux-2-pro',
      usdPerImage: 0.03,
      defaultUsd: 0.03,
      yours: false,
      note: 'per megapixel',
    });
    expect(summary.prices.map((r) => r.key)).toEqual(['bfl/flux-2-pro']);
    // Once set up, a provider is listed with its default model's price, and its key is nowhere in the answer.
    await engine.handlers['settings.update']({
      providers: { openai: { enabled: true, apiKey: 'sk-spend-SECRET-1234' } },
    });
    const withOpenAI = await engine.handlers['spend.summary']({});
    expect(withOpenAI.providers.find((p) => p.id === 'openai')).toMatchObject({ monthUsd: 0, capUsd: null });
    expect(withOpenAI.prices.map((r) => r.key)).toContain('openai/gpt-image-1');
    expect(JSON.stringify(withOpenAI)).not.toContain('SECRET');

    // The month turns: December's spend is history, the cap starts over.
    clock.set(new Date(2027, 0, 1, 0, 1));
    const january = await engine.handlers['spend.summary']({});
    expect(january.providers.find((p) => p.id === 'bfl')).toMatchObject({ todayUsd: 0, monthUsd: 0, days: [] });
  });

  it('says when a cap holds a provider, and a raised cap lets it go', async () => {
    const { harness, gate } = await engineAt(new Date(2026, 5, 15, 12, 0));
    const { engine } = harness;
    await engine.handlers['settings.update']({ spend: { monthlyCapUsd: { bfl: 0.05 } } });
    expect(gate.admit('a', 'bfl', 'bfl', flux).ok).toBe(true);
    const refused = gate.admit('b', 'bfl', 'bfl', flux);
    expect(refused.ok).toBe(false);
    const paused = (await engine.handlers['spend.summary']({})).providers.find((p) => p.id === 'bfl');
    expect(paused?.pausedByCap).toBe(
      'Paused: Black Forest Labs FLUX would pass its monthly cap of $0.05 ($0.00 spent, $0.03 running, this job ' +
        '~$0.03). Raise the cap in Settings → Spend or wait until 1 July 2026.',
    );
    await engine.handlers['settings.update']({ spend: { monthlyCapUsd: { bfl: 10 } } });
    expect((await engine.handlers['spend.summary']({})).providers.find((p) => p.id === 'bfl')?.pausedByCap).toBeNull();
    expect(gate.admit('b', 'bfl', 'bfl', flux).ok).toBe(true);
  });

  it("the person's prices and caps are kept across a restart, shown by settings.get, and null removes one", async () => {
    const { harness, gate } = await engineAt(new Date(2026, 5, 15, 12, 0));
    let engine = harness.engine;
    const saved = await engine.handlers['settings.update']({
      spend: {
        prices: { 'bfl/flux-2-pro': 0.05, 'fal/owner/custom-model': 0.01 },
        monthlyCapUsd: { bfl: 20, openai: 5 },
      },
    });
    expect(saved.spend).toEqual({
      prices: { 'bfl/flux-2-pro': 0.05, 'fal/owner/custom-model': 0.01 },
      monthlyCapUsd: { bfl: 20, openai: 5 },
    });
    // The person's price is what the gate estimates with.
    expect(gate.admit('a', 'bfl', 'bfl', flux)).toEqual({ ok: true, estimateUsd: 0.05 });
    await engine.handlers['settings.update']({ spend: { monthlyCapUsd: { openai: null } } });
    await engine.close();
    engine = await harness.open();
    expect((await engine.handlers['settings.get']({})).spend).toEqual({
      prices: { 'bfl/flux-2-pro': 0.05, 'fal/owner/custom-model': 0.01 },
      monthlyCapUsd: { bfl: 20 },
    });
    const rows = (await engine.handlers['spend.summary']({})).prices;
    expect(rows.find((r) => r.key === 'fal/owner/custom-model')).toMatchObject({
      usdPerImage: 0.01,
      defaultUsd: null,
      yours: true,
    });
  });

  it('the contract refuses a negative cap, a price past $1,000 and a price without a kind', () => {
    const refused = (patch: unknown) => !SettingsPatch.safeParse(patch).success;
    expect(refused({ spend: { monthlyCapUsd: { bfl: -1 } } })).toBe(true);
    expect(refused({ spend: { prices: { 'bfl/flux-2-pro': 1001 } } })).toBe(true);
    expect(refused({ spend: { prices: { 'flux-2-pro': 1 } } })).toBe(true);
    expect(refused({ spend: { prices: { 'bfl/flux\u0000': 1 } } })).toBe(true);
    // A "__proto__" key never becomes a cap (zod leaves it out), nor anyone's prototype.
    const proto = SettingsPatch.parse({ spend: { monthlyCapUsd: JSON.parse('{"__proto__": 1}') as unknown } });
    expect(Object.keys(proto.spend?.monthlyCapUsd ?? { missing: 1 })).toEqual([]);
    expect(Object.getPrototypeOf(proto.spend?.monthlyCapUsd)).toBe(Object.prototype);
    expect(refused({ spend: { monthlyCapUsd: { bfl: 20 }, extra: 1 } })).toBe(true);
    expect(refused({ spend: { monthlyCapUsd: { bfl: 20 }, prices: { 'bfl/flux-2-pro': 0 } } })).toBe(false);
  });
});
