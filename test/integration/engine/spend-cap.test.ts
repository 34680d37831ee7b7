import { afterEach, describe, expect, it } from 'vitest';
import type { QueueControlState } from '../../../shared/contract.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeBfl, type FakeBfl } from '../../fakes/bfl.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const KEY = 'bfl-cap-key-0123456789abcdef';
const job = { provider: 'bfl', model: 'flux-2-pro', width: 1024, height: 1024, count: 1 } as const;

let h: Harness | undefined;
let fake: FakeBfl | undefined;
afterEach(async () => {
  await h?.cleanup();
  await fake?.close();
  h = undefined;
});

describe('a monthly spend cap holds the queue', () => {
  it('sends nothing that would pass the cap, says why, and goes on once the cap is raised', async () => {
    fake = await startFakeBfl({ apiKey: KEY });
    fake.setScenario({ kind: 'success', pendingPolls: 0 });
    h = await startHarness({ providers: defaultProviders() });
    const control: QueueControlState[] = [];
    h.engine.events.on('queue.control', (state) => control.push(state));
    await h.engine.handlers['settings.update']({
      concurrency: { global: 4 },
      providers: { bfl: { apiKey: KEY, baseUrl: fake.url, concurrency: 4 } },
      spend: { prices: { 'bfl/flux-2-pro': 0.04 }, monthlyCapUsd: { bfl: 0.1 } },
    });
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three'])
      ids.push((await h.engine.handlers['jobs.submit']({ ...job, prompt })).job.id);
    // Two fit under $0.10 together (running ones count); the third would make $0.12.
    await waitForStatus(h.engine, ids[0]!, ['succeeded']);
    await waitForStatus(h.engine, ids[1]!, ['succeeded']);
    const held = await waitFor(() =>
      control.find((s) => s.providers.some((p) => p.id === 'bfl' && p.hold?.kind === 'spend')),
    );
    expect(held.providers.find((p) => p.id === 'bfl')!.hold!.message).toMatch(/monthly cap of \$0\.10/);
    expect(fake.submits()).toHaveLength(2);
    const third = await h.engine.handlers['jobs.get']({ id: ids[2]! });
    expect(third.status).toBe('queued');
    const view = await h.engine.handlers['queue.view']({});
    expect(view.control.providers.find((p) => p.id === 'bfl')?.hold?.kind).toBe('spend');
    const costs = await Promise.all(ids.slice(0, 2).map((id) => h!.engine.handlers['jobs.get']({ id })));
    expect(costs.map((j) => j.result?.cost)).toEqual([
      { usd: 0.04, source: 'estimated' },
      { usd: 0.04, source: 'estimated' },
    ]);

    await h.engine.handlers['settings.update']({ spend: { monthlyCapUsd: { bfl: 1 } } });
    await waitForStatus(h.engine, ids[2]!, ['succeeded']);
    expect(fake.submits()).toHaveLength(3);
  });
});
