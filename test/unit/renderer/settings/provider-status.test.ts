import { describe, expect, it } from 'vitest';
import { providerStatusView } from '../../../../renderer/src/settings/provider-status';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

describe('what a provider card says', () => {
  it('Off / Needs setup / Not tested / Ready (when) / Failing (why), never Ready without a reason', () => {
    expect(providerStatusView({ configured: true, status: { state: 'off' } }, NOW)).toMatchObject({
      label: 'Off',
      tone: 'off',
    });
    expect(providerStatusView({ configured: false, status: { state: 'untested' } }, NOW)).toMatchObject({
      label: 'Needs setup',
      pickerNote: 'needs setup',
    });
    expect(providerStatusView({ configured: true, status: { state: 'untested' } }, NOW)).toMatchObject({
      label: 'Not tested',
      tone: 'idle',
      pickerNote: 'not tested',
    });
    expect(
      providerStatusView({ configured: true, status: { state: 'ready', at: NOW - 5 * 60_000, source: 'test' } }, NOW),
    ).toEqual({
      label: 'Ready',
      tone: 'ok',
      detail: 'Last test passed 5 min ago.',
      headline: 'Last test passed 5 min ago.',
      pickerNote: '',
    });
    expect(
      providerStatusView({ configured: true, status: { state: 'ready', at: NOW - 2 * 3_600_000, source: 'job' } }, NOW)
        .detail,
    ).toBe('Last job passed 2 h ago.');
    expect(providerStatusView({ configured: true, status: { state: 'ready' } }, NOW).detail).toBe(
      'Works offline: nothing to test.',
    );
    expect(
      providerStatusView(
        {
          configured: true,
          status: { state: 'failing', at: NOW - 10_000, source: 'test', message: 'Nothing answers at 127.0.0.1:7860.' },
        },
        NOW,
      ),
    ).toEqual({
      label: 'Failing',
      tone: 'fail',
      detail: 'Last test failed just now: Nothing answers at 127.0.0.1:7860.',
      headline: 'Last test failed just now.',
      pickerNote: 'failing',
    });
  });

  it('a job that just failed outranks an older Ready; Off outranks everything', () => {
    const ready = { configured: true, status: { state: 'ready' as const, at: NOW - 60_000, source: 'test' as const } };
    expect(providerStatusView(ready, NOW, 'Connection refused.')).toMatchObject({
      label: 'Failing',
      detail: 'Last job failed: Connection refused.',
    });
    expect(providerStatusView({ configured: true, status: { state: 'off' } }, NOW, 'Connection refused.').label).toBe(
      'Off',
    );
  });
});
