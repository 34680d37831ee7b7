import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir, userDataDir } from '../host/data-dir.js';
import { isLoopbackHost, newToken } from './auth.js';

export interface ServeArgs {
  dataDir: string;
  /** Named with --data-dir: used as given, never replaced by a remembered folder, and a move is not remembered. */
  dataDirExplicit: boolean;
  /** The desktop app's userData: its pointer file says where a moved library went (shared with the app). */
  userData: string;
  /** The data dir a new library gets on this computer. */
  defaultDir: string;
  port: number;
  token: string;
  host: string;
  rendererDir?: string;
  /** Printed to stderr before the server starts (stdout carries only the one URL line). */
  warnings: string[];
}

export class UsageError extends Error {}

export const USAGE =
  'Usage: npm run serve -- [--data-dir DIR] [--port N] [--token T] [--host 127.0.0.1] [--renderer-dir DIR]';

export function parseServeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): ServeArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        host: { type: 'string' },
        'renderer-dir': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const warnings: string[] = [];
  const portText = values.port ?? '0';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new UsageError(`--port must be 0..65535, not "${portText}".\n${USAGE}`);
  const token = values.token ?? newToken();
  if (token.length < 16 || !/^[A-Za-z0-9._~-]+$/.test(token)) {
    throw new UsageError('--token must be at least 16 characters of letters, digits, . _ ~ or -.');
  }
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    warnings.push(
      `Warning: --host ${host} is not a loopback address. Anyone who can reach it and learns the token controls this library.`,
    );
  }
  return {
    dataDir: resolve(values['data-dir'] ?? defaultDataDir(platform, env, home)),
    dataDirExplicit: values['data-dir'] !== undefined,
    userData: userDataDir(platform, env, home),
    defaultDir: defaultDataDir(platform, env, home),
    port,
    token,
    host,
    ...(values['renderer-dir'] === undefined ? {} : { rendererDir: resolve(values['renderer-dir']) }),
    warnings,
  };
}
