import { describe, expect, it } from 'vitest';
import { localDay, localMonth } from '../../../electron/spend/local-days.js';
import { formatUsd } from '../../../electron/spend/money.js';

describe('local days and months', () => {
  it('a month is its first day up to the next month’s, in local time', () => {
    expect(localMonth(new Date(2026, 11, 31, 23, 59, 59).getTime())).toEqual({
      month: '2026-12',
      fromDay: '2026-12-01',
      toDay: '2027-01-01',
      today: '2026-12-31',
      tomorrow: '2027-01-01',
      nextMonthLabel: '1 January 2027',
    });
    expect(localMonth(new Date(2028, 1, 29, 0, 0).getTime())).toMatchObject({
      fromDay: '2028-02-01',
      toDay: '2028-03-01',
      tomorrow: '2028-03-01',
    });
    expect(localDay(new Date(2027, 0, 1, 0, 0).getTime())).toBe('2027-01-01');
  });

  it('dollars read as a person writes them', () => {
    expect(formatUsd(20)).toBe('$20.00');
    expect(formatUsd(19.4)).toBe('$19.40');
    expect(formatUsd(0.06)).toBe('$0.06');
    expect(formatUsd(0.003)).toBe('$0.003');
    expect(formatUsd(0)).toBe('$0.00');
  });
});
