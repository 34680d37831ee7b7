import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { openAIErrors, startFakeA1111, startFakeOpenAI, type FakeA1111, type FakeOpenAI } from '../../fakes/index.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

describe('engine with network providers', () => {
  let h: Harness | undefined;
  let openai: FakeOpenAI | undefined;
  let a1111: FakeA1111 | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await openai?.close();
    await a1111?.close();
    h = openai = a1111 = undefined;
  });

  it('honours Retry-After on a 429, records both attempts, and keeps partial previews flowing', async () => {
    // A careless server echoes the key it was sent in every field: none of it may be kept.
    openai = await startFakeOpenAI({ apiKey: 'sk-engine', echoCredentials: true });
    // Partial previews a little apart, as a real stream sends them, so each lands before the final image.
    openai.setScenario([openAIErrors.rateLimited({ ms: 300 }), { kind: 'success', stepMs: 150 }]);
    h = await startHarness({
      providers: defaultProviders(),
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 1_000 },
    });
    await h.engine.handlers['settings.update']({ providers: { openai: { apiKey: 'sk-engine', baseUrl: openai.url } } });
    const started = Date.now();
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'openai',
      model: 'gpt-image-1',
      prompt: 'a paper boat',
      width: 1024,
      height: 1024,
      count: 1,
      partialImages: 2,
    });
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(openai.generationRequests()).toHaveLength(2);
    const retry = done.events.find((e) => e.kind === 'retry');
    expect(Number(retry?.data?.['delayMs'])).toBeGreaterThanOrEqual(300);
    expect(
      h.events.some(
        (e) => e.name === 'jobs.progress' && (e.payload as { previewImageId?: string }).previewImageId !== undefined,
      ),
    ).toBe(true);
    // The key went to the provider and nowhere else: not the job, its trace, the database or its WAL.
    expect(openai.generationRequests()[0]!.headers.authorization).toBe('Bearer sk-engine');
    expect(JSON.stringify(done)).toContain('***');
    expect(JSON.stringify(done)).not.toContain('sk-engine');
    for (const file of ['atelier.db', 'atelier.db-wal']
      .map((name) => join(h!.dataDir, name))
      .filter((path) => existsSync(path))) {
      expect(readFileSync(file).includes('sk-engine')).toBe(false);
    }
  });

  it('a stopped provider fails the job with a clear error after bounded retries, and Retry works once it is back', async () => {
    a1111 = await startFakeA1111();
    const url = a1111.url;
    await a1111.close();
    h = await startHarness({
      providers: defaultProviders(),
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
    });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: url } } });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'a1111',
      prompt: 'a red kite',
      width: 512,
      height: 512,
      count: 1,
      steps: 4,
    });
    const failed = await waitForStatus(h.engine, job.id, ['failed']);
    expect(failed.errorDetail).toMatchObject({ code: 'provider_unavailable' });
    expect(failed.events.filter((e) => e.kind === 'attempt')).toHaveLength(2);

    // Bring a server up on a new port, point settings at it, and retry.
    a1111 = await startFakeA1111();
    await h.engine.handlers['settings.update']({ providers: { a1111: { baseUrl: a1111.url } } });
    const retried = await h.engine.handlers['jobs.retry']({ id: job.id });
    const done = await waitForStatus(h.engine, retried.job.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    await waitFor(() => a1111!.generationRequests().length === 1);
  });
});
