import { isAbsolute, join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { USER_DATA_ENV, userDataOverride } from '../../../electron/desktop/profile-dir.js';

describe('ATELIER_USER_DATA_DIR', () => {
  it('is honoured only when set: unset or blank leaves the OS folder', () => {
    expect(userDataOverride({})).toBeNull();
    expect(userDataOverride({ [USER_DATA_ENV]: '' })).toBeNull();
    expect(userDataOverride({ [USER_DATA_ENV]: '   ' })).toBeNull();
    expect(userDataOverride({ OTHER: '/tmp/x' })).toBeNull();
  });

  it('names an absolute folder, a relative one taken from the working directory', () => {
    expect(userDataOverride({ [USER_DATA_ENV]: '/tmp/atelier-profile' }, '/work')).toBe(
      resolve('/tmp/atelier-profile'),
    );
    expect(userDataOverride({ [USER_DATA_ENV]: 'profile' }, '/work')).toBe(resolve('/work', 'profile'));
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._-]{1,12}(\/[a-z0-9._-]{1,12}){0,3}$/), (value) => {
        const dir = userDataOverride({ [USER_DATA_ENV]: value }, '/base');
        expect(dir !== null && isAbsolute(dir)).toBe(true);
        expect(dir).toBe(resolve(join('/base', value)));
      }),
    );
  });
});
