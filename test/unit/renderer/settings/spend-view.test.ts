import { describe, expect, it } from 'vitest';
import {
  capShare,
  dayLines,
  dollarsField,
  formatPrice,
  formatUsd,
  parseDollars,
} from '../../../../renderer/src/settings/spend/spend-view';
import { formatUsd as engineFormatUsd } from '../../../../electron/spend/money';

describe('Settings → Spend fields', () => {
  it('reads dollars as typed: blank is none, a $ is allowed, anything else is said back', () => {
    expect(parseDollars('', 100)).toEqual({ ok: true, usd: null });
    expect(parseDollars('  $20 ', 100)).toEqual({ ok: true, usd: 20 });
    expect(parseDollars('0.055', 100)).toEqual({ ok: true, usd: 0.055 });
    expect(parseDollars('-1', 100)).toMatchObject({
      ok: false,
      message: 'Type an amount in dollars, like 20 or 0.05.',
    });
    expect(parseDollars('1e3', 100).ok).toBe(false);
    expect(parseDollars('twenty', 100).ok).toBe(false);
    expect(parseDollars('150', 100)).toEqual({ ok: false, message: 'At most $100.00.' });
  });

  it('shows a saved amount without trailing zeros, and none as blank', () => {
    expect(dollarsField(20)).toBe('20');
    expect(dollarsField(0.055)).toBe('0.055');
    expect(dollarsField(null)).toBe('');
  });

  it('the meter counts running jobs and is full at the cap', () => {
    expect(capShare(5, 0, null)).toBeNull();
    expect(capShare(5, 5, 20)).toBe(0.5);
    expect(capShare(19, 3, 20)).toBe(1);
    expect(capShare(0, 0, 0)).toBe(1);
  });

  it('a price per image keeps its tenths of a cent', () => {
    expect(formatPrice(0.039)).toBe('$0.039');
    expect(formatPrice(0.03)).toBe('$0.03');
    expect(formatPrice(0.0035)).toBe('$0.0035');
    expect(formatPrice(2)).toBe('$2.00');
  });

  it("lists this month's days newest first, one line per provider", () => {
    const lines = dayLines([
      { id: 'openai', name: 'OpenAI', days: [{ day: '2026-12-02', usd: 0.2, jobs: 2 }] },
      {
        id: 'bfl',
        name: 'Black Forest Labs FLUX',
        days: [
          { day: '2026-12-01', usd: 0.03, jobs: 1 },
          { day: '2026-12-02', usd: 0.06, jobs: 2 },
        ],
      },
    ]);
    expect(lines.map((l) => `${l.day} ${l.provider}`)).toEqual([
      '2026-12-02 Black Forest Labs FLUX',
      '2026-12-02 OpenAI',
      '2026-12-01 Black Forest Labs FLUX',
    ]);
  });

  it('formats dollars as the engine does', () => {
    for (const usd of [0, 0.003, 0.0125, 0.06, 19.4, 20, 1234.5]) expect(formatUsd(usd)).toBe(engineFormatUsd(usd));
  });
});
