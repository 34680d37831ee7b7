import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearPartialCopy,
  PARTIAL_MARKER,
  partialCopyIn,
  startJournal,
} from '../../../../electron/library/move/partial.js';

let root: string;
let target: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-partial-'));
  target = join(root, 'target');
  await mkdir(target);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A move that got as far as one folder and one file before it was killed (the journal never finished). */
async function killedCopy(): Promise<void> {
  const journal = await startJournal(target, '/old/library');
  await mkdir(join(target, 'library'));
  await journal.add('library');
  await writeFile(join(target, 'library', 'a.png'), 'a');
  await journal.add(join('library', 'a.png'));
  await journal.close();
}

describe('a copy a killed move left behind', () => {
  it('is recognised by its marker and cleared back to an empty folder', async () => {
    await killedCopy();
    expect(await partialCopyIn(target)).toMatchObject({ from: '/old/library' });
    expect(await clearPartialCopy(target)).toBe(2);
    expect(await readdir(target)).toEqual([]);
  });

  it('is not Atelier’s alone when anything the marker does not name is there: refused, and nothing is removed', async () => {
    await killedCopy();
    await writeFile(join(target, 'library', 'mine.png'), 'm');
    await expect(partialCopyIn(target)).rejects.toMatchObject({
      details: { reason: 'target_not_empty', foreign: [join('library', 'mine.png')] },
    });
    await expect(clearPartialCopy(target)).rejects.toMatchObject({ details: { partialCopy: true } });
    expect((await readdir(join(target, 'library'))).sort()).toEqual(['a.png', 'mine.png']);
  });

  it('a link where the marker names a file is not Atelier’s: refused, the link and what it points to stay', async () => {
    await killedCopy();
    await writeFile(join(root, 'precious.png'), 'p');
    await rm(join(target, 'library', 'a.png'));
    await symlink(join(root, 'precious.png'), join(target, 'library', 'a.png'));
    await expect(clearPartialCopy(target)).rejects.toMatchObject({ details: { foreign: [join('library', 'a.png')] } });
    expect(await readdir(root)).toContain('precious.png');
  });

  it('a folder without the marker, or with a file of that name that is not the marker, is no partial copy', async () => {
    expect(await partialCopyIn(target)).toBeNull();
    await writeFile(join(target, PARTIAL_MARKER), 'someone else’s notes');
    expect(await partialCopyIn(target)).toBeNull();
  });
});
