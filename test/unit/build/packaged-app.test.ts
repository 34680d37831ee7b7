import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePackagedApp } from '../../electron/packaged.js';

/** ATELIER_PACKAGED_APP may name the unpacked folder, the .app or the executable; a wrong path says so. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-packaged-'));
  dirs.push(dir);
  return dir;
};

describe('the packaged app path', () => {
  it('finds the executable in linux-unpacked and win-unpacked, and inside the .app of mac', () => {
    const linux = scratch();
    writeFileSync(join(linux, 'atelier'), '');
    expect(resolvePackagedApp(linux, 'linux')).toEqual({
      executable: join(linux, 'atelier'),
      fuseTarget: join(linux, 'atelier'),
    });
    const win = scratch();
    writeFileSync(join(win, 'Atelier.exe'), '');
    expect(resolvePackagedApp(win, 'win32').executable).toBe(join(win, 'Atelier.exe'));
    const mac = scratch();
    mkdirSync(join(mac, 'Atelier.app', 'Contents', 'MacOS'), { recursive: true });
    const bundle = join(mac, 'Atelier.app');
    expect(resolvePackagedApp(mac, 'darwin')).toEqual({
      executable: join(bundle, 'Contents', 'MacOS', 'Atelier'),
      fuseTarget: bundle,
    });
    expect(resolvePackagedApp(bundle, 'darwin').fuseTarget).toBe(bundle);
    expect(resolvePackagedApp(join(linux, 'atelier'), 'linux').executable).toBe(join(linux, 'atelier'));
  });

  it('says what it looked for when the folder holds no app, or the path is nothing', () => {
    const empty = scratch();
    expect(() => resolvePackagedApp(empty, 'linux')).toThrow(/No packaged Atelier .*atelier/);
    expect(() => resolvePackagedApp(join(empty, 'missing'), 'linux')).toThrow(/points at nothing/);
  });
});
