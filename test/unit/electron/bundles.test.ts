import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../../../electron/build/bundles.js';
import { FUSE_SETTINGS, electronBinary, fuseConfig } from '../../../electron/build/fuses.js';

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

describe('fuses', () => {
  it('sets every fuse Atelier cares about, each with a reason', () => {
    const config = fuseConfig(false) as unknown as Record<number, boolean>;
    expect(FUSE_SETTINGS).toHaveLength(6);
    for (const fuse of FUSE_SETTINGS) {
      expect(config[fuse.option]).toBe(fuse.enabled);
      expect(fuse.reason.length).toBeGreaterThan(20);
    }
    expect(FUSE_SETTINGS.filter((f) => f.enabled).map((f) => f.option).sort()).toEqual([1, 4, 5]);
  });

  it('finds the Electron binary per OS', () => {
    expect(electronBinary('/o', 'darwin', 'Atelier', 'atelier')).toBe('/o/Atelier.app');
    expect(electronBinary('/o', 'win32', 'Atelier', 'atelier')).toBe('/o/Atelier.exe');
    expect(electronBinary('/o', 'linux', 'Atelier', 'atelier')).toBe('/o/atelier');
  });
});
