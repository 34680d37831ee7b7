import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanFolder } from '../../../../electron/library/import/scan-folder.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function all(dir: string, skip: string[] = []): Promise<string[]> {
  const out: string[] = [];
  for await (const files of scanFolder(dir, skip)) out.push(...files.map((f) => relative(dir, f)));
  return out;
}

describe('scanFolder', () => {
  it('lists every file below, in name order, without hidden files, partial downloads, sidecars of images, or a folder to skip', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-scan-'));
    const files = [
      'b/2.png',
      'b/2.txt',
      'a/1.webp',
      'a/notes.txt',
      'a/deep/x.jpg',
      '.hidden/y.png',
      'a/.z.png',
      'a/dl.crdownload',
      'a/tmp.part',
      'skip/me.png',
    ];
    for (const f of files) {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), 'x');
    }
    expect(await all(root, [join(root, 'skip')])).toEqual(['a/1.webp', 'a/notes.txt', 'a/deep/x.jpg', 'b/2.png']);
  });

  it("takes Forge's `x.txt` beside an AVIF `x.avif` as its sidecar, not a file of its own", async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-scan-'));
    for (const f of ['00001-42.avif', '00001-42.txt', 'notes.txt']) writeFileSync(join(root, f), 'x');
    expect(await all(root)).toEqual(['00001-42.avif', 'notes.txt']);
  });

  it('does not follow a symlinked folder (a loop, or a way out of the chosen folder)', async () => {
    root = mkdtempSync(join(tmpdir(), 'atelier-scan-'));
    mkdirSync(join(root, 'in'));
    writeFileSync(join(root, 'in', 'a.png'), 'x');
    symlinkSync(root, join(root, 'in', 'loop'));
    symlinkSync('/etc', join(root, 'in', 'out'));
    expect(await all(root)).toEqual(['in/a.png']);
  });
});
