import { describe, expect, it } from 'vitest';
import { USER_DATA_ENV } from '../../../electron/desktop/profile-dir.js';
import { appEnv, electronBinary, plainArgs, ROOT } from '../../electron/app.js';
import { MISSING_LINE } from '../../electron/binary.js';
import { BINARY_ENV } from '../../electron/runner.js';

/** How the Electron tests start the app: on their own profile, never as plain Node, with the runner's binary. */
describe('launching the app under test', () => {
  it('runs it on the given profile and never as plain Node, keeping the rest of the environment', () => {
    const env = appEnv('/tmp/profile-1', {
      PATH: '/usr/bin',
      DISPLAY: ':99',
      ELECTRON_RUN_AS_NODE: '1',
      UNSET: undefined,
    });
    expect(env).toEqual({ PATH: '/usr/bin', DISPLAY: ':99', [USER_DATA_ENV]: '/tmp/profile-1' });
  });

  it('starts the app folder itself, with --no-sandbox only on Linux as Playwright does', () => {
    expect(plainArgs('linux')).toEqual(['--no-sandbox', ROOT]);
    expect(plainArgs('darwin')).toEqual([ROOT]);
    expect(plainArgs('win32')).toEqual([ROOT]);
  });

  it('uses the binary the runner found, and without one fails with the one line rather than passing', () => {
    expect(electronBinary({ [BINARY_ENV]: '/opt/electron/electron' })).toBe('/opt/electron/electron');
    expect(() => electronBinary({ ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent-atelier-electron' })).toThrow(
      MISSING_LINE,
    );
  });
});
