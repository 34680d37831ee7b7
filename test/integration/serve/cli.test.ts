import { describe, expect, it, vi } from 'vitest';
import { defaultDataDir } from '../../../electron/host/data-dir.js';
import { parseServeArgs, UsageError } from '../../../electron/serve/args.js';
import { runServe, SHUTDOWN_GRACE_MS } from '../../../electron/serve/run.js';
import { createFakeEngine, type FakeEngine } from '../../fakes/engine.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('npm run serve arguments', () => {
  it('defaults to the desktop app data dir, an ephemeral port, loopback and a fresh random token', () => {
    const a = parseServeArgs([], { XDG_CONFIG_HOME: '/x/config' }, 'linux', '/home/ada');
    const b = parseServeArgs([], {}, 'linux', '/home/ada');
    expect(a.dataDir).toBe('/x/config/Atelier/data');
    expect(b.dataDir).toBe('/home/ada/.config/Atelier/data');
    expect(a.port).toBe(0);
    expect(a.host).toBe('127.0.0.1');
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.warnings).toEqual([]);
  });

  it('computes Electron userData per OS', () => {
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Atelier/data');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Atelier\\data',
    );
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: 'relative' }, '/home/ada')).toBe(
      '/home/ada/.config/Atelier/data',
    );
  });

  it('takes --data-dir, --port, --token and warns for a non-loopback --host', () => {
    const args = parseServeArgs(
      ['--data-dir', '/tmp/lib', '--port', '8123', '--token', 'abcdefghijklmnop1234', '--host', '0.0.0.0'],
      {},
      'linux',
      '/h',
    );
    expect(args).toMatchObject({ dataDir: '/tmp/lib', port: 8123, token: 'abcdefghijklmnop1234', host: '0.0.0.0' });
    expect(args.warnings[0]).toMatch(/not a loopback address/);
    expect(parseServeArgs(['--host', 'localhost'], {}, 'linux', '/h').warnings).toEqual([]);
  });

  it.each([
    ['--port', 'http'],
    ['--port', '70000'],
    ['--port', '-1'],
    ['--token', 'short'],
    ['--token', 'has space in it!!!!'],
    ['--bogus', '1'],
  ])('refuses %s %s with usage help', (flag, value) => {
    expect(() => parseServeArgs([flag, value], {}, 'linux', '/h')).toThrow(UsageError);
  });
});

describe('runServe', () => {
  it('prints exactly one line with the URL and shuts down gracefully, once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atelier-cli-'));
    let engine: FakeEngine | undefined;
    const stdout = vi.fn();
    const stderr = vi.fn();
    const handle = await runServe(['--data-dir', join(root, 'data'), '--renderer-dir', join(root, 'renderer')], {
      createKeyring: async () => ({ get: async () => null, set: async () => undefined, delete: async () => undefined }),
      createEngine: async (options) => {
        engine = createFakeEngine(options.dataDir);
        return engine;
      },
      stdout,
      stderr,
    });
    try {
      expect(stdout).toHaveBeenCalledOnce();
      expect(stdout.mock.calls[0]?.[0]).toMatch(
        /^Atelier is serving at http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/,
      );
      expect(stdout.mock.calls[0]?.[0]).toContain(String(handle.server.port));
      // The missing UI build is explained on stderr, never on stdout.
      expect(stderr.mock.calls.join('\n')).toContain('npm run build:renderer');
      await Promise.all([handle.shutdown(), handle.shutdown()]);
      expect(engine?.closedWith).toEqual({ graceMs: SHUTDOWN_GRACE_MS });
      expect(engine?.listenerCount()).toBe(0);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
