import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeMediaFs } from '../../../electron/media/media-fs.js';
import { findMissingFiles, collectOrphans } from '../../../electron/media/orphan-collection.js';
import { faultFs } from './fault-fs.js';
import { tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const HOUR = 3_600_000;
const NOW = Date.now();

async function put(rel: string, ageMs: number, content = 'x'.repeat(10)): Promise<void> {
  const path = join(dir, ...rel.split('/'));
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
  const t = new Date(NOW - ageMs);
  await utimes(path, t, t);
}

async function exists(rel: string): Promise<boolean> {
  return stat(join(dir, ...rel.split('/'))).then(
    () => true,
    () => false,
  );
}

/** An Atelier-style content-addressed name under `root`: `root/ab/<62 hex>.ext`. */
function own(root: string, seed: number, ext = root === 'thumbs' ? 'webp' : 'png'): string {
  const hex = seed.toString(16).padStart(64, '0');
  return `${root}/${hex.slice(0, 2)}/${hex.slice(2)}.${ext}`;
}

describe('start-up orphan collection', () => {
  it('moves old unreferenced originals and thumbnails to orphans/, removes stale temp files; keeps referenced and young ones', async () => {
    const referencedLib = [own('library', 1), own('library', 2), own('library', 3)];
    for (const rel of referencedLib) await put(rel, 5 * HOUR);
    await put(own('library', 10), 2 * HOUR);
    await put(own('library', 11), 10 * 60_000);
    await put(own('thumbs', 1), 5 * HOUR);
    await put(own('thumbs', 10), 3 * HOUR);
    await put('library/aa/not-atelier.png', 3 * HOUR);
    await put('tmp/0123456789abcdef.part', 2 * HOUR);
    await put('tmp/fedcba9876543210.part', 1000);
    await put('tmp/notes.txt', 2 * HOUR);
    await put(`previews/job-1/0.webp`, 0);
    await put(`previews/job-2/0.webp`, 0);
    await put('atelier.db', 10 * HOUR);

    const referenced = new Set([...referencedLib, own('thumbs', 1)]);
    const result = await collectOrphans(dir, referenced, NOW, HOUR);

    expect(result.held).toBe(false);
    expect(result.moved.sort()).toEqual([own('library', 10), own('thumbs', 10)].sort());
    expect(result.bytesMoved).toBe(20);
    expect(result.tmpRemoved).toBe(1);
    expect(result.keptYoung).toBe(2);
    expect(result.leftAlone).toBe(2);
    expect(result.previewsRemoved).toBe(2);
    for (const rel of result.moved) {
      expect(await exists(rel)).toBe(false);
      expect(await exists(`orphans/${rel}`)).toBe(true);
    }
    const kept = [
      ...referenced,
      own('library', 11),
      'library/aa/not-atelier.png',
      'tmp/fedcba9876543210.part',
      'tmp/notes.txt',
      'atelier.db',
    ];
    for (const rel of kept) expect(await exists(rel)).toBe(true);
    expect(await exists('tmp/0123456789abcdef.part')).toBe(false);
    expect(await readdir(join(dir, 'previews'))).toEqual([]);
  });

  it('moves nothing when the database knows fewer than half of library/ (an empty or replaced database)', async () => {
    for (let i = 1; i <= 6; i += 1) {
      await put(own('library', i), 5 * HOUR);
      await put(own('thumbs', i), 5 * HOUR);
    }
    const result = await collectOrphans(dir, new Set([own('library', 1), own('library', 2)]), NOW, HOUR);
    expect(result).toMatchObject({ held: true, moved: [], libraryFiles: 6, unreferencedLibraryFiles: 4 });
    for (let i = 1; i <= 6; i += 1) {
      expect(await exists(own('library', i))).toBe(true);
      expect(await exists(own('thumbs', i))).toBe(true);
    }
    // Known half or more: an ordinary collection.
    const healthy = await collectOrphans(dir, new Set([1, 2, 3].map((i) => own('library', i))), NOW, HOUR);
    expect(healthy.held).toBe(false);
    expect(healthy.moved.filter((rel) => rel.startsWith('library/'))).toHaveLength(3);
  });

  it('never deletes a library file or thumbnail, never moves a referenced one, and moves nothing while the database looks lost', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ referenced: fc.boolean(), old: fc.boolean(), thumb: fc.boolean() }), { maxLength: 12 }),
        async (files) => {
          await rm(join(dir, 'library'), { recursive: true, force: true });
          await rm(join(dir, 'thumbs'), { recursive: true, force: true });
          await rm(join(dir, 'orphans'), { recursive: true, force: true });
          const referenced = new Set<string>();
          const all: string[] = [];
          for (const [i, f] of files.entries()) {
            const rel = own(f.thumb ? 'thumbs' : 'library', i + 1);
            await put(rel, f.old ? 2 * HOUR : 0);
            all.push(rel);
            if (f.referenced) referenced.add(rel);
          }
          const result = await collectOrphans(dir, referenced, NOW, HOUR);
          const lib = all.filter((rel) => rel.startsWith('library/'));
          const unknown = lib.filter((rel) => !referenced.has(rel)).length;
          expect(result.held).toBe(unknown > 0 && unknown > lib.length - unknown);
          if (result.held) expect(result.moved).toEqual([]);
          for (const rel of all) {
            const here = await exists(rel);
            const aside = await exists(`orphans/${rel}`);
            // Every file is still somewhere: in place, or kept in orphans/.
            expect(here !== aside).toBe(true);
            if (referenced.has(rel)) expect(here).toBe(true);
            if (aside) expect(result.moved).toContain(rel);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts a file it cannot move aside and goes on: the file stays where it is', async () => {
    await put(own('library', 1), 5 * HOUR);
    await put(own('library', 2), 5 * HOUR);
    await put(own('thumbs', 9), 5 * HOUR);
    const result = await collectOrphans(
      dir,
      new Set([own('library', 1), own('library', 2)]),
      NOW,
      HOUR,
      faultFs({ op: 'rename', code: 'EACCES' }),
    );
    expect(result).toMatchObject({ moved: [], failed: 1 });
    expect(await exists(own('thumbs', 9))).toBe(true);
  });

  it('uses a one-hour grace period by default and copes with a fresh, empty data dir', async () => {
    const empty = await collectOrphans(dir, new Set(), NOW);
    expect(empty).toMatchObject({
      moved: [],
      bytesMoved: 0,
      keptYoung: 0,
      previewsRemoved: 0,
      held: false,
      libraryFiles: 0,
    });
    await put(own('library', 1), 5 * HOUR);
    await put(own('thumbs', 7), 59 * 60_000);
    const referenced = new Set([own('library', 1)]);
    expect((await collectOrphans(dir, referenced, NOW)).keptYoung).toBe(1);
    expect((await collectOrphans(dir, referenced, NOW + 2 * 60_000)).moved).toEqual([own('thumbs', 7)]);
  });

  it('reports rows whose file is missing without touching them', async () => {
    await put('library/aa/present.png', 0);
    const rows = [
      { id: 'i1', path: 'library/aa/present.png' },
      { id: 'i2', path: 'library/aa/gone.png' },
      ...Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, path: `library/zz/${i}.png` })),
    ];
    const missing = await findMissingFiles(dir, rows);
    expect(missing.count).toBe(101);
    expect(missing.ids[0]).toBe('i2');
    expect(missing.ids).not.toContain('i1');
  });

  it('answers rows in the library from one listing, and stats only the rest', async () => {
    for (let i = 0; i < 40; i += 1) await put(`library/${i % 4}a/${i}.png`, 0);
    await put('imports/old.png', 0);
    const stats: string[] = [];
    const counting = { ...nodeMediaFs, stat: (path: string) => (stats.push(path), nodeMediaFs.stat(path)) };
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, path: `library/${i % 4}a/${i}.png` })),
      { id: 'outside', path: 'imports/old.png' },
      { id: 'gone', path: 'library/0a/gone.png' },
    ];
    const missing = await findMissingFiles(dir, rows, counting);
    expect(missing).toEqual({ count: 1, ids: ['gone'] });
    expect(stats).toHaveLength(2);
  });
});
