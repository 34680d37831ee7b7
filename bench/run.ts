/** `npm run bench -- <name> [args]`: runs bench/<name>.ts, which exports `run(args)`. */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.slice(0, -3))
  .sort();

function usage(): string {
  return `usage: npm run bench -- <name> [options]\n  benches: ${available.join(', ')} (store, worker, ui as they land)\n  e.g. npm run bench -- store --jobs 100000`;
}

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === '--help' || !/^[a-z0-9-]+$/.test(name) || !existsSync(join(here, `${name}.ts`))) {
  console.error(name === undefined || name === '--help' ? usage() : `unknown bench "${name}"\n${usage()}`);
  process.exit(name === '--help' ? 0 : 2);
}
const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { run?: (args: string[]) => unknown };
if (typeof mod.run !== 'function') {
  console.error(`bench/${name}.ts does not export run(args)`);
  process.exit(2);
}
await mod.run(args);
