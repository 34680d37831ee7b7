import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeMediaFs } from '../../../electron/media/media-fs.js';
import { findMissingFiles, sweepOrphans } from '../../../electron/media/sweep.js';
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

describe('start-up sweep', () => {
  it('removes old unreferenced originals, thumbnails and temp files; keeps referenced and young ones', async () => {
    await put('library/aa/referenced.png', 5 * HOUR);
    await put('library/aa/orphan-old.png', 2 * HOUR);
    await put('library/bb/orphan-young.png', 10 * 60_000);
    await put('thumbs/cc/referenced.webp', 5 * HOUR);
    await put('thumbs/cc/orphan-old.webp', 3 * HOUR);
    await put('tmp/abc.part', 2 * HOUR);
    await put('tmp/def.part', 1000);
    await put(`previews/job-1/0.webp`, 0);
    await put(`previews/job-2/0.webp`, 0);
    await put('atelier.db', 10 * HOUR);

    const referenced = new Set(['library/aa/referenced.png', 'thumbs/cc/referenced.webp']);
    const result = await sweepOrphans(dir, referenced, NOW, HOUR);

    expect(result.removed.sort()).toEqual(['library/aa/orphan-old.png', 'thumbs/cc/orphan-old.webp', 'tmp/abc.part']);
    expect(result.bytesFreed).toBe(30);
    expect(result.keptYoung).toBe(2);
    expect(result.previewsRemoved).toBe(2);
    for (const kept of ['library/aa/referenced.png', 'library/bb/orphan-young.png', 'thumbs/cc/referenced.webp', 'tmp/def.part', 'atelier.db']) {
      expect(await exists(kept)).toBe(true);
    }
    expect(await readdir(join(dir, 'previews'))).toEqual([]);
  });

  it('uses a one-hour grace period by default and copes with a fresh, empty data dir', async () => {
    expect(await sweepOrphans(dir, new Set(), NOW)).toEqual({ removed: [], bytesFreed: 0, keptYoung: 0, previewsRemoved: 0 });
    await put('library/aa/x.png', 59 * 60_000);
    expect((await sweepOrphans(dir, new Set(), NOW)).keptYoung).toBe(1);
    expect((await sweepOrphans(dir, new Set(), NOW + 2 * 60_000)).removed).toEqual(['library/aa/x.png']);
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
