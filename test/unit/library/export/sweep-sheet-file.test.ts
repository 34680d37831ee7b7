/** Where a sheet is written: a chosen folder (never over a file) or kept under the data dir for download. */
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SHEETS_DIR,
  SHEET_FILE,
  keepSheet,
  keptSheet,
  keptSheetName,
  sheetFileName,
  sheetFileStem,
  writeSheetToFolder,
} from '../../../../electron/library/export/sweep-sheet-file.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-sheet-'));
  dirs.push(dir);
  return dir;
}
const SWEEP_ID = '0190c000-0000-7000-8000-0000000000aa';

describe('sheet files', () => {
  it('names a sheet after its sweep and page, safe on any file system', () => {
    expect(sheetFileName('CFG vs LoRA', 0)).toBe('CFG vs LoRA-z1.png');
    expect(sheetFileName('a/b\\c:d*e?"f"<g>|h', 2)).toBe('a-b-c-d-e-f-g-h-z3.png');
    expect(sheetFileName('  ', 0)).toBe('sweep-z1.png');
    expect(sheetFileName('..', 0)).toBe('sweep-z1.png');
    expect(sheetFileName('CON', 0)).toBe('sweep-CON-z1.png');
    expect(sheetFileStem('x'.repeat(500))).toHaveLength(80);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (name) => {
        const stem = sheetFileStem(name);
        // eslint-disable-next-line no-control-regex
        expect(stem).not.toMatch(/[\u0000-\u001f<>:"/\\|?*]/);
        expect(stem.length).toBeGreaterThan(0);
        expect(stem.startsWith('.')).toBe(false);
      }),
    );
  });

  it('writes into the folder without touching an existing file: -2, -3 after it', async () => {
    const folder = await temp();
    await writeFile(join(folder, 'Grid-z1.png'), 'mine');
    const second = await writeSheetToFolder(folder, 'Grid-z1.png', Uint8Array.of(1, 2, 3));
    const third = await writeSheetToFolder(folder, 'Grid-z1.png', Uint8Array.of(4));
    expect([second, third]).toEqual([join(folder, 'Grid-z1-2.png'), join(folder, 'Grid-z1-3.png')]);
    expect(await readFile(join(folder, 'Grid-z1.png'), 'utf8')).toBe('mine');
    expect([...(await readFile(second))]).toEqual([1, 2, 3]);
    // No temporary file is left behind.
    expect((await readdir(folder)).sort()).toEqual(['Grid-z1-2.png', 'Grid-z1-3.png', 'Grid-z1.png']);
  });

  it('gives sheets written at the same moment names of their own', async () => {
    const folder = await temp();
    const paths = await Promise.all(
      Array.from({ length: 6 }, (_, i) => writeSheetToFolder(folder, 'Same-z1.png', Uint8Array.of(i))),
    );
    expect(new Set(paths).size).toBe(6);
    const bytes = await Promise.all(paths.map(async (p) => (await readFile(p))[0]));
    expect(bytes.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps a sheet for download under a name the route answers, replacing the same page and removing day-old ones', async () => {
    const dataDir = await temp();
    const name = keptSheetName('Été: CFG / LoRA', 0, SWEEP_ID);
    expect(name).toBe('ete-cfg-lora-z1-0000000000aa.png');
    await keepSheet(dataDir, name, Uint8Array.of(1), 1_000);
    await keepSheet(dataDir, name, Uint8Array.of(2), 1_000);
    const old = join(dataDir, SHEETS_DIR, 'old-z1-0000000000bb.png');
    await writeFile(old, 'old');
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    await utimes(old, twoDaysAgo, twoDaysAgo);
    await keepSheet(dataDir, keptSheetName('Other', 1, SWEEP_ID), Uint8Array.of(3), Date.now());
    expect((await readdir(join(dataDir, SHEETS_DIR))).sort()).toEqual([name, 'other-z2-0000000000aa.png']);
    const found = keptSheet(dataDir, name);
    expect(found).toEqual({ path: join(dataDir, SHEETS_DIR, name), downloadName: 'ete-cfg-lora-z1.png' });
    expect([...(await readFile(found!.path))]).toEqual([2]);
  });

  it('answers only names it makes: no path, no other file', () => {
    for (const bad of ['../atelier.db', '..%2Fatelier.db', 'x-z1-0000000000aa.png/..', '.tmp', 'a-z0-0000000000aa.png'])
      expect(keptSheet('/data', bad)).toBeNull();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 0, max: 500 }), (name, z) => {
        expect(keptSheetName(name, z, SWEEP_ID)).toMatch(SHEET_FILE);
      }),
    );
  });
});
