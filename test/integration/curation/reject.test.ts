import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, JobSummary, ListQuery } from '../../../shared/contract.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';

async function make(h: Harness, prompt: string, extra: Partial<GenerateRequest> = {}): Promise<JobSummary> {
  const { job } = await h.engine.handlers['jobs.submit']({
    provider: 'builtin',
    prompt,
    width: 64,
    height: 64,
    count: 1,
    ...extra,
  });
  await waitForStatus(h.engine, job.id, ['succeeded']);
  return h.engine.handlers['jobs.list']({ limit: 200, view: 'all' }).then((p) => p.items.find((j) => j.id === job.id)!);
}

const list = (h: Harness, query: Partial<ListQuery> = {}) =>
  h.engine.handlers['jobs.list']({ limit: 200, view: 'active', ...query });
const ids = (page: { items: JobSummary[] }) => page.items.map((j) => j.id);

describe('reject (X): hidden from the default view, found with is:rejected', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('one rejected image leaves its card and the counts; the last one takes the job out of All', async () => {
    h = await startHarness();
    const batch = await make(h, 'three foxes', { count: 3, seed: 7 });
    const single = await make(h, 'a lone owl');
    const [first, second, third] = batch.images;
    const counts = () => h.engine.handlers['jobs.count']({});
    expect(await counts()).toMatchObject({ images: 4 });

    const rejected = await h.engine.handlers['images.setRejected']({ ids: [second!.id], rejected: true });
    expect(rejected).toMatchObject({ updated: 1, undoId: expect.any(String) });
    const card = (await list(h)).items.find((j) => j.id === batch.id)!;
    expect(card.images.map((i) => i.id)).toEqual([first!.id, third!.id]);
    const found = await list(h, { search: 'is:rejected' });
    expect(ids(found)).toEqual([batch.id]);
    expect(found.items[0]!.images.map((i) => [i.id, i.rejected])).toEqual([[second!.id, true]]);
    expect((await counts()).images).toBe(3);
    // A filtered count takes the same rule: the rejected image is not among "all matches".
    expect((await h.engine.handlers['jobs.count']({ search: 'foxes' })).images).toBe(2);

    await h.engine.handlers['images.setRejected']({ ids: [single.images[0]!.id], rejected: true });
    expect(ids(await list(h))).toEqual([batch.id]);
    expect(ids(await list(h, { search: 'is:rejected' }))).toEqual([single.id, batch.id]);
    expect(await counts()).toMatchObject({ images: 2 });
    expect(ids(await list(h, { search: '-is:rejected owl' }))).toEqual([]);

    // X again clears it: the owl is back in All.
    await h.engine.handlers['images.setRejected']({ ids: [single.images[0]!.id], rejected: false });
    expect(ids(await list(h))).toEqual([single.id, batch.id]);
    expect((await counts()).images).toBe(3);
  });

  it('undo puts the reject back as it was, and a trashed sibling leaves a wholly rejected job out of All', async () => {
    h = await startHarness();
    const pair = await make(h, 'two cats', { count: 2 });
    const [a, b] = pair.images;
    const { undoId } = await h.engine.handlers['images.setRejected']({ ids: [a!.id], rejected: true });
    await h.engine.handlers['images.undo']({ undoId: undoId! });
    expect((await list(h)).items[0]!.images.map((i) => i.id)).toEqual([a!.id, b!.id]);

    await h.engine.handlers['images.setRejected']({ ids: [a!.id], rejected: true });
    await h.engine.handlers['images.trash']({ ids: [b!.id] });
    // What is left outside the trash is rejected: nothing of the job shows in All.
    expect(ids(await list(h))).toEqual([]);
    expect(ids(await list(h, { search: 'is:rejected' }))).toEqual([pair.id]);
    await h.engine.handlers['images.restore']({ ids: [b!.id] });
    expect((await list(h)).items[0]!.images.map((i) => i.id)).toEqual([b!.id]);
  });
});
