/**
 * `tsx electron/build/cross-arch-natives.ts`: prints the native packages (name@version, from package-lock.json) the
 * app needs for the architectures electron-builder.yml packages on this OS but npm skipped because they are not this
 * machine's (a dmg for x64 built on an arm64 Mac needs @img/sharp-darwin-x64). The release workflow installs them.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optional?: boolean;
  dev?: boolean;
}

/** Optional, non-dev packages built for `platform` and one of `arches` but not for `hostArch`. */
export function crossArchNatives(
  lock: { packages: Record<string, LockEntry> },
  platform: string,
  arches: string[],
  hostArch: string,
): string[] {
  const specs: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.optional !== true || entry.dev === true || entry.version === undefined) continue;
    if (entry.os?.includes(platform) !== true || entry.cpu === undefined || entry.cpu.includes(hostArch)) continue;
    if (!entry.cpu.some((cpu) => arches.includes(cpu))) continue;
    // Electron's Linux builds link against glibc; musl builds would never load.
    if (entry.libc !== undefined && !entry.libc.includes('glibc')) continue;
    specs.push(`${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
  }
  return specs.sort();
}

const BUILDER_KEY: Record<string, 'mac' | 'win' | 'linux'> = { darwin: 'mac', win32: 'win', linux: 'linux' };

/** The architectures electron-builder.yml packages for a platform. */
export function builderArches(
  config: Record<string, { target?: { arch?: string[] }[] } | undefined>,
  platform: string,
): string[] {
  const key = BUILDER_KEY[platform];
  const targets = key === undefined ? [] : (config[key]?.target ?? []);
  return [...new Set(targets.flatMap((target) => target.arch ?? []))];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..', '..');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    { target?: { arch?: string[] }[] }
  >;
  const specs = crossArchNatives(lock, process.platform, builderArches(config, process.platform), process.arch);
  process.stdout.write(specs.join('\n') + (specs.length > 0 ? '\n' : ''));
}
