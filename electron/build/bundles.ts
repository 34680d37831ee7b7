import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';

/**
 * The Node-side bundles. main and preload are CommonJS (Electron's `main` entry; a sandboxed preload can only
 * be one CommonJS file that requires nothing but 'electron'). serve is ESM so import.meta.url finds the worker
 * script next to it. npm packages stay external: native ones must be, and electron-builder ships the rest.
 */
export function bundleOptions(
  root: string,
): Record<'main' | 'preload' | 'serve' | 'metadataWorker' | 'countWorker' | 'afterPack', BuildOptions> {
  const common: BuildOptions = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    legalComments: 'none',
  };
  return {
    main: {
      ...common,
      entryPoints: [join(root, 'electron', 'glue', 'main.ts')],
      outfile: join(root, 'dist', 'electron', 'main.cjs'),
      format: 'cjs',
      packages: 'external',
      // worker-pool.ts reads import.meta.url only when it exists and falls back to __filename in a CJS bundle.
      logOverride: { 'empty-import-meta': 'silent' },
    },
    preload: {
      ...common,
      entryPoints: [join(root, 'electron', 'glue', 'preload.ts')],
      outfile: join(root, 'dist', 'electron', 'preload.cjs'),
      format: 'cjs',
      target: 'chrome130',
      // Everything but 'electron' is inlined: the sandbox offers no require() for anything else.
      external: ['electron'],
    },
    serve: {
      ...common,
      entryPoints: [join(root, 'electron', 'serve.ts')],
      outfile: join(root, 'dist', 'electron', 'serve.mjs'),
      format: 'esm',
      packages: 'external',
    },
    // The thread that reads images' settings, loaded by path next to main.cjs and serve.mjs (metadata-pool.ts).
    metadataWorker: {
      ...common,
      entryPoints: [join(root, 'electron', 'library', 'readers', 'metadata-worker.ts')],
      outfile: join(root, 'dist', 'electron', 'metadata-worker.cjs'),
      format: 'cjs',
      packages: 'external',
    },
    // The thread that counts a query's matches on its own connection, loaded by path like the one above (count-pool.ts).
    countWorker: {
      ...common,
      entryPoints: [join(root, 'electron', 'db', 'count-worker.ts')],
      outfile: join(root, 'dist', 'electron', 'count-worker.cjs'),
      format: 'cjs',
      packages: 'external',
    },
    // The electron-builder hook; under dist/build so it is never packed into the app.
    afterPack: {
      ...common,
      entryPoints: [join(root, 'electron', 'build', 'after-pack.ts')],
      outfile: join(root, 'dist', 'build', 'after-pack.cjs'),
      format: 'cjs',
      sourcemap: false,
      packages: 'external',
    },
  };
}

/** Files copied verbatim next to the bundles (the builtin provider's worker is loaded by path, not imported). */
export function copiedFiles(root: string): { from: string; to: string }[] {
  // The worker imports its two siblings by relative path, so all three sit side by side.
  return ['render-worker.mjs', 'render-noise.mjs', 'render-layers.mjs'].map((name) => ({
    from: join(root, 'electron', 'providers', 'builtin', name),
    to: join(root, 'dist', 'electron', name),
  }));
}
