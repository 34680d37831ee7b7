import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderStatus } from '../../../shared/contract.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeA1111, type FakeA1111 } from '../../fakes/index.js';
import { createScriptedProvider, scriptedEntry } from '../../fakes/scripted-provider.js';
import { createServer, type AddressInfo } from 'node:net';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

/** A loopback port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function statusOf(h: Harness, id: string): Promise<ProviderStatus> {
  const { providers } = await h.engine.handlers['providers.list']({});
  return providers.find((p) => p.id === id)!.status;
}

describe('provider status: what the Settings card and the picker say', () => {
  let h: Harness | undefined;
  let fake: FakeA1111 | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await fake?.close();
    h = fake = undefined;
  });

  it('Off while disabled, Not tested once on, Ready after a passing test, Failing with the error after a failing one, and it survives a restart', async () => {
    fake = await startFakeA1111();
    h = await startHarness({ providers: defaultProviders() });
    // The builtin needs no test; local servers start off, whatever their default address.
    expect(await statusOf(h, 'builtin')).toEqual({ state: 'ready' });
    expect(await statusOf(h, 'a1111')).toEqual({ state: 'off' });
    expect(await statusOf(h, 'comfyui')).toEqual({ state: 'off' });
    expect(await statusOf(h, 'openai')).toEqual({ state: 'untested' });

    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: fake.url } } });
    expect(await statusOf(h, 'a1111')).toEqual({ state: 'untested' });

    const before = Date.now();
    expect((await h.engine.handlers['providers.test']({ id: 'a1111' })).ok).toBe(true);
    const ready = await statusOf(h, 'a1111');
    expect(ready).toMatchObject({ state: 'ready', source: 'test' });
    expect(ready.at).toBeGreaterThanOrEqual(before);
    expect(ready.at).toBeLessThanOrEqual(Date.now());

    await fake.close();
    fake = undefined;
    const test = await h.engine.handlers['providers.test']({ id: 'a1111' });
    expect(test.ok).toBe(false);
    const failing = await statusOf(h, 'a1111');
    expect(failing).toMatchObject({ state: 'failing', source: 'test', message: test.message });
    expect(failing.at).toBeGreaterThanOrEqual(ready.at!);

    // Turned off it says Off, whatever it last did; on again, the last outcome is back.
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: false } } });
    expect(await statusOf(h, 'a1111')).toEqual({ state: 'off' });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true } } });

    await h.engine.close();
    await h.open();
    expect(await statusOf(h, 'a1111')).toEqual(failing);
    expect(await statusOf(h, 'comfyui')).toEqual({ state: 'off' });
  });

  it('a new address needs a new test; real jobs keep the status true (a success: Ready, a refused connection: Failing)', async () => {
    fake = await startFakeA1111();
    h = await startHarness({
      providers: defaultProviders(),
      retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 20 },
      // The down server's own probe would record a failing test over the job's outcome: it waits past this test.
      probeBackoff: { firstMs: 600_000, maxMs: 600_000 },
    });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: fake.url } } });
    await h.engine.handlers['providers.test']({ id: 'a1111' });
    expect((await statusOf(h, 'a1111')).state).toBe('ready');
    const second = await startFakeA1111();
    let succeededId: string;
    try {
      await h.engine.handlers['settings.update']({ providers: { a1111: { baseUrl: second.url } } });
      expect(await statusOf(h, 'a1111')).toEqual({ state: 'untested' });

      const ok = await h.engine.handlers['jobs.submit']({
        provider: 'a1111',
        prompt: 'a kite',
        width: 512,
        height: 512,
        count: 1,
        steps: 2,
      });
      const done = await waitForStatus(h.engine, ok.job.id, ['succeeded', 'failed']);
      expect(done.status).toBe('succeeded');
      succeededId = done.id;
      await waitFor(async () => ((await statusOf(h!, 'a1111')).source === 'job' ? true : undefined));
      expect(await statusOf(h, 'a1111')).toEqual({ state: 'ready', source: 'job', at: done.completedAt });
    } finally {
      await second.close();
    }

    // Pointed where nothing listens: the job is refused before anything is sent.
    await h.engine.handlers['settings.update']({
      providers: { a1111: { baseUrl: `http://127.0.0.1:${await closedPort()}` } },
    });
    const bad = await h.engine.handlers['jobs.submit']({
      provider: 'a1111',
      prompt: 'a kite again',
      width: 512,
      height: 512,
      count: 1,
      steps: 2,
    });
    const failed = await waitForStatus(h.engine, bad.job.id, ['succeeded', 'failed']);
    expect(failed.errorDetail?.code).toBe('provider_unavailable');
    const fromJob = await waitFor(async () => {
      const status = await statusOf(h!, 'a1111');
      return status.state === 'failing' ? status : undefined;
    });
    expect(fromJob).toEqual({
      state: 'failing',
      source: 'job',
      at: failed.completedAt,
      message: failed.error!.message,
    });

    // Starring the old successful job later is not news about the provider.
    await h.engine.handlers['jobs.setFavorite']({ ids: [succeededId], favorite: true });
    expect((await statusOf(h, 'a1111')).state).toBe('failing');
  });

  it('what a provider said is kept without the key, control characters or unbounded length', async () => {
    const key = 'sk-status-never-stored-0123';
    const provider = createScriptedProvider('scripted');
    provider.test = async () => ({
      ok: false,
      reachable: true,
      models: [],
      latencyMs: 1,
      message: `Bad key ${key}\u0007\n${'x'.repeat(5_000)}`,
    });
    h = await startHarness({ providers: [scriptedEntry(provider)] });
    await h.engine.handlers['settings.update']({ providers: { scripted: { apiKey: key } } });
    await h.engine.handlers['providers.test']({ id: 'scripted' });
    const status = await statusOf(h, 'scripted');
    expect(status.state).toBe('failing');
    expect(status.message).toMatch(/^Bad key \*\*\* x+…$/);
    expect(status.message!.length).toBeLessThanOrEqual(300);
    await h.engine.close();
    for (const file of ['atelier.db', 'atelier.db-wal']) {
      const path = join(h.dataDir, file);
      if (!existsSync(path)) continue;
      expect(readFileSync(path).toString('latin1').includes(key), file).toBe(false);
    }
    await h.open();
  });
});
