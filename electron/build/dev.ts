/**
 * `npm run dev`: the inner loop. Vite rebuilds the renderer into a temp folder on every change (`vite build --watch`)
 * and the headless host (electron/serve.ts) runs under `tsx watch`, restarting when a file it imports changes. The
 * host serves the built renderer exactly as `npm run serve` does (same origin, token and CSP), so nothing in the page
 * or the host knows it is in dev. The port and token are fixed for the session so the open tab survives a restart.
 *
 * Flags: `npm run serve`'s --data-dir, --port, --token and --host. Without --data-dir the host opens a scratch library
 * in the temp folder, removed on exit, never your real one.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { newToken } from '../serve/auth.js';

const root = resolve(import.meta.dirname, '..', '..');
const say = (line: string): void => void process.stderr.write(`[dev] ${line}\n`);

const { values } = parseArgs({
  args: process.argv.slice(2),
  strict: true,
  allowPositionals: false,
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    token: { type: 'string' },
    host: { type: 'string' },
  },
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

const scratch = values['data-dir'] === undefined ? await mkdtemp(join(tmpdir(), 'atelier-dev-data-')) : null;
const dataDir = values['data-dir'] ?? scratch!;
const rendererDir = await mkdtemp(join(tmpdir(), 'atelier-dev-ui-'));

// The first build finishes before the host starts, so the first page load finds the UI.
const built = await build({
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'error',
  build: { outDir: rendererDir, emptyOutDir: true, watch: {} },
});
if (!('on' in built)) throw new Error('vite build --watch returned no watcher');
const watcher = built;
await new Promise<void>((ready) => {
  let first = true;
  watcher.on('event', (event) => {
    if (event.code === 'ERROR') say(`renderer build failed: ${event.error.message}`);
    if (event.code === 'BUNDLE_END') void event.result.close();
    if (event.code !== 'END') return;
    if (first) {
      first = false;
      ready();
    } else say('renderer rebuilt: reload the page');
  });
});

const serveArgs = [
  '--data-dir',
  dataDir,
  '--renderer-dir',
  rendererDir,
  '--port',
  values.port ?? String(await freePort()),
  '--token',
  values.token ?? newToken(),
  ...(values.host === undefined ? [] : ['--host', values.host]),
];
say(`library: ${dataDir}${scratch === null ? '' : ' (scratch, removed on exit)'}`);
const host = spawn(
  join(root, 'node_modules', '.bin', 'tsx'),
  ['watch', '--clear-screen=false', join(root, 'electron', 'serve.ts'), ...serveArgs],
  {
    cwd: root,
    stdio: 'inherit',
  },
);

let stopping = false;
const stop = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  if (host.exitCode === null && host.signalCode === null) {
    const exited = new Promise<void>((done) => host.once('exit', () => done()));
    host.kill('SIGTERM');
    await exited;
  }
  await watcher.close();
  await rm(rendererDir, { recursive: true, force: true });
  if (scratch !== null) await rm(scratch, { recursive: true, force: true });
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
host.on('exit', (code) => void stop(code ?? 0));
