/**
 * A full disk seen over HTTP, as the headless host's users see it: a submit that cannot be stored answers 507 with
 * the disk-full wording (never 500 "Something went wrong"), the host keeps serving reads, and once space is freed a
 * new job succeeds without a restart. On a real 6 MB tmpfs when this runs as root (CI), injected otherwise.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/contract.js';
import { createEngine } from '../../electron/engine/create-engine.js';
import type { Engine } from '../../electron/engine/types.js';
import { startServer, type RunningServer } from '../../electron/serve/server.js';
import { createScriptedProvider, scriptedEntry } from '../fakes/scripted-provider.js';
import { startServeProcess, type ServeProcess } from '../fixtures/serve-process.js';
import { memoryKeyring, waitFor } from '../integration/engine/harness.js';
import { createDiskFault, type DiskFault } from './disk-fault.js';
import { watchProcessCrashes } from './helpers.js';
import { CAN_MOUNT, fillDisk, tryMount, unmount } from './mount.js';

const DISK_FULL = /disk is full, so Atelier could not .*: free some space/;
const TOKEN = 'fault-token-0123456789abcdefghijklmnop';

interface Host {
  origin: string;
  token: string;
  alive(): boolean;
}

interface Reply {
  status: number;
  body: { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

async function call(host: Host, channel: string, input: unknown): Promise<Reply> {
  const response = await fetch(`${host.origin}/api/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

async function finished(host: Host, id: string): Promise<JobDetail> {
  return waitFor(async () => {
    const job = (await call(host, 'jobs.get', { id })).body.value as JobDetail;
    return ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(job.status) ? job : undefined;
  }, 30_000);
}

describe('a full disk over HTTP', () => {
  let root: string;
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    rmSync(root, { recursive: true, force: true });
  });

  async function inProcessHost(dataDir: string, disk: DiskFault): Promise<Host> {
    const engine: Engine = await createEngine(
      {
        dataDir,
        keyring: memoryKeyring(),
      },
      {
        providers: [scriptedEntry(createScriptedProvider('builtin'))],
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
        wrapDatabase: disk.wrapDatabase,
        mediaFs: disk.fs,
      },
    );
    cleanups.push(() => engine.close({ graceMs: 0 }));
    const rendererDir = join(root, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
    const server: RunningServer = await startServer({ engine, rendererDir, token: TOKEN });
    cleanups.push(() => server.close());
    return { origin: `http://127.0.0.1:${server.port}`, token: TOKEN, alive: () => true };
  }

  const job = { provider: 'builtin', prompt: 'a lighthouse in fog', width: 64, height: 64, count: 1 };

  it('a submit that cannot be stored answers 507 in disk-full words; reads keep answering; space freed, it works (injected)', async () => {
    const crashes = watchProcessCrashes();
    try {
      root = mkdtempSync(join(tmpdir(), 'atelier-http-full-'));
      const disk = createDiskFault();
      const host = await inProcessHost(join(root, 'data'), disk);
      const kept = await finished(
        host,
        ((await call(host, 'jobs.submit', job)).body.value as { job: JobDetail }).job.id,
      );
      expect(kept.status).toBe('succeeded');

      disk.fillNow();
      const refused = await call(host, 'jobs.submit', { ...job, prompt: 'no room' });
      expect(refused.status).toBe(507);
      expect(refused.body.error?.code).toBe('storage');
      expect(refused.body.error?.message).toMatch(/disk is full, so Atelier could not store the new job/);
      expect(refused.body.error?.message).not.toMatch(/Something went wrong/);
      // Reads still answer, media included.
      expect((await call(host, 'jobs.list', { limit: 10, view: 'active' })).status).toBe(200);
      const image = await fetch(`${host.origin}/media/image/${kept.images[0]!.id}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(image.status).toBe(200);

      disk.clear();
      const accepted = await call(host, 'jobs.submit', { ...job, prompt: 'room again' });
      expect(accepted.status).toBe(200);
      expect((await finished(host, (accepted.body.value as { job: JobDetail }).job.id)).status).toBe('succeeded');
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  });

  const variant = CAN_MOUNT
    ? 'a real 6 MB tmpfs under `npm run serve`'
    : 'injected SQLITE_FULL and ENOSPC: not root, no tmpfs';
  it(`the host survives jobs on a full disk and carries on once space is freed (${variant})`, async () => {
    const crashes = watchProcessCrashes();
    try {
      root = mkdtempSync(join(tmpdir(), 'atelier-http-full-'));
      const diskDir = join(root, 'disk');
      mkdirSync(diskDir);
      let host: Host;
      let fill: () => void;
      let free: () => void;
      if (CAN_MOUNT && tryMount(['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', diskDir])) {
        cleanups.push(() => unmount(diskDir, true));
        const rendererDir = join(root, 'renderer');
        mkdirSync(rendererDir);
        writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
        const served: ServeProcess = await startServeProcess(join(diskDir, 'data'), rendererDir);
        cleanups.push(() => (served.child.exitCode === null ? served.child.kill('SIGKILL') : undefined));
        host = { origin: served.origin, token: served.token, alive: () => served.child.exitCode === null };
        let filler = '';
        fill = () => (filler = fillDisk(diskDir));
        free = () => rmSync(filler);
        cleanups.push(async () => expect(await served.stop()).toBe(0));
      } else {
        const disk = createDiskFault();
        host = await inProcessHost(join(diskDir, 'data'), disk);
        fill = () => disk.fillNow();
        free = () => disk.clear();
      }
      const kept = await finished(
        host,
        ((await call(host, 'jobs.submit', { ...job, width: 256, height: 256 })).body.value as { job: JobDetail }).job
          .id,
      );
      expect(kept.status).toBe('succeeded');

      fill();
      const accepted: string[] = [];
      const words: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        const reply = await call(host, 'jobs.submit', {
          ...job,
          width: 256,
          height: 256,
          count: 2,
          prompt: `full ${i}`,
        });
        // Either refused outright (507, in words), or accepted into the WAL's spare room and failed in words later.
        expect([200, 507]).toContain(reply.status);
        if (reply.status === 507) {
          expect(reply.body.error?.code).toBe('storage');
          words.push(reply.body.error!.message);
        } else accepted.push((reply.body.value as { job: JobDetail }).job.id);
      }
      // The host is up and still serves what it has.
      expect(host.alive()).toBe(true);
      const page = await call(host, 'jobs.list', { limit: 20, view: 'active' });
      expect(page.status).toBe(200);
      expect((page.body.value as { items: Array<{ id: string }> }).items.map((j) => j.id)).toContain(kept.id);

      free();
      const after = await call(host, 'jobs.submit', { ...job, prompt: 'after the space was freed' });
      expect(after.status).toBe(200);
      expect((await finished(host, (after.body.value as { job: JobDetail }).job.id)).status).toBe('succeeded');
      for (const id of accepted) {
        const ended = await finished(host, id);
        // A job that met the full disk failed in disk-full words; one that waited for the space ran.
        if (ended.status === 'failed') {
          expect(ended.error?.code).toBe('storage');
          words.push(ended.error!.message);
        } else expect(ended.status).toBe('succeeded');
      }
      expect(words.length).toBeGreaterThan(0);
      for (const message of words) expect(message).toMatch(DISK_FULL);
      expect(host.alive()).toBe(true);
      expect((await call(host, 'jobs.get', { id: kept.id })).body.value).toMatchObject({ status: 'succeeded' });
      expect(crashes.errors).toEqual([]);
    } finally {
      crashes.stop();
    }
  });
});
