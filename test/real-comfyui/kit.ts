import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real ComfyUI kit (README, setup.sh, start.sh, stop.sh beside the repository in shared/tools/real-comfyui):
 * set up once into a writable COMFY_HOME, then one server per test run on a free port with its own folders.
 */

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the kit is: REAL_COMFYUI_KIT, else ../shared/tools/real-comfyui beside the repository (as CI copies it). */
export function kitDir(): string {
  return process.env.REAL_COMFYUI_KIT ?? resolve(REPO, '../shared/tools/real-comfyui');
}

/** The kit's home (its venv, ComfyUI and models), which must be writable: the kit's own folder is read-only in CI. */
export function comfyHome(): string {
  return process.env.COMFY_HOME ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'real-comfyui');
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(script: string, args: string[], timeoutMs: number): Promise<Ran> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', [join(kitDir(), script), ...args], {
      env: { ...process.env, COMFY_HOME: comfyHome() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

/** The kit as it is now: its scripts and sources by name, size and time, so a changed kit is set up again. */
function kitFingerprint(): string {
  const kit = kitDir();
  const files = [
    'setup.sh',
    'make_ckpt.py',
    'trampoline_shim.py',
    ...readdirSync(join(kit, 'src')).map((f) => join('src', f)),
  ];
  return files.map((f) => `${f}:${statSync(join(kit, f)).size}:${statSync(join(kit, f)).mtimeMs}`).join('\n');
}

const STAMP = () => join(comfyHome(), '.atelier-kit-ready');

/** Whether setup.sh already finished for this very kit, and what it made is still there. */
async function alreadySetUp(): Promise<boolean> {
  const home = comfyHome();
  const made = [
    'venv/bin/python',
    'ComfyUI/main.py',
    'ComfyUI/models/checkpoints/atelier-tiny-sd15.safetensors',
    'ComfyUI/models/upscale_models/atelier-tiny-esrgan-2x.safetensors',
  ];
  if (!made.every((f) => existsSync(join(home, f)))) return false;
  return (await readFile(STAMP(), 'utf8').catch(() => '')) === kitFingerprint();
}

/**
 * Runs setup.sh when the kit's home is missing or was set up from another version of the kit (setup.sh re-checks
 * everything, which takes half a minute even when nothing is missing); throws with the kit's own words when it fails.
 */
export async function setupKit(log: (line: string) => void = () => undefined): Promise<void> {
  const kit = kitDir();
  if (!existsSync(join(kit, 'setup.sh')))
    throw new Error(
      `The real ComfyUI kit is not at ${kit} (set REAL_COMFYUI_KIT to its folder): the real-server suite cannot run without it.`,
    );
  if (process.env.REAL_COMFYUI_SETUP !== 'always' && (await alreadySetUp())) {
    log(`setup.sh: already done in ${comfyHome()} for this kit`);
    return;
  }
  const started = Date.now();
  const ran = await runScript('setup.sh', [], 20 * 60_000);
  if (ran.code !== 0)
    throw new Error(
      `The real ComfyUI kit could not be set up in ${comfyHome()} (setup.sh exited ${String(ran.code)}):\n${tail(ran.stderr || ran.stdout)}`,
    );
  await writeFile(STAMP(), kitFingerprint());
  log(`setup.sh: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address !== 'object') throw new Error('no free port');
  return address.port;
}

export interface RealComfy {
  url: string;
  port: number;
  pid: number;
  /** This server's own input, output and temp folders. */
  dir: string;
  previews: boolean;
  /** Kills the server outright (SIGKILL), as a crash would. */
  kill(): void;
  /** Starts it again on the same port and folders. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a real server with start.sh. Without previews it adds `--preview-method none`, ComfyUI's own default
 * (comfy/cli_args.py), which wins over the kit's `--preview-method auto` because argparse keeps the last value.
 * Without upscale models it gets a base directory of its own whose models are links to the kit's checkpoints only.
 */
export async function startComfy(options: {
  previews: boolean;
  upscaleModels?: boolean;
  /** More ComfyUI flags (e.g. `--extra-model-paths-config` for a test's own LoRAs folder). */
  extraArgs?: string[];
}): Promise<RealComfy> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'atelier-real-comfyui-'));
  for (const sub of ['in', 'out', 'tmp']) await mkdir(join(dir, sub));
  const own: string[] = [];
  if (options.upscaleModels === false) {
    const kitCheckpoints = join(comfyHome(), 'ComfyUI/models/checkpoints');
    await mkdir(join(dir, 'base/models/checkpoints'), { recursive: true });
    await mkdir(join(dir, 'base/custom_nodes'));
    for (const name of (await readdir(kitCheckpoints)).filter((n) => n.endsWith('.safetensors')))
      await symlink(join(kitCheckpoints, name), join(dir, 'base/models/checkpoints', name));
    own.push('--base-directory', join(dir, 'base'));
  }
  const args = [
    String(port),
    ...own,
    '--input-directory',
    join(dir, 'in'),
    '--output-directory',
    join(dir, 'out'),
    '--temp-directory',
    join(dir, 'tmp'),
    ...(options.previews ? [] : ['--preview-method', 'none']),
    ...(options.extraArgs ?? []),
  ];
  const start = async (): Promise<number> => {
    const ran = await runScript('start.sh', args, 4 * 60_000);
    const pid = Number(ran.stdout.trim().split('\n').at(-1));
    if (ran.code !== 0 || !Number.isInteger(pid))
      throw new Error(
        `The real ComfyUI did not start on port ${port} (start.sh exited ${String(ran.code)}):\n${tail(ran.stderr || ran.stdout)}`,
      );
    return pid;
  };
  const pid = await start().catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const server: RealComfy = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    dir,
    previews: options.previews,
    kill: () => process.kill(server.pid, 'SIGKILL'),
    restart: async () => {
      server.pid = await start();
    },
    stop: async () => {
      await runScript('stop.sh', [String(port)], 60_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}
