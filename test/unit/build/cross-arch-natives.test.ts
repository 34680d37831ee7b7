import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { builderArches, crossArchNatives } from '../../../electron/build/cross-arch-natives.js';
import { parseWorkflow, readText, runBashStep, type Step } from './workflow-model.js';

const lock = JSON.parse(readText('package-lock.json')) as { packages: Record<string, { version?: string }> };
const config = parse(readText('electron-builder.yml')) as Record<string, { target?: { arch?: string[] }[] }>;
const version = (name: string): string => lock.packages[`node_modules/${name}`]?.version ?? 'missing';
const expected = (names: string[]): string[] => names.map((name) => `${name}@${version(name)}`).sort();

describe('native packages for the other architecture', () => {
  it('an arm64 Mac packaging x64 too gets the x64 sharp, libvips and watcher binaries, nothing for the build tools', () => {
    expect(builderArches(config, 'darwin').sort()).toEqual(['arm64', 'x64']);
    expect(crossArchNatives(lock, 'darwin', builderArches(config, 'darwin'), 'arm64')).toEqual(
      expected(['@img/sharp-darwin-x64', '@img/sharp-libvips-darwin-x64', '@parcel/watcher-darwin-x64']),
    );
  });

  it('x64 Windows packaging arm64 too gets the arm64 binaries and no ia32 ones', () => {
    expect(crossArchNatives(lock, 'win32', builderArches(config, 'win32'), 'x64')).toEqual(
      expected(['@img/sharp-win32-arm64', '@parcel/watcher-win32-arm64']),
    );
  });

  it('Linux packages only its own architecture: nothing to add', () => {
    expect(builderArches(config, 'linux')).toEqual(['x64']);
    expect(crossArchNatives(lock, 'linux', ['x64'], 'x64')).toEqual([]);
  });

  it('never picks musl builds for a glibc Electron', () => {
    const packages = {
      'node_modules/@img/sharp-linuxmusl-arm64': {
        version: '1.0.0',
        os: ['linux'],
        cpu: ['arm64'],
        libc: ['musl'],
        optional: true,
      },
      'node_modules/@img/sharp-linux-arm64': {
        version: '1.0.0',
        os: ['linux'],
        cpu: ['arm64'],
        libc: ['glibc'],
        optional: true,
      },
    };
    expect(crossArchNatives({ packages }, 'linux', ['x64', 'arm64'], 'x64')).toEqual(['@img/sharp-linux-arm64@1.0.0']);
  });

  it('the release workflow installs what the script lists, before building, and nothing when it lists nothing', () => {
    const build = parseWorkflow(readText('.github/workflows/release.yml')).jobs['build'];
    const step = build?.steps.find((s) => s.run?.includes('electron/build/cross-arch-natives.ts')) as Step;
    const at = (name: string): number => build?.steps.findIndex((s) => s.run?.trim() === name) ?? -1;
    expect(at('npm ci --no-audit --no-fund')).toBeLessThan(build?.steps.indexOf(step) ?? -1);
    expect(build?.steps.indexOf(step)).toBeLessThan(at('npm run dist'));
    expect(step.if).toBeUndefined();
    const bin = mkdtempSync(join(tmpdir(), 'atelier-bin-'));
    try {
      const fake = (name: string, body: string): void => {
        writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      fake('npm', 'echo "npm $*"');
      fake('npx', 'printf "@img/sharp-darwin-x64@0.35.5\\n@parcel/watcher-darwin-x64@2.6.0\\n"');
      const { log } = runBashStep(step, {}, { env: { PATH: bin } });
      expect(log).toContain(
        'npm install --no-save --force --no-audit --no-fund @img/sharp-darwin-x64@0.35.5 @parcel/watcher-darwin-x64@2.6.0\n',
      );
      fake('npx', 'true');
      const none = runBashStep(step, {}, { env: { PATH: bin } });
      expect(none.log.trim()).toBe('No other architecture to add');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
