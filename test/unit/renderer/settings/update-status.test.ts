import { describe, expect, it } from 'vitest';
import { updateStatusLine } from '../../../../renderer/src/settings/update-status';

const NOW = 1_800_000_000_000;

describe('Settings → Updates status line', () => {
  it('says why nothing is checked, when the last check was, and what is coming', () => {
    expect(updateStatusLine({ state: 'off', reason: 'development' }, NOW)).toBe(
      'This is a development run: it never updates itself.',
    );
    expect(updateStatusLine({ state: 'off', reason: 'setting' }, NOW)).toBe(
      'Automatic updates are off. New versions are on the releases page.',
    );
    expect(updateStatusLine({ state: 'idle', checkedAt: NOW - 2 * 3_600_000 }, NOW)).toBe(
      'Up to date — checked 2 h ago.',
    );
    expect(updateStatusLine({ state: 'checking' }, NOW)).toBe('Checking for a new version…');
    expect(updateStatusLine({ state: 'ready', version: '0.3.1' }, NOW)).toBe(
      'Atelier 0.3.1 is ready: it installs when Atelier restarts.',
    );
    expect(
      updateStatusLine(
        { state: 'error', message: 'Atelier could not reach the update server (offline?). It tries again tomorrow.' },
        NOW,
      ),
    ).toBe('Atelier could not reach the update server (offline?). It tries again tomorrow.');
  });
});
