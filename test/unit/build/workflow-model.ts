/** Reads the GitHub workflows as data and answers what a runner would do with them, for the workflow tests. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

export interface Job {
  name?: string;
  needs?: string | string[];
  'runs-on': string;
  permissions?: Record<string, string>;
  strategy?: { matrix: { os?: string[]; include?: Record<string, string>[] } };
  env?: Record<string, string>;
  steps: Step[];
}

export interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

export const readText = (relative: string): string => readFileSync(join(ROOT, relative), 'utf8');
export const workflowText = (name: string): string => readText(`.github/workflows/${name}`);
export const parseWorkflow = (text: string): Workflow => parse(text) as Workflow;

/** The `runner.os` a hosted label reports, as `if:` conditions see it. */
export function runnerOs(label: string): 'Linux' | 'macOS' | 'Windows' {
  if (label.startsWith('ubuntu')) return 'Linux';
  if (label.startsWith('macos')) return 'macOS';
  if (label.startsWith('windows')) return 'Windows';
  throw new Error(`Unknown runner label ${label}`);
}

/** The OS labels a job's matrix expands to, from `os:` or `include[].os`. */
export function matrixOses(job: Job): string[] {
  const matrix = job.strategy?.matrix;
  return matrix?.os ?? matrix?.include?.map((entry) => String(entry['os'])) ?? [];
}

/** Whether a step runs on an OS in a green run; only the condition forms these workflows use are understood. */
export function runsOn(step: Step, os: 'Linux' | 'macOS' | 'Windows'): boolean {
  if (step.if === undefined) return true;
  if (step.if.trim() === 'failure()') return false;
  const match = /^\s*runner\.os\s*(==|!=)\s*'(\w+)'\s*$/.exec(step.if);
  if (match === null) throw new Error(`Condition not understood by the test: ${step.if}`);
  return match[1] === '==' ? match[2] === os : match[2] !== os;
}

/** Lines of a step's script, without comments and blank lines. */
export const commands = (step: Step): string[] =>
  (step.run ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

export function indexOfRun(steps: Step[], command: string): number {
  return steps.findIndex((step) => commands(step).some((line) => line === command || line === `npx ${command}`));
}

/** Parses a GITHUB_ENV file (NAME=value and NAME<<DELIMITER blocks) into a map. */
export function parseGithubEnv(text: string): Record<string, string> {
  const lines = text.split('\n');
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([A-Za-z_][A-Za-z0-9_]*)<<(.+)$/.exec(line);
    if (block !== null) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== block[2]; i++) value.push(lines[i] ?? '');
      if (i >= lines.length) throw new Error(`GITHUB_ENV block ${block[1]} is never closed`);
      out[block[1] as string] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    } else if (line !== '') {
      throw new Error(`GITHUB_ENV line not understood: ${line}`);
    }
  }
  return out;
}

/**
 * Runs a bash step as the runner does (`bash --noprofile --norc -eo pipefail`): its `${{ secrets.X }}` and
 * `${{ matrix.X }}` env entries take the given values (missing ones are empty, as on GitHub), GITHUB_ENV is a temp file. Returns the log and
 * what the step exported.
 */
export interface BashOptions {
  /** Part of the step to run instead of all of it. */
  script?: string | undefined;
  cwd?: string;
  /** What the runner itself sets (RUNNER_OS...); PATH here goes before the machine's. */
  env?: Record<string, string>;
  /** Values of `${{ matrix.X }}` in the step's env. */
  matrix?: Record<string, string>;
}

export function runBashStep(
  step: Step,
  secrets: Record<string, string>,
  options: BashOptions = {},
): { log: string; exported: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-gh-env-'));
  try {
    const githubEnv = join(dir, 'env');
    const { PATH: extraPath, ...runnerEnv } = options.env ?? {};
    const path = [extraPath, process.env['PATH']].filter((p) => p !== undefined && p !== '').join(delimiter);
    const env: Record<string, string> = { ...runnerEnv, PATH: path, GITHUB_ENV: githubEnv };
    for (const [key, value] of Object.entries(step.env ?? {})) {
      const ref = /^\$\{\{\s*(secrets|matrix)\.(\w+)\s*\}\}$/.exec(value);
      const context = ref?.[1] === 'matrix' ? (options.matrix ?? {}) : secrets;
      env[key] = ref !== null ? (context[ref[2] as string] ?? '') : value;
    }
    const result = spawnSync(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', options.script ?? step.run ?? ''],
      { cwd: options.cwd ?? ROOT, env, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`Step "${step.name}" failed: ${result.stdout}${result.stderr}`);
    let exported: Record<string, string> = {};
    try {
      exported = parseGithubEnv(readFileSync(githubEnv, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return { log: result.stdout, exported };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
