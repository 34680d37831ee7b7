import { seedLargeLibrary } from '../../test/fixtures/large-library.js';
import { mkdtempSync, rmSync } from 'node:fs';
const dir = mkdtempSync('/tmp/i12b-seed-');
const n = Number(process.argv[2]);
const t = Date.now();
await seedLargeLibrary(dir, n, Number(process.argv[3] ?? 300), { progress: (d) => console.log(d, Date.now() - t) });
console.log(`seeded ${n} in ${Date.now() - t} ms`, process.memoryUsage().rss / 1e6);
rmSync(dir, { recursive: true, force: true });
