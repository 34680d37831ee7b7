import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { resolveInsideDataDir } from '../../../electron/base/paths.js';
import { resolveMediaPath } from '../../../electron/media/safe-path.js';
import { tempDir } from './helpers.js';

let dir: string;
let outside: string;
let cleanups: Array<() => Promise<void>> = [];
beforeEach(async () => {
  const a = await tempDir();
  const b = await tempDir('atelier-outside-');
  dir = await realpath(a.dir);
  outside = b.dir;
  cleanups = [a.cleanup, b.cleanup];
});
afterEach(async () => {
  for (const c of cleanups) await c();
});

describe('media path safety', () => {
  it('resolves stored relative paths inside the data dir', () => {
    expect(resolveInsideDataDir(dir, 'library/ab/cd.png')).toBe(join(dir, 'library', 'ab', 'cd.png'));
  });

  it.each([
    '',
    '../secret',
    'library/../../x',
    '/etc/passwd',
    'C:/x',
    'library\\..\\x',
    'a//b',
    './a',
    'a/./b',
    'a\0b',
    '..',
  ])('refuses %j', (rel) => {
    expect(resolveInsideDataDir(dir, rel)).toBeNull();
  });

  it('never resolves outside the data dir, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (rel) => {
        const resolved = resolveInsideDataDir(dir, rel);
        if (resolved !== null) expect(resolved.startsWith(dir + '/')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('follows symlinks and refuses one that points outside; missing files resolve to null', async () => {
    await mkdir(join(dir, 'library', 'ab'), { recursive: true });
    await writeFile(join(dir, 'library', 'ab', 'ok.png'), 'x');
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(dir, 'library', 'ab', 'evil.png'));
    expect(await resolveMediaPath(dir, 'library/ab/ok.png')).toBe(join(dir, 'library', 'ab', 'ok.png'));
    expect(await resolveMediaPath(dir, 'library/ab/evil.png')).toBeNull();
    expect(await resolveMediaPath(dir, 'library/ab/missing.png')).toBeNull();
  });
});
