import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../../electron/engine/file-keyring.js';
import type { Engine } from '../../../electron/engine/types.js';
import { startFakeBfl, type FakeBfl } from '../../fakes/bfl.js';
import { waitFor, waitForStatus } from './harness.js';

const child = fileURLToPath(new URL('./paid-work-child.ts', import.meta.url));
const KEY = 'bfl-crash-key-0123456789abcdef';

/** Runs the child until every job is accepted and polled, then kills it with SIGKILL; resolves to its job ids. */
async function submitThenKill(
  dataDir: string,
  fake: FakeBfl,
  count: number,
): Promise<{ ids: string[]; servers: string[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, DATA_DIR: dataDir, BFL_URL: fake.url, BFL_KEY: KEY, COUNT: String(count) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  try {
    const started = await waitFor(
      () =>
        out.includes('\n') ? (JSON.parse(out.split('\n')[0]!) as { ids: string[]; servers: string[] }) : undefined,
      60_000,
    );
    // A task is polled only after its id was stored (run-job.ts keeps it in onAccepted): every job is between submit and result.
    await waitFor(() => new Set(fake.polls().map((p) => p.query['id'])).size === count, 60_000);
    return started;
  } finally {
    proc.kill('SIGKILL');
    await exited;
  }
}

describe('paid work survives a crash', () => {
  let dataDir: string;
  let fake: FakeBfl | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close({ graceMs: 0 });
    engine = undefined;
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const count of [1, 50]) {
    it(`collects ${count} accepted job${count === 1 ? '' : 's'} after SIGKILL without submitting any twice`, async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'atelier-paid-'));
      fake = await startFakeBfl({ apiKey: KEY });
      fake.setScenario({ kind: 'pending_forever' });
      const { ids, servers } = await submitThenKill(dataDir, fake, count);
      expect(fake.submits()).toHaveLength(count);

      // The provider finished while Atelier was down.
      for (const task of fake.tasks()) fake.setTaskScenario(task, { kind: 'success', pendingPolls: 0 });
      engine = await createEngine(
        { dataDir, keyring: await createFileKeyring(dataDir) },
        { orphanGraceMs: 0, maintenanceIntervalMs: 0 },
      );
      const done = await Promise.all(
        ids.map((id) => waitForStatus(engine!, id, ['succeeded', 'failed', 'interrupted'])),
      );
      expect(done.map((j) => j.errorDetail?.message ?? j.status)).toEqual(ids.map(() => 'succeeded'));
      expect(done.every((j) => j.images.length === 1)).toBe(true);
      expect(fake.submits()).toHaveLength(count);
      expect(fake.downloads()).toHaveLength(count);
      const detail = await engine.handlers['jobs.get']({ id: ids[0]! });
      expect(detail.events.map((e) => e.kind)).toContain('resuming');
      if (count > 1) {
        // Collected where each was accepted: every server held work when the first run died.
        const instances = new Set(done.map((j) => j.instance));
        expect(instances).toEqual(new Set(servers));
      }
    }, 120_000);
  }

  it('ends a job whose task the provider no longer knows with that reason, and sends nothing', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'atelier-paid-'));
    fake = await startFakeBfl({ apiKey: KEY });
    fake.setScenario({ kind: 'pending_forever' });
    const { ids } = await submitThenKill(dataDir, fake, 1);
    // BFL keeps results for a while only: this task is gone by the time Atelier is back.
    fake.forgetTasks();
    engine = await createEngine(
      { dataDir, keyring: await createFileKeyring(dataDir) },
      { orphanGraceMs: 0, maintenanceIntervalMs: 0 },
    );
    const job = await waitForStatus(engine, ids[0]!, ['succeeded', 'failed', 'interrupted']);
    expect(job.status).toBe('failed');
    expect(job.errorDetail?.message).toMatch(/no longer knows this task/);
    expect(fake.submits()).toHaveLength(1);
  }, 120_000);
});
