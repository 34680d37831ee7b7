import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startFakeA1111, type FakeA1111 } from '../../fakes/index.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

describe('a batch asked of any local server is split across the servers', () => {
  let h: Harness | undefined;
  const fakes: FakeA1111[] = [];
  afterEach(async () => {
    await h?.cleanup();
    for (const fake of fakes.splice(0)) await fake.close();
    h = undefined;
  });

  it('any:a1111 × 5 from seed 100 runs as 3 + 2 on two servers, each image keeping the seed the whole batch gives it', async () => {
    const a = await startFakeA1111();
    const b = await startFakeA1111();
    fakes.push(a, b);
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a.url } } });
    await h.engine.handlers['providers.add']({ kind: 'a1111', name: 'Second', baseUrl: b.url });
    await h.engine.handlers['settings.update']({ providers: { 'a1111-2': { enabled: true } } });

    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'any:a1111',
      prompt: 'five boats',
      width: 64,
      height: 64,
      count: 5,
      seed: 100,
      steps: 2,
      idempotencyKey: 'boats',
    });
    expect(job.count).toBe(3);
    const all = await waitFor(async () => {
      const { items } = await h!.engine.handlers['jobs.list']({ limit: 50, view: 'active' });
      const boats = items.filter((j) => j.prompt === 'five boats');
      return boats.length === 2 ? boats : undefined;
    });
    const done = await Promise.all(all.map((j) => waitForStatus(h!.engine, j.id, ['succeeded', 'failed'])));
    const byPart = done.sort(
      (x, y) =>
        Number(x.events.find((e) => e.kind === 'split')?.data?.['part']) -
        Number(y.events.find((e) => e.kind === 'split')?.data?.['part']),
    );
    expect(byPart.map((j) => [j.status, j.count, j.request.seed])).toEqual([
      ['succeeded', 3, 100],
      ['succeeded', 2, 103],
    ]);
    expect(byPart.map((j) => j.events.find((e) => e.kind === 'split')?.message)).toEqual([
      'Images 1–3 of a batch of 5, split across the a1111 servers (part 1 of 2).',
      'Images 4–5 of a batch of 5, split across the a1111 servers (part 2 of 2).',
    ]);
    expect(byPart.flatMap((j) => j.images.map((i) => i.seed))).toEqual([100, 101, 102, 103, 104]);
    // Both servers worked on it at once: one part each.
    expect(new Set(byPart.map((j) => j.instance))).toEqual(new Set(['a1111', 'a1111-2']));
    expect([a.generationRequests().length, b.generationRequests().length]).toEqual([1, 1]);

    // The same key again converges on the same parts: nothing new is stored.
    const again = await h.engine.handlers['jobs.submit']({
      provider: 'any:a1111',
      prompt: 'five boats',
      width: 64,
      height: 64,
      count: 5,
      seed: 100,
      steps: 2,
      idempotencyKey: 'boats',
    });
    expect(again).toMatchObject({ created: false, job: { id: byPart[0]!.id } });
    expect(
      (await h.engine.handlers['jobs.list']({ limit: 50, view: 'active' })).items.filter(
        (j) => j.prompt === 'five boats',
      ),
    ).toHaveLength(2);

    // One server asked by id, or only one server on: the batch stays one job.
    const pinned = await h.engine.handlers['jobs.submit']({
      provider: 'a1111-2',
      prompt: 'pinned batch',
      width: 64,
      height: 64,
      count: 5,
      seed: 100,
      steps: 2,
    });
    expect(pinned.job.count).toBe(5);
    await h.engine.handlers['settings.update']({ providers: { 'a1111-2': { enabled: false } } });
    const single = await h.engine.handlers['jobs.submit']({
      provider: 'any:a1111',
      prompt: 'lone batch',
      width: 64,
      height: 64,
      count: 5,
      seed: 100,
      steps: 2,
    });
    expect(single.job.count).toBe(5);
  });
});
