import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeBfl } from '../../fakes/bfl.js';
import { startFakeFal, type FakeFal } from '../../fakes/fal.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const KEY = 'fal-quit-key-0123456789abcdef';

let h: Harness | undefined;
let fake: FakeFal | undefined;
afterEach(async () => {
  await h?.cleanup();
  await fake?.close();
  h = undefined;
});

/** An engine whose one fal job was accepted and is running at fal (which never finishes it by itself). */
async function acceptedOnFal(): Promise<{ job: { id: string }; harness: Harness; fal: FakeFal }> {
  const fal = (fake = await startFakeFal({ apiKey: KEY }));
  fal.setScenario({ kind: 'running_forever' });
  const harness = (h = await startHarness({ providers: defaultProviders() }));
  await harness.engine.handlers['settings.update']({ providers: { fal: { apiKey: KEY, baseUrl: fal.url } } });
  const { job } = await harness.engine.handlers['jobs.submit']({
    provider: 'fal',
    prompt: 'a lighthouse at dusk',
    width: 1024,
    height: 1024,
    count: 1,
  });
  await waitFor(() => fal.statusPolls().length > 0);
  return { job, harness, fal };
}

describe('quitting with paid work in flight', () => {
  it('leaves accepted work running at the provider (no cancel sent) and collects it on the next start', async () => {
    const { job, harness, fal } = await acceptedOnFal();
    await harness.engine.close({ graceMs: 0 });
    expect(fal.cancels()).toHaveLength(0);

    fal.setTaskScenario(fal.tasks()[0]!, { kind: 'success' });
    const engine = await harness.open();
    const done = await waitForStatus(engine, job.id, ['succeeded', 'failed', 'interrupted']);
    expect(done.errorDetail?.message ?? done.status).toBe('succeeded');
    expect(fal.submits()).toHaveLength(1);
    expect(done.events.map((e) => e.kind)).toContain('resuming');
  });

  it('still cancels at the provider when the person cancels', async () => {
    const { job, harness, fal } = await acceptedOnFal();
    await harness.engine.handlers['jobs.cancel']({ id: job.id });
    await waitForStatus(harness.engine, job.id, ['cancelled']);
    expect(fal.cancels()).toHaveLength(1);
  });
});

describe('a lost connection while paid work runs', () => {
  it('collects the accepted work again through its id instead of failing the job, and never re-submits', async () => {
    const bfl = await startFakeBfl({ apiKey: KEY });
    try {
      bfl.setScenario({ kind: 'success', pendingPolls: 1, dropPolls: 2 });
      h = await startHarness({ providers: defaultProviders() });
      await h.engine.handlers['settings.update']({ providers: { bfl: { apiKey: KEY, baseUrl: bfl.url } } });
      const { job } = await h.engine.handlers['jobs.submit']({
        provider: 'bfl',
        model: 'flux-2-pro',
        prompt: 'a lighthouse at dusk',
        width: 1024,
        height: 1024,
        count: 1,
      });
      const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
      expect(done.errorDetail?.message ?? done.status).toBe('succeeded');
      expect(done.events.filter((e) => e.kind === 'reconnect')).toHaveLength(2);
      expect(bfl.submits()).toHaveLength(1);
    } finally {
      await bfl.close();
    }
  });
});
