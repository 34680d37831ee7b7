import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MISSING_LINE, findElectronBinary } from '../../electron/binary.js';
import { BINARY_ENV, ELECTRON_CONFIG, ROOT, runElectronTests, type Step } from '../../electron/runner.js';

/**
 * `npm run test:electron` here, where Electron cannot run: with no binary it says so in one line and passes; with a
 * binary (a fake file) it goes on to build the app and run the Electron suite, and fails when they fail.
 */
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-runner-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder shaped like node_modules/electron after install.js ran (path.txt + dist/<binary>), or before. */
function fakeElectronPackage(withBinary: boolean): string {
  const dir = scratch();
  writeFileSync(join(dir, 'path.txt'), 'electron');
  if (withBinary) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '#!/bin/sh\n');
  }
  return dir;
}

function recorder(codes: Record<string, number> = {}) {
  const steps: Step[] = [];
  const lines: string[] = [];
  const label = (step: Step): string =>
    step.args.includes('run') && step.args.includes('--config') ? 'vitest' : (step.args.at(-1) ?? '');
  return {
    steps,
    lines,
    labels: () => steps.map(label),
    deps: (env: NodeJS.ProcessEnv, electronDir: string) => ({
      env,
      print: (line: string) => lines.push(line),
      exec: async (step: Step) => {
        steps.push(step);
        return codes[label(step)] ?? 0;
      },
      find: (e: NodeJS.ProcessEnv) => findElectronBinary({ env: e, electronDir, platform: 'linux' }),
    }),
  };
}

describe('finding the Electron binary', () => {
  it('reports none without path.txt, none when the file path.txt names is missing, and the file when it is there', () => {
    const bare = scratch();
    expect(findElectronBinary({ electronDir: bare, env: {}, platform: 'linux' }).found).toBe(false);
    expect(findElectronBinary({ electronDir: fakeElectronPackage(false), env: {}, platform: 'linux' }).found).toBe(
      false,
    );
    const pkg = fakeElectronPackage(true);
    expect(findElectronBinary({ electronDir: pkg, env: {}, platform: 'linux' })).toEqual({
      found: true,
      path: join(pkg, 'dist', 'electron'),
    });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH as electron/index.js does, with the per-OS name when path.txt is absent', () => {
    const dist = scratch();
    writeFileSync(join(dist, 'electron.exe'), '');
    expect(
      findElectronBinary({ electronDir: scratch(), env: { ELECTRON_OVERRIDE_DIST_PATH: dist }, platform: 'win32' }),
    ).toEqual({ found: true, path: join(dist, 'electron.exe') });
    expect(
      findElectronBinary({ electronDir: scratch(), env: { ELECTRON_OVERRIDE_DIST_PATH: dist }, platform: 'linux' })
        .found,
    ).toBe(false);
  });
});

describe('the runner', () => {
  it('with no binary prints exactly the one line and exits 0, building and running nothing', async () => {
    const run = recorder();
    const code = await runElectronTests([], run.deps({}, fakeElectronPackage(false)));
    expect(code).toBe(0);
    expect(run.lines).toEqual([MISSING_LINE]);
    expect(run.steps).toEqual([]);
  });

  it('with a binary builds the app as npm start does, then runs the Electron suite with that binary', async () => {
    const pkg = fakeElectronPackage(true);
    const run = recorder();
    const code = await runElectronTests([], run.deps({ PATH: '/usr/bin' }, pkg));
    expect(code).toBe(0);
    expect(run.labels()).toEqual(['build', 'native:electron', 'vitest']);
    const suite = run.steps[2]!;
    expect(suite.args).toContain(ELECTRON_CONFIG);
    expect(suite.env[BINARY_ENV]).toBe(join(pkg, 'dist', 'electron'));
    expect(run.lines).not.toContain(MISSING_LINE);
  });

  it('fails when the suite fails, and stops before the suite when the build fails', async () => {
    const failing = recorder({ vitest: 1 });
    expect(await runElectronTests([], failing.deps({}, fakeElectronPackage(true)))).toBe(1);
    const broken = recorder({ 'native:electron': 3 });
    expect(await runElectronTests([], broken.deps({}, fakeElectronPackage(true)))).toBe(3);
    expect(broken.labels()).toEqual(['build', 'native:electron']);
  });

  it('--packaged runs only the packaged check, and asks for ATELIER_PACKAGED_APP when it is unset', async () => {
    const unset = recorder();
    expect(await runElectronTests(['--packaged'], unset.deps({}, fakeElectronPackage(false)))).toBe(2);
    expect(unset.steps).toEqual([]);
    expect(unset.lines.join('\n')).toContain('ATELIER_PACKAGED_APP');
    const set = recorder();
    expect(
      await runElectronTests(
        ['--packaged'],
        set.deps({ ATELIER_PACKAGED_APP: '/r/linux-unpacked' }, fakeElectronPackage(false)),
      ),
    ).toBe(0);
    expect(set.labels()).toEqual(['vitest']);
    expect(set.steps[0]!.args).toContain('test/electron/packaged.test.ts');
  });

  it('as `npm run test:electron` with no binary: the one line on stdout and exit status 0', () => {
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    // An override folder with no binary in it: missing on every machine, whether or not Electron is installed.
    const result = spawnSync(process.execPath, [tsx, join(ROOT, 'test', 'electron', 'run.ts')], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: scratch() },
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${MISSING_LINE}\n`);
  }, 30_000);
});
