/**
 * Child-process entry for the import bench's file set: `tsx bench/lib/import-generate-main.ts DIR FILES AVG_KB`.
 * Generating in its own process keeps sharp's buffers and the base images out of the measured process's RSS.
 */
import { generateSet } from './import-generate.js';

const [dir, files, avgKb] = process.argv.slice(2);
if (dir === undefined || !(Number(files) > 0) || !(Number(avgKb) > 0)) {
  console.error('usage: import-generate-main.ts DIR FILES AVG_KB');
  process.exit(2);
}
const manifest = await generateSet(dir, Number(files), Number(avgKb), (done) =>
  process.stderr.write(`  generated ${done.toLocaleString('en')} files${process.stderr.isTTY ? '\r' : '\n'}`),
);
process.stdout.write(`${JSON.stringify(manifest)}\n`);
