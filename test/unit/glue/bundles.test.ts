import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../electron/build/bundles.js';
import { FUSE_SETTINGS, electronBinary, fuseConfig } from '../../../electron/build/fuses.js';
import { createCountPool } from '../../../electron/db/count-pool.js';
import { createMetadataPool } from '../../../electron/library/readers/metadata-pool.js';
import { insertChunks, makePng, tEXt } from '../media/helpers.js';

const root = resolve(import.meta.dirname, '..', '..', '..');

describe('bundles', () => {
  it('the sandboxed preload is one CommonJS file that requires only electron and carries no zod', async () => {
    const result = await build({ ...bundleOptions(root).preload, write: false, sourcemap: false });
    const code = result.outputFiles[0]?.text ?? '';
    const requires = new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
    expect([...requires]).toEqual(['electron']);
    expect(code).not.toMatch(/zod|ZodError/);
    expect(code).toContain('exposeInMainWorld');
    expect(code).toContain('"jobs.submit"');
  });
});

describe('the metadata worker bundle', () => {
  it("is a CommonJS file that reads an image's settings on its own, without tsx", async () => {
    // Written under node_modules/.cache so its external packages (sharp, exifr, lossless-json) resolve as in dist/.
    const cache = join(root, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'metadata-worker-'));
    const pool = createMetadataPool({ size: 1, workerUrl: pathToFileURL(join(dir, 'metadata-worker.cjs')) });
    try {
      await build({
        ...bundleOptions(root).metadataWorker,
        outfile: join(dir, 'metadata-worker.cjs'),
        sourcemap: false,
      });
      const png = insertChunks(await makePng(8, 8), [
        tEXt('parameters', 'a fox\nSteps: 20, Sampler: Euler, Seed: 5, Size: 8x8'),
      ]);
      expect((await pool.read(png)).read).toMatchObject({ source: 'a1111', settings: { prompt: 'a fox', seed: '5' } });
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the count worker bundle', () => {
  it('is a CommonJS file that counts on its own read-only connection, without tsx', async () => {
    const cache = join(root, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'count-worker-'));
    const db = new Database(join(dir, 'library.db'));
    db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);');
    db.close();
    const pool = createCountPool({
      path: join(dir, 'library.db'),
      workerUrl: pathToFileURL(join(dir, 'count-worker.cjs')),
    });
    try {
      await build({ ...bundleOptions(root).countWorker, outfile: join(dir, 'count-worker.cjs'), sourcemap: false });
      expect(await pool.count([{ sql: 'SELECT COUNT(*) FROM t WHERE x > ?', params: [1] }], 0)).toEqual([2]);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fuses', () => {
  it('sets every fuse Atelier cares about, each with a reason', () => {
    const config = fuseConfig(false) as unknown as Record<number, boolean>;
    expect(FUSE_SETTINGS).toHaveLength(6);
    for (const fuse of FUSE_SETTINGS) {
      expect(config[fuse.option]).toBe(fuse.enabled);
      expect(fuse.reason.length).toBeGreaterThan(20);
    }
    expect(
      FUSE_SETTINGS.filter((f) => f.enabled)
        .map((f) => f.option)
        .sort(),
    ).toEqual([1, 4, 5]);
  });

  it('finds the Electron binary per OS', () => {
    expect(electronBinary('/o', 'darwin', 'Atelier', 'atelier')).toBe('/o/Atelier.app');
    expect(electronBinary('/o', 'win32', 'Atelier', 'atelier')).toBe('/o/Atelier.exe');
    expect(electronBinary('/o', 'linux', 'Atelier', 'atelier')).toBe('/o/atelier');
  });
});
