/**
 * `npm run native:electron [-- --arch x64,arm64 | --dist]`: builds better-sqlite3 for Electron's ABI into
 * .electron-native/<platform>-<arch>/better_sqlite3.node, from a scratch copy of the package, so node_modules keeps
 * the Node build `npm test` uses. The app passes this file as better-sqlite3's `nativeBinding`. Skips a target
 * whose stamp (Electron + better-sqlite3 versions) already matches.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BINDING_FILE, nativeTargetDir } from '../desktop/native-binding.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const version = (pkg: string): string =>
  (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

function run(command: string, args: string[], cwd: string): boolean {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_runtime: 'electron' };
  // A machine-wide `nodedir` (npm config or env) would make node-gyp build against Node's headers, not Electron's.
  for (const key of Object.keys(env)) if (key.toLowerCase() === 'npm_config_nodedir') delete env[key];
  env['npm_config_nodedir'] = '';
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env });
  return result.status === 0;
}

/** A binary that plain Node can load was built for Node's ABI, not Electron's: refuse it rather than crash the app. */
function loadsUnderNode(file: string): boolean {
  const probe = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)})`], { stdio: 'ignore' });
  return probe.status === 0;
}

async function buildTarget(platform: string, arch: string, electron: string, sqlite: string): Promise<void> {
  const target = nativeTargetDir(root, platform, arch);
  const stamp = JSON.stringify({ electron, betterSqlite3: sqlite, platform, arch });
  const stampFile = join(target, 'stamp.json');
  if (
    existsSync(join(target, BINDING_FILE)) &&
    existsSync(stampFile) &&
    (await readFile(stampFile, 'utf8')) === stamp
  ) {
    process.stdout.write(`better-sqlite3 for Electron ${electron} (${platform}-${arch}) is up to date.\n`);
    return;
  }
  const scratch = await mkdtemp(join(tmpdir(), 'atelier-native-'));
  try {
    const copy = join(scratch, 'better-sqlite3');
    // A copy without build/: prebuild-install and node-gyp write there, never into node_modules.
    await cp(join(root, 'node_modules', 'better-sqlite3'), copy, {
      recursive: true,
      filter: (source) => !source.startsWith(join(root, 'node_modules', 'better-sqlite3', 'build')),
    });
    const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js');
    const flags = ['--runtime', 'electron', '--target', electron, '--arch', arch, '--platform', platform];
    let ok = existsSync(prebuild) && run(process.execPath, [prebuild, ...flags], copy);
    if (!ok) {
      process.stdout.write('No prebuilt binary: compiling better-sqlite3 against Electron headers with node-gyp…\n');
      const gyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
      const gypArgs = [
        'rebuild',
        '--release',
        `--target=${electron}`,
        `--arch=${arch}`,
        '--runtime=electron',
        '--dist-url=https://electronjs.org/headers',
      ];
      ok = existsSync(gyp)
        ? run(process.execPath, [gyp, ...gypArgs], copy)
        : run('npx', ['--yes', 'node-gyp', ...gypArgs], copy);
    }
    const built = join(copy, 'build', 'Release', BINDING_FILE);
    if (!ok || !existsSync(built)) {
      throw new Error(
        `Could not build better-sqlite3 for Electron ${electron} (${platform}-${arch}). It needs internet (prebuilt download) or a C++ toolchain.`,
      );
    }
    if (platform === process.platform && arch === process.arch && loadsUnderNode(built)) {
      throw new Error(
        `The build of better-sqlite3 came out for Node's ABI, not Electron ${electron}'s. Check that npm's "nodedir" setting is not forcing Node headers.`,
      );
    }
    await mkdir(target, { recursive: true });
    await copyFile(built, join(target, BINDING_FILE));
    await writeFile(stampFile, stamp);
    process.stdout.write(`Built ${join(target, BINDING_FILE)}.\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The architectures electron-builder.yml packages on each OS (`--dist`). */
const DIST_ARCHES: Record<string, string> = { darwin: 'x64,arm64', win32: 'x64,arm64', linux: 'x64' };

const { values } = parseArgs({
  options: {
    arch: { type: 'string' },
    platform: { type: 'string', default: process.platform },
    dist: { type: 'boolean', default: false },
  },
});
const platform = values.platform ?? process.platform;
const electron = version('electron');
const sqlite = version('better-sqlite3');
const arches = values.arch ?? (values.dist ? (DIST_ARCHES[platform] ?? process.arch) : process.arch);
for (const arch of arches.split(',')) {
  await buildTarget(platform, arch.trim(), electron, sqlite);
}
