/**
 * `npm run pack:check`: the packaging check CI can run offline. It packs a Linux `--dir` build with
 * electron-builder (which validates electron-builder.yml first) against a placeholder Electron: a stub executable
 * carrying a real fuse wire, so the afterPack fuse step runs for real. Then it checks what users would get: the
 * bundles, the renderer and production deps inside app.asar; the native modules unpacked; the fuses flipped.
 * Prerequisite: `npm run build` (the script does it). Nothing is downloaded: electronDist is local, rebuilds are off.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listPackage } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { Arch, Platform, build, type Configuration } from 'electron-builder';
import { BINDING_FILE, nativeTargetDir } from '../desktop/native-binding.js';
import { FUSE_SETTINGS } from './fuses.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** The wire's byte values (ASCII '1' and '0'), as @electron/fuses writes them. */
const ENABLE = 49;
const DISABLE = 48;

/** An "electron" that is a shell script with Electron's fuse wire (V1, 8 fuses, Electron's defaults) embedded. */
async function placeholderElectron(dir: string): Promise<void> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001')]);
  const script = Buffer.concat([
    Buffer.from('#!/bin/sh\n# placeholder Electron for the packaging check\n# '),
    wire,
    Buffer.from('\nexit 0\n'),
  ]);
  await writeFile(join(dir, 'electron'), script, { mode: 0o755 });
  await writeFile(join(dir, 'LICENSE'), 'placeholder');
  await writeFile(join(dir, 'version'), 'placeholder');
}

type FileEntry = string | { from: string; to: string; filter?: string[] };

function readConfig(): Configuration {
  // js-yaml ships with electron-builder; only its load() is needed.
  const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
  const text = createRequire(import.meta.url)('node:fs').readFileSync(
    join(root, 'electron-builder.yml'),
    'utf8',
  ) as string;
  return yaml.load(text) as Configuration;
}

const failures: string[] = [];
const expect = (condition: boolean, message: string): void => {
  if (!condition) failures.push(message);
};

async function main(): Promise<void> {
  for (const built of [
    'dist/electron/main.cjs',
    'dist/electron/preload.cjs',
    'dist/renderer/index.html',
    'dist/build/after-pack.cjs',
  ]) {
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  }
  const scratch = await mkdtemp(join(tmpdir(), 'atelier-pack-'));
  try {
    const electronDist = join(scratch, 'electron-dist');
    await placeholderElectron(electronDist);

    // Use the real Electron build of better-sqlite3 when present; otherwise the Node build stands in (the check is
    // about where the file lands, not which ABI it has).
    let nativeDir = nativeTargetDir(root, 'linux', 'x64');
    if (!existsSync(join(nativeDir, BINDING_FILE))) {
      nativeDir = join(scratch, 'native');
      await mkdir(nativeDir, { recursive: true });
      await copyFile(
        join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', BINDING_FILE),
        join(nativeDir, BINDING_FILE),
      );
    }
    const config = readConfig();
    const files = (config.files as FileEntry[]).map((entry) =>
      typeof entry === 'object' && entry.from.startsWith('.electron-native') ? { ...entry, from: nativeDir } : entry,
    );
    const output = join(scratch, 'out');
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget('dir', Arch.x64),
      publish: 'never',
      config: { electronDist, files, directories: { output, buildResources: 'electron/build/resources' } },
    });

    const appDir = join(output, 'linux-unpacked');
    const asar = join(appDir, 'resources', 'app.asar');
    expect(existsSync(asar), 'app.asar was not produced');
    const entries = new Set(listPackage(asar, { isPack: false }).map((p) => p.replaceAll('\\', '/')));
    for (const required of [
      '/package.json',
      '/dist/electron/main.cjs',
      '/dist/electron/preload.cjs',
      '/dist/electron/render-worker.mjs',
      '/dist/electron/render-noise.mjs',
      '/dist/electron/render-layers.mjs',
      '/dist/electron/metadata-worker.cjs',
      '/dist/electron/count-worker.cjs',
      '/dist/renderer/index.html',
      '/node_modules/better-sqlite3/lib/index.js',
      '/node_modules/zod/package.json',
      '/node_modules/sharp/package.json',
      '/node_modules/@parcel/watcher/index.js',
      '/node_modules/detect-libc/package.json',
    ]) {
      expect(entries.has(required), `app.asar lacks ${required}`);
    }
    for (const [prefix, why] of [
      ['/electron/', 'TypeScript sources'],
      ['/test/', 'tests'],
      ['/renderer/', 'renderer sources'],
      ['/node_modules/electron/', 'the electron package'],
      ['/node_modules/vitest/', 'dev dependencies'],
      ['/node_modules/better-sqlite3/build/', "better-sqlite3's Node build"],
      ['/dist/build/', 'the build hook'],
    ] as const) {
      expect(![...entries].some((p) => p.startsWith(prefix)), `app.asar must not contain ${why} (${prefix})`);
    }
    expect(![...entries].some((p) => p.endsWith('.map')), 'app.asar must not contain source maps');

    const unpacked = join(appDir, 'resources', 'app.asar.unpacked');
    expect(existsSync(join(unpacked, 'native', BINDING_FILE)), `app.asar.unpacked lacks native/${BINDING_FILE}`);
    const imgDir = join(unpacked, 'node_modules', '@img');
    const sharpNative = existsSync(imgDir)
      ? (await readdir(imgDir, { recursive: true })).some((f) => String(f).endsWith('.node'))
      : false;
    expect(sharpNative, "sharp's native @img binary is not unpacked");
    const watcherNative = join(unpacked, 'node_modules', '@parcel', 'watcher-linux-x64-glibc', 'watcher.node');
    expect(existsSync(watcherNative), "@parcel/watcher's native binary is not unpacked");

    const fuses = await getCurrentFuseWire(join(appDir, 'atelier'));
    for (const fuse of FUSE_SETTINGS) {
      const want = fuse.enabled ? ENABLE : DISABLE;
      expect(
        (fuses as unknown as Record<number, number>)[fuse.option] === want,
        `fuse ${fuse.option} is ${String((fuses as unknown as Record<number, number>)[fuse.option])}, expected ${want}`,
      );
    }

    if (failures.length > 0) {
      process.stderr.write(`Packaging check failed:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(
        `Packaging check passed: ${entries.size} entries in app.asar, natives unpacked, ${FUSE_SETTINGS.length} fuses set.\n`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
// process.exitCode alone ends the run with 0 here (something in electron-builder resets it): exit explicitly.
if (failures.length > 0) process.exit(1);
