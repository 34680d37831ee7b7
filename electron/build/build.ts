/** `npm run build:electron`: bundles main, preload, serve and the metadata and count workers into dist/electron (and the afterPack hook) with esbuild. */
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions, copiedFiles } from './bundles.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const options = bundleOptions(root);
await Promise.all(Object.values(options).map((bundle) => build(bundle)));
for (const file of copiedFiles(root)) {
  await mkdir(dirname(file.to), { recursive: true });
  await copyFile(file.from, file.to);
}
process.stdout.write(
  'Built dist/electron (main.cjs, preload.cjs, serve.mjs, metadata-worker.cjs, count-worker.cjs) and dist/build/after-pack.cjs.\n',
);
