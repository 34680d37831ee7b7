import { describe, expect, it } from 'vitest';
import { applySpendPatch, capOf, emptySpend, readSpend } from '../../../electron/spend/spend-settings.js';

describe('settings.spend', () => {
  it('is empty by default', () => {
    expect(emptySpend()).toEqual({ prices: {}, monthlyCapUsd: {} });
    expect(readSpend(undefined)).toEqual({ prices: {}, monthlyCapUsd: {} });
  });

  it('read back from disk keeps only well-formed prices and caps', () => {
    const stored = JSON.parse(
      '{"prices": {"bfl/flux-2-pro": 0.04, "no-slash": 1, "fal/x": -2, "fal/y": "cheap", "__proto__": 5},' +
        ' "monthlyCapUsd": {"bfl": 20, "Not An Id": 5, "openai": 1e99, "constructor": 3}}',
    ) as unknown;
    expect(readSpend(stored)).toEqual({
      prices: { 'bfl/flux-2-pro': 0.04 },
      monthlyCapUsd: { bfl: 20, constructor: 3 },
    });
    expect(readSpend({ prices: [1, 2], monthlyCapUsd: 'lots' })).toEqual(emptySpend());
  });

  it('a patch sets prices and caps, and null removes one', () => {
    const first = applySpendPatch(emptySpend(), { prices: { 'bfl/flux-2-pro': 0.04 }, monthlyCapUsd: { bfl: 20 } });
    const second = applySpendPatch(first, { monthlyCapUsd: { bfl: null, openai: 5 } });
    expect(second).toEqual({ prices: { 'bfl/flux-2-pro': 0.04 }, monthlyCapUsd: { openai: 5 } });
    expect(first.monthlyCapUsd).toEqual({ bfl: 20 });
  });

  it("a provider's cap is only its own entry", () => {
    const spend = { prices: {}, monthlyCapUsd: { bfl: 20 } };
    expect(capOf(spend, 'bfl')).toBe(20);
    expect(capOf(spend, 'constructor')).toBeUndefined();
    expect(capOf(spend, 'toString')).toBeUndefined();
  });
});
