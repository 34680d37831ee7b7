/**
 * A disk that fills up at each write of a job's life, injected through the store's connection (SQLITE_FULL) and the
 * media file system (ENOSPC): the process survives, the person reads `storage` in disk-full words, nothing already
 * stored is lost, and once space is freed the stuck job ends properly and a new job succeeds without a restart.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import type { JobDetail } from '../../shared/contract.js';
import { createScriptedProvider, scriptedEntry, type AttemptScript } from '../fakes/scripted-provider.js';
import { startHarness, waitFor, waitForStatus, type Harness } from '../integration/engine/harness.js';
import { createDiskFault, type FillTrigger } from './disk-fault.js';
import { recordingLog, rejection, watchProcessCrashes } from './helpers.js';

const base = { provider: 'scripted', prompt: 'a lighthouse at dusk', width: 64, height: 64, count: 1 } as const;
const DISK_FULL = /disk is full.*free some space/;

interface Stage {
  name: string;
  trigger: FillTrigger;
  script?: AttemptScript;
  /** What the job that met the full disk ends as once space is back. */
  ends: { status: 'succeeded' | 'failed'; code?: string; message?: RegExp };
}

const STAGES: Stage[] = [
  { name: 'claim', trigger: { sql: /SET status = 'running'/ }, ends: { status: 'succeeded' } },
  {
    name: 'progress',
    trigger: { sql: /SET progress_stage = @stage/ },
    ends: { status: 'failed', code: 'storage', message: DISK_FULL },
  },
  {
    name: 'preview',
    trigger: { path: /\/previews\// },
    script: { kind: 'succeed', progressSteps: 3, partials: 2, delayMs: 60 },
    ends: {
      status: 'failed',
      code: 'storage',
      message: /disk is full, so Atelier could not save the (image|thumbnail)/,
    },
  },
  {
    name: 'image store',
    trigger: { path: /\/tmp\/[0-9a-f]+\.part$/ },
    ends: { status: 'failed', code: 'storage', message: /could not save the (image|thumbnail)/ },
  },
  {
    name: 'succeed',
    trigger: { sql: /SET status = @next/, params: (p) => p['next'] === 'succeeded' },
    ends: { status: 'succeeded' },
  },
  {
    name: 'fail',
    trigger: { sql: /SET status = @next/, params: (p) => p['next'] === 'failed' },
    script: { kind: 'fail', error: new AppError('provider_rejected', 'The prompt was refused.') },
    ends: { status: 'failed', code: 'provider_rejected' },
  },
];

describe('a full disk at every write of a job’s life (injected SQLITE_FULL and ENOSPC)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  async function start() {
    const disk = createDiskFault();
    const log = recordingLog();
    const provider = createScriptedProvider('scripted', [{ kind: 'succeed' }]);
    h = await startHarness({
      providers: [scriptedEntry(provider)],
      wrapDatabase: disk.wrapDatabase,
      mediaFs: disk.fs,
      log,
    });
    // Stored before the disk fills: it must come through untouched.
    const kept = await waitForStatus(
      h.engine,
      (await h.engine.handlers['jobs.submit']({ ...base, prompt: 'kept' })).job.id,
      ['succeeded'],
    );
    return { h, disk, log, provider, kept };
  }

  async function expectKept(engine: Harness['engine'], kept: JobDetail): Promise<void> {
    const now = await engine.handlers['jobs.get']({ id: kept.id });
    expect(now.status).toBe('succeeded');
    expect(now.images.map((i) => i.id)).toEqual(kept.images.map((i) => i.id));
    for (const image of now.images) expect(existsSync(engine.resolveMedia('image', image.id)!.path)).toBe(true);
  }

  it('submit: refused with storage in disk-full words (HTTP 507 material), reads keep working, then submits again', async () => {
    const crashes = watchProcessCrashes();
    try {
      const { h, disk, kept } = await start();
      disk.fillAt({ sql: /INSERT INTO jobs \(/ });
      const error = (await rejection(h.engine.handlers['jobs.submit']({ ...base, prompt: 'refused' }))) as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe('storage');
      expect(error.message).toMatch(/disk is full, so Atelier could not store the new job/);
      const page = await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' });
      expect(page.items.map((j) => j.prompt)).toEqual(['kept']);
      disk.clear();
      const { job } = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'after' });
      expect((await waitForStatus(h.engine, job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
      await expectKept(h.engine, kept);
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  });

  for (const stage of STAGES) {
    it(`${stage.name}: the process survives, the job is not lost, and a new job succeeds once space is freed`, async () => {
      const crashes = watchProcessCrashes();
      try {
        const { h, disk, log, provider, kept } = await start();
        if (stage.script !== undefined) provider.script = [stage.script, { kind: 'succeed' }];
        disk.fillAt(stage.trigger);
        const { job } = await h.engine.handlers['jobs.submit']({
          ...base,
          prompt: `meets a full disk at ${stage.name}`,
        });
        // The worker has met the full disk and kept what it could not write (or, without that care, crashed).
        const waiting =
          stage.name === 'claim'
            ? 'the worker could not look for work'
            : 'a finished job could not be recorded; retrying';
        await waitFor(() => crashes.errors.length > 0 || log.has(waiting));
        expect(crashes.errors).toEqual([]);
        expect(disk.full).toBe(true);

        // Meanwhile: writes answer storage in disk-full words; reads still work.
        const refused = (await rejection(
          h.engine.handlers['jobs.setFavorite']({ ids: [kept.id], favorite: true }),
        )) as AppError;
        expect(refused.code).toBe('storage');
        expect(refused.message).toMatch(DISK_FULL);
        const stuck = await h.engine.handlers['jobs.get']({ id: job.id });
        expect(stuck.status).toBe(stage.name === 'claim' ? 'queued' : 'running');
        // The queue says what holds it, in the disk's own words.
        const held = (await h.engine.handlers['jobs.stats']({})).queue?.waiting;
        expect(held?.for).toBe('disk_space');
        expect(held?.message).toMatch(DISK_FULL);
        await expectKept(h.engine, kept);

        disk.clear();
        const next = await h.engine.handlers['jobs.submit']({ ...base, prompt: 'after the disk was cleared' });
        expect((await waitForStatus(h.engine, next.job.id, ['succeeded', 'failed'])).status).toBe('succeeded');
        const ended = await waitForStatus(h.engine, job.id, ['succeeded', 'failed', 'cancelled']);
        expect(ended.status).toBe(stage.ends.status);
        if (stage.ends.status === 'succeeded') expect(ended.images).toHaveLength(1);
        if (stage.ends.code !== undefined) expect(ended.errorDetail?.code ?? ended.error?.code).toBe(stage.ends.code);
        if (stage.ends.message !== undefined) expect(ended.error?.message).toMatch(stage.ends.message);
        expect((await h.engine.handlers['jobs.stats']({})).queue?.waiting).toBeNull();
        await expectKept(h.engine, kept);
        expect(crashes.errors).toEqual([]);
      } finally {
        crashes.stop();
      }
    });
  }
});

describe('a job’s end that never reaches the disk', () => {
  it('stays running while the disk is full and is marked interrupted by the next start, never silently dropped', async () => {
    const crashes = watchProcessCrashes();
    const disk = createDiskFault();
    const log = recordingLog();
    const provider = createScriptedProvider('scripted', [{ kind: 'succeed' }]);
    const h = await startHarness({
      providers: [scriptedEntry(provider)],
      wrapDatabase: disk.wrapDatabase,
      mediaFs: disk.fs,
      log,
    });
    try {
      disk.fillAt({ sql: /SET status = @next/ });
      const { job } = await h.engine.handlers['jobs.submit'](base);
      await waitFor(() => crashes.errors.length > 0 || log.has('a finished job could not be recorded; retrying'));
      // Quit while the disk is still full: the last try on the way out is refused too.
      await h.engine.close({ graceMs: 0 });
      disk.clear();
      const reopened = await h.open({ providers: [scriptedEntry(provider)] });
      const after = await reopened.handlers['jobs.get']({ id: job.id });
      expect(after.status).toBe('interrupted');
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
      await h.cleanup();
    }
  });
});
