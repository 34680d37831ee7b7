/**
 * The library folder vanishing under a running engine (a drive unplugged, a folder deleted): every write is refused
 * with `storage` in words a person understands instead of answering ok into an unlinked database, nothing crashes,
 * and the same folder coming back carries on without a restart; a different copy restored in its place needs one.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/types.js';
import { createScriptedProvider, scriptedEntry, type ScriptedProvider } from '../fakes/scripted-provider.js';
import { memoryKeyring, waitFor, waitForStatus } from '../integration/engine/harness.js';
import { rejection, watchProcessCrashes } from './helpers.js';
import { CAN_MOUNT, tryMount, unmount } from './mount.js';

const base = { provider: 'scripted', prompt: 'a lighthouse at dusk', width: 64, height: 64, count: 1 } as const;
const GONE = /library folder \(.*\) is gone — was its drive disconnected\? Reconnect it/;
const REPLACED = /was replaced by another copy while Atelier was running.*start it again/;

async function expectStorage(call: Promise<unknown>, message: RegExp): Promise<void> {
  const error = (await rejection(call)) as AppError;
  expect(error).toBeInstanceOf(AppError);
  expect(error.code).toBe('storage');
  expect(error.message).toMatch(message);
}

describe('the data dir removed or unmounted while the engine runs', () => {
  let root: string;
  let engine: Engine | undefined;
  const cleanups: Array<() => void> = [];
  afterEach(async () => {
    await engine?.close({ graceMs: 0 }).catch(() => undefined);
    engine = undefined;
    for (const c of cleanups.splice(0).reverse()) c();
    rmSync(root, { recursive: true, force: true });
  });

  async function open(dataDir: string, provider: ScriptedProvider): Promise<Engine> {
    engine = await createEngine(
      {
        dataDir,
        keyring: memoryKeyring(),
      },
      {
        providers: [scriptedEntry(provider)],
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
      },
    );
    return engine;
  }

  /** Every kind of write a person makes is refused with `message`; reads of the history still answer. */
  async function expectWritesRefused(e: Engine, keptId: string, message: RegExp): Promise<void> {
    await expectStorage(e.handlers['jobs.submit']({ ...base, prompt: 'into the void' }), message);
    await expectStorage(e.handlers['jobs.setFavorite']({ ids: [keptId], favorite: true }), message);
    await expectStorage(e.handlers['jobs.trash']({ ids: [keptId] }), message);
    await expectStorage(e.handlers['settings.update']({ concurrency: { global: 3 } }), message);
    const page = await e.handlers['jobs.list']({ limit: 10, view: 'active' });
    expect(page.items.map((j) => j.id)).toContain(keptId);
  }

  const variant = CAN_MOUNT
    ? 'a real bind mount, unmounted and mounted again'
    : 'the folder moved away and back (no mount here)';
  it(`refuses writes while the drive is gone and carries on when the same folder returns (${variant})`, async () => {
    const crashes = watchProcessCrashes();
    try {
      root = mkdtempSync(join(tmpdir(), 'atelier-gone-'));
      const drive = join(root, 'drive');
      const dataDir = join(root, 'data');
      mkdirSync(drive);
      mkdirSync(dataDir);
      const mounted = CAN_MOUNT && tryMount(['--bind', drive, dataDir]);
      if (mounted) cleanups.push(() => unmount(dataDir, true));
      const unplug = (): void => (mounted ? unmount(dataDir, true) : renameSync(dataDir, `${dataDir}.away`));
      const plugBack = (): void => {
        if (mounted) expect(tryMount(['--bind', drive, dataDir])).toBe(true);
        else renameSync(`${dataDir}.away`, dataDir);
      };

      const provider = createScriptedProvider('scripted', [{ kind: 'succeed' }, { kind: 'hang' }, { kind: 'succeed' }]);
      const e = await open(dataDir, provider);
      const kept = await waitForStatus(e, (await e.handlers['jobs.submit']({ ...base, prompt: 'kept' })).job.id, [
        'succeeded',
      ]);
      const hanging = (await e.handlers['jobs.submit']({ ...base, prompt: 'running when unplugged' })).job;
      await waitForStatus(e, hanging.id, ['running']);
      // Unplug only once the provider holds the job (the worker reads its inputs and settings first).
      await waitFor(() => provider.calls.length === 2);

      unplug();
      await expectWritesRefused(e, kept.id, GONE);
      await expectStorage(e.handlers['jobs.cancel']({ id: hanging.id }), GONE);
      expect((await e.handlers['jobs.get']({ id: kept.id })).images).toHaveLength(1);

      plugBack();
      // No restart: the same file is back, so writes go through again.
      await e.handlers['jobs.setFavorite']({ ids: [kept.id], favorite: true });
      expect((await e.handlers['jobs.get']({ id: kept.id })).favorite).toBe(true);
      await e.handlers['jobs.cancel']({ id: hanging.id });
      expect((await waitForStatus(e, hanging.id, ['cancelled', 'failed'])).status).toBe('cancelled');
      const after = await e.handlers['jobs.submit']({ ...base, prompt: 'after the drive came back' });
      expect((await waitForStatus(e, after.job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  });

  it('rm -rf of the data dir: writes refused, a copy restored in its place needs a restart, which then works', async () => {
    const crashes = watchProcessCrashes();
    try {
      root = mkdtempSync(join(tmpdir(), 'atelier-gone-'));
      const dataDir = join(root, 'data');
      const provider = createScriptedProvider('scripted', [{ kind: 'succeed' }]);
      const e = await open(dataDir, provider);
      const kept = await waitForStatus(e, (await e.handlers['jobs.submit']({ ...base, prompt: 'kept' })).job.id, [
        'succeeded',
      ]);
      // The person's own copy of the folder, taken while Atelier ran (the WAL holds the latest commits).
      cpSync(dataDir, join(root, 'copy'), { recursive: true });

      rmSync(dataDir, { recursive: true, force: true });
      await expectWritesRefused(e, kept.id, GONE);
      // A job that meets the missing folder fails cleanly and is not announced as stored.
      const lost = await rejection(e.handlers['jobs.submit']({ ...base, prompt: 'while deleted' }));
      expect((lost as AppError).code).toBe('storage');

      cpSync(join(root, 'copy'), dataDir, { recursive: true });
      await expectWritesRefused(e, kept.id, REPLACED);
      await e.close({ graceMs: 0 });
      engine = undefined;
      // Closing left the restored copy as it was: no clean-close marker claiming it was checked, no backup of ours.
      expect(existsSync(join(dataDir, 'atelier.db.clean-close'))).toBe(false);
      expect(existsSync(join(dataDir, 'backups')) ? readdirSync(join(dataDir, 'backups')) : []).toEqual([]);

      const restarted = await open(dataDir, provider);
      expect((await restarted.handlers['jobs.get']({ id: kept.id })).status).toBe('succeeded');
      const after = await restarted.handlers['jobs.submit']({ ...base, prompt: 'after the restart' });
      expect((await waitForStatus(restarted, after.job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  });
});
