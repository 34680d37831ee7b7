import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Retry links the new job and the old one', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('both summaries carry the link, in jobs.list, jobs.get and the change events, and after a restart', async () => {
    h = await startHarness({
      providers: defaultProviders(),
      retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 20 },
    });
    // A job asking for a server that is down waits for it up to the server's timeout: kept short here.
    await h.engine.handlers['settings.update']({
      providers: { a1111: { enabled: true, timeoutMs: 1_000, baseUrl: `http://127.0.0.1:${await closedPort()}` } },
    });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'a1111',
      prompt: 'a lantern',
      width: 512,
      height: 512,
      count: 1,
      steps: 2,
    });
    await waitForStatus(h.engine, job.id, ['failed']);
    expect((await h.engine.handlers['jobs.get']({ id: job.id })).retriedAs).toBeUndefined();

    const retried = await h.engine.handlers['jobs.retry']({ id: job.id });
    const retryId = retried.job.id;
    expect(retried.job.retryOf).toBe(job.id);
    await waitForStatus(h.engine, retryId, ['failed']);

    const check = async (): Promise<void> => {
      const old = await h!.engine.handlers['jobs.get']({ id: job.id });
      const fresh = await h!.engine.handlers['jobs.get']({ id: retryId });
      expect([old.retriedAs, old.retryOf]).toEqual([retryId, undefined]);
      expect([fresh.retryOf, fresh.retriedAs]).toEqual([job.id, undefined]);
      const listed = (await h!.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items;
      expect(listed.find((j) => j.id === job.id)?.retriedAs).toBe(retryId);
      expect(listed.find((j) => j.id === retryId)?.retryOf).toBe(job.id);
    };
    await check();
    // The old tile hears of its link: a change event newer than the one it holds.
    const changes = h.events
      .filter((e) => e.name === 'jobs.changed')
      .map((e) => (e.payload as { job: JobSummary }).job);
    const oldChanges = changes.filter((j) => j.id === job.id);
    expect(oldChanges.at(-1)?.retriedAs).toBe(retryId);
    expect(oldChanges.at(-1)!.updatedAt).toBeGreaterThan(oldChanges.find((j) => j.status === 'failed')!.updatedAt);
    const firstLinked = changes.find((j) => j.id === retryId && j.retryOf === job.id)!;
    expect(
      changes
        .filter((j) => j.id === retryId && j.retryOf === undefined)
        .every((j) => j.updatedAt < firstLinked.updatedAt),
    ).toBe(true);

    await h.engine.close();
    await h.open();
    await check();

    // A purged original leaves no dangling link on its retry.
    await h.engine.handlers['jobs.trash']({ ids: [job.id] });
    await h.engine.handlers['jobs.purge']({ ids: [job.id] });
    expect((await h.engine.handlers['jobs.get']({ id: retryId })).retryOf).toBeUndefined();
  });
});
