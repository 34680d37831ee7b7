/**
 * The renderer built by Vite into a temp folder of its own, so builds never race on dist/. Kept apart from harness.ts
 * so vitest's global setup (global-setup.ts) can build without loading the engine or the browser driver.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface BuiltRenderer {
  dir: string;
  remove(): Promise<void>;
}

export async function buildRendererInto(): Promise<BuiltRenderer> {
  const dir = await mkdtemp(join(tmpdir(), 'atelier-ui-'));
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'error',
      build: { outDir: dir, emptyOutDir: true },
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
