import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { checkTarget } from '../../../../electron/library/move/target.js';

const plenty = async (): Promise<number> => 1e15;
const segment = fc.stringMatching(/^[A-Za-z0-9 ._-]{1,12}$/).filter((s) => s !== '.' && s !== '..');

async function reason(promise: Promise<unknown>): Promise<string | null> {
  return promise.then(
    () => null,
    (error: unknown) =>
      error instanceof AppError ? String(error.details?.['reason']) : `not an AppError: ${String(error)}`,
  );
}

describe('where a library may be moved to', () => {
  let root: string;
  let lib: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'atelier-target-'));
    lib = join(root, 'lib');
    await mkdir(join(lib, 'library'), { recursive: true });
    await writeFile(join(lib, 'atelier.db'), 'x');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('never inside the library, at any depth, existing or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 0, maxLength: 4 }), async (parts) => {
        expect(await reason(checkTarget(lib, join(lib, ...parts), 0, plenty))).toMatch(
          /target_inside_library|target_not_empty/,
        );
      }),
      { numRuns: 60 },
    );
    expect(await reason(checkTarget(lib, join(lib, 'library', 'new'), 0, plenty))).toBe('target_inside_library');
    // A folder whose name starts with two dots is inside, not a step up (fast-check found "..0").
    expect(await reason(checkTarget(lib, join(lib, '..0'), 0, plenty))).toBe('target_inside_library');
    expect(await reason(checkTarget(lib, join(root, '..lib'), 0, plenty))).toBeNull();
  });

  it('never a folder holding the library', async () => {
    expect(await reason(checkTarget(lib, root, 0, plenty))).toBe('target_contains_library');
  });

  it('any new folder beside it is accepted when there is room, and refused when there is not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.nat({ max: 1e9 }),
        async (parts, bytes) => {
          if (parts[0] === 'lib') return;
          const target = join(root, ...parts);
          expect(await checkTarget(lib, target, bytes, plenty)).toEqual({ exists: false, partialCopy: false });
          expect(await reason(checkTarget(lib, target, bytes, async () => bytes))).toBe('target_no_space');
        },
      ),
      { numRuns: 60 },
    );
  });
});
