import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../base/logger.js';
import type { Engine, EngineOptions } from '../engine/types.js';
import { createLibraryHost, type LibraryHost } from '../host/library-host.js';
import { pointerPath, readPointer } from '../host/library-pointer.js';
import type { CopyHooks } from '../library/move/copy-library.js';
import { parseServeArgs, UsageError, type ServeArgs } from './args.js';
import { startServer, type RunningServer } from './server.js';

/** Running jobs get this long to finish on Ctrl+C before the database is closed under them. */
export const SHUTDOWN_GRACE_MS = 5_000;

export interface ServeDeps {
  createEngine(options: EngineOptions): Promise<Engine>;
  createKeyring(dataDir: string): Promise<EngineOptions['keyring']>;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** The environment that locates userData (tests point it at a temp folder). */
  env?: NodeJS.ProcessEnv;
  /** Seams into a library move's copy (an e2e test holds it mid-way to watch its progress). */
  moveHooks?: CopyHooks;
}

/** dist/renderer next to the repo root, whether this runs from source (tsx) or from the dist/electron bundle. */
export function findRendererDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let i = 0; i < 4; i += 1) {
    const candidate = join(dir, 'dist', 'renderer');
    if (existsSync(join(dir, 'package.json'))) return candidate;
    dir = dirname(dir);
  }
  return resolve('dist', 'renderer');
}

const stderrLog = (stderr: (line: string) => void): Logger => ({
  info: () => undefined,
  warn: (message, fields) => stderr(`warn: ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`),
  error: (message, fields) => stderr(`error: ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`),
});

/**
 * Without --data-dir the host shares the desktop app's library, wherever a move put it (the app's pointer file);
 * with --data-dir it opens exactly that folder, and a move there reports the new path to give next time.
 */
async function openLibraryHost(args: ServeArgs, deps: ServeDeps, log: Logger): Promise<LibraryHost> {
  const pointerFile = args.dataDirExplicit ? null : pointerPath(args.userData);
  const remembered = pointerFile === null ? null : await readPointer(pointerFile);
  return createLibraryHost({
    open: async (dataDir) => deps.createEngine({ dataDir, keyring: await deps.createKeyring(dataDir), log }),
    dataDir: remembered ?? args.dataDir,
    remembered: remembered !== null,
    defaultDir: args.defaultDir,
    pointerFile,
    log,
    graceMs: SHUTDOWN_GRACE_MS,
    ...(deps.moveHooks === undefined ? {} : { hooks: deps.moveHooks }),
  });
}

export interface ServeHandle {
  server: RunningServer;
  /** The library host: the engine on the current data dir, which a move may switch. */
  engine: LibraryHost;
  /** Stop listening and end streams, then give running jobs the grace period and close the store. */
  shutdown(): Promise<void>;
}

export async function runServe(argv: string[], deps: ServeDeps): Promise<ServeHandle> {
  const args = parseServeArgs(argv, deps.env);
  for (const warning of args.warnings) deps.stderr(warning);
  const rendererDir = args.rendererDir ?? findRendererDir();
  if (!existsSync(join(rendererDir, 'index.html'))) {
    deps.stderr(`The UI is not built (${rendererDir} has no index.html): run \`npm run build:renderer\`.`);
  }
  const log = stderrLog(deps.stderr);
  const engine = await openLibraryHost(args, deps, log);
  let server: RunningServer;
  try {
    server = await startServer({
      engine,
      rendererDir,
      token: args.token,
      host: args.host,
      port: args.port,
      onUnexpected: (channel, error) => log.error('unexpected error', { channel, error: String(error) }),
    });
  } catch (error) {
    await engine.close({ graceMs: 0 });
    throw error;
  }
  deps.stdout(`Atelier is serving at ${server.url}`);
  let closing: Promise<void> | null = null;
  return {
    server,
    engine,
    shutdown() {
      closing ??= (async () => {
        await server.close();
        await engine.close({ graceMs: SHUTDOWN_GRACE_MS });
      })();
      return closing;
    },
  };
}

/** The CLI around runServe: one URL line on stdout, graceful SIGINT/SIGTERM, a second signal forces the exit. */
export async function main(argv: string[], deps: ServeDeps): Promise<void> {
  let handle: ServeHandle;
  try {
    handle = await runServe(argv, deps);
  } catch (error) {
    deps.stderr(error instanceof UsageError ? error.message : `Atelier could not start: ${(error as Error).message}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
    return;
  }
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      deps.stderr(`${signal} again: exiting now.`);
      process.exit(130);
    }
    signalled = true;
    deps.stderr(`${signal}: finishing running jobs (up to ${SHUTDOWN_GRACE_MS / 1000} s), then closing the library…`);
    handle.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        deps.stderr(`Shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
