/**
 * `npm run test:electron`: finds Electron, builds the app as `npm start` does (renderer, main bundles, better-sqlite3
 * for Electron's ABI), then runs test/electron/*.test.ts with vitest. No Electron binary: one line, exit 0.
 * `-- --packaged` runs only the packaged-app check against ATELIER_PACKAGED_APP (no build, no dev Electron needed).
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { MISSING_LINE, findElectronBinary, type BinaryLookup } from './binary.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const PACKAGED_ENV = 'ATELIER_PACKAGED_APP';
/** The runner hands the binary it found to the test files through this. */
export const BINARY_ENV = 'ATELIER_ELECTRON_BINARY';
export const ELECTRON_CONFIG = 'vitest.electron.config.ts';

export interface Step {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface RunnerDeps {
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  /** Runs one step with inherited output and resolves with its exit code. */
  exec: (step: Step) => Promise<number>;
  find?: (env: NodeJS.ProcessEnv) => BinaryLookup;
}

/** npm through the npm that started us (npm_execpath) when there is one: a bare `npm` is npm.cmd on Windows. */
function npmStep(env: NodeJS.ProcessEnv, script: string): Step {
  const npm = env['npm_execpath'];
  return npm !== undefined && npm.endsWith('.js')
    ? { command: process.execPath, args: [npm, 'run', script], env }
    : { command: 'npm', args: ['run', script], env };
}

function vitestStep(env: NodeJS.ProcessEnv, filters: string[]): Step {
  const cli = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  return { command: process.execPath, args: [cli, 'run', '--config', ELECTRON_CONFIG, ...filters], env };
}

export async function runElectronTests(argv: readonly string[], deps: RunnerDeps): Promise<number> {
  const { env, print, exec } = deps;
  const packaged = env[PACKAGED_ENV];
  if (argv.includes('--packaged')) {
    if (packaged === undefined || packaged === '') {
      print(
        `--packaged checks the app \`npm run dist -- --dir\` built: set ${PACKAGED_ENV} to its folder (e.g. release/<version>/linux-unpacked).`,
      );
      return 2;
    }
    return exec(vitestStep(env, ['test/electron/packaged.test.ts']));
  }
  const binary = (deps.find ?? ((e) => findElectronBinary({ env: e })))(env);
  if (!binary.found) {
    print(MISSING_LINE);
    return 0;
  }
  for (const script of ['build', 'native:electron']) {
    const code = await exec(npmStep(env, script));
    if (code !== 0) {
      print(`npm run ${script} failed (exit ${code}): the Electron tests need the built app.`);
      return code;
    }
  }
  print(
    packaged === undefined || packaged === ''
      ? `Electron: ${binary.path}. The packaged app is checked too when ${PACKAGED_ENV} names the folder \`npm run dist -- --dir\` built.`
      : `Electron: ${binary.path}. Packaged app: ${packaged}.`,
  );
  return exec(vitestStep({ ...env, [BINARY_ENV]: binary.path }, []));
}

export function spawnStep(step: Step): Promise<number> {
  return new Promise((done) => {
    const child = spawn(step.command, step.args, {
      cwd: ROOT,
      env: step.env,
      stdio: 'inherit',
      // `npm` alone is a .cmd script on Windows: only a shell runs it.
      shell: process.platform === 'win32' && step.command === 'npm',
    });
    child.on('error', () => done(127));
    child.on('exit', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}
