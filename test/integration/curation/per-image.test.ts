import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, JobSummary, ListQuery } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';

const request = (prompt: string, extra: Partial<GenerateRequest> = {}) => ({
  provider: 'builtin',
  prompt,
  width: 64,
  height: 64,
  count: 1,
  ...extra,
});

async function make(h: Harness, prompt: string, extra: Partial<GenerateRequest> = {}): Promise<JobSummary> {
  const { job } = await h.engine.handlers['jobs.submit'](request(prompt, extra));
  await waitForStatus(h.engine, job.id, ['succeeded']);
  return h.engine.handlers['jobs.list']({ limit: 200, view: 'all' }).then((p) => p.items.find((j) => j.id === job.id)!);
}

const list = (h: Harness, query: Partial<ListQuery> = {}) =>
  h.engine.handlers['jobs.list']({ limit: 200, view: 'active', ...query });
const ids = (page: { items: JobSummary[] }) => page.items.map((j) => j.id);

describe('curation is per image: one image of a batch alone', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('rates, favourites, trashes and restores one image of a batch of four; the batch stays one card', async () => {
    h = await startHarness();
    const batch = await make(h, 'four foxes', { count: 4, seed: 7 });
    const other = await make(h, 'a lone owl');
    const [first, second, third] = batch.images;

    const before = (await h.engine.handlers['jobs.get']({ id: batch.id })).updatedAt;
    const rated = await h.engine.handlers['images.setRating']({ ids: [second!.id], rating: 5 });
    expect(rated).toMatchObject({ updated: 1 });
    // A curated job is a changed job: its summary's updatedAt moves on, so clients keep the new one.
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).updatedAt).toBeGreaterThan(before);
    expect(rated.undoId).toEqual(expect.any(String));
    const five = await list(h, { search: 'rating:5' });
    expect(ids(five)).toEqual([batch.id]);
    // The card shows the image that matched, with its own rating; its siblings stay unrated.
    expect(five.items[0]!.images.map((i) => [i.id, i.rating])).toEqual([[second!.id, 5]]);
    const whole = (await list(h)).items.find((j) => j.id === batch.id)!;
    expect(whole.images.map((i) => i.rating ?? 0)).toEqual([0, 5, 0, 0]);

    await h.engine.handlers['images.setFavorite']({ ids: [third!.id], favorite: true });
    const favourites = await list(h, { favorite: true });
    expect(ids(favourites)).toEqual([batch.id]);
    expect(favourites.items[0]!.images.map((i) => i.id)).toEqual([third!.id]);
    expect(ids(await list(h, { search: 'is:favorite' }))).toEqual([batch.id]);

    await h.engine.handlers['images.trash']({ ids: [first!.id] });
    const active = (await list(h)).items.find((j) => j.id === batch.id)!;
    expect(active.images.map((i) => i.id)).toEqual([second!.id, third!.id, batch.images[3]!.id]);
    const trash = await list(h, { view: 'trash' });
    expect(ids(trash)).toEqual([batch.id]);
    expect(trash.items[0]!.images.map((i) => [i.id, i.trashed])).toEqual([[first!.id, true]]);
    expect(ids(await list(h))).toEqual([other.id, batch.id]);

    await h.engine.handlers['images.restore']({ ids: [first!.id] });
    expect((await list(h)).items.find((j) => j.id === batch.id)!.images).toHaveLength(4);
    expect(ids(await list(h, { view: 'trash' }))).toEqual([]);
  });

  it('moves a job to the trash once its last image goes, and restoring one image brings back only that one', async () => {
    h = await startHarness();
    const batch = await make(h, 'two cats', { count: 2 });
    const [a, b] = batch.images;
    await h.engine.handlers['images.trash']({ ids: [a!.id, b!.id] });
    expect(ids(await list(h))).toEqual([]);
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).trashedAt).toEqual(expect.any(Number));

    await h.engine.handlers['images.restore']({ ids: [b!.id] });
    const back = (await list(h)).items[0]!;
    expect(back.id).toBe(batch.id);
    expect(back.images.map((i) => i.id)).toEqual([b!.id]);
    expect((await list(h, { view: 'trash' })).items[0]!.images.map((i) => i.id)).toEqual([a!.id]);

    // Empty trash removes the one image left there, and the job keeps the other.
    const emptied = await h.engine.handlers['jobs.emptyTrash']({});
    expect(emptied.bytesFreed).toBeGreaterThan(0);
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).images.map((i) => i.id)).toEqual([b!.id]);
  });

  it('restoring a job trashed whole brings back all of its images, and restoring one image of it only that one', async () => {
    h = await startHarness();
    const batch = await make(h, 'three birds', { count: 3 });
    await h.engine.handlers['images.trash']({ ids: [batch.images[0]!.id] });
    await h.engine.handlers['jobs.trash']({ ids: [batch.id] });
    await h.engine.handlers['jobs.restore']({ ids: [batch.id] });
    expect((await list(h)).items[0]!.images).toHaveLength(3);

    // Trashed whole, then one image restored: that one comes back, its siblings stay in the trash.
    await h.engine.handlers['jobs.trash']({ ids: [batch.id] });
    const restored = await h.engine.handlers['images.restore']({ ids: [batch.images[1]!.id] });
    expect((await list(h)).items[0]!.images.map((i) => i.id)).toEqual([batch.images[1]!.id]);
    expect((await list(h, { view: 'trash' })).items[0]!.images.map((i) => i.id)).toEqual([
      batch.images[0]!.id,
      batch.images[2]!.id,
    ]);
    // Undo puts the job back in the trash whole.
    await h.engine.handlers['images.undo']({ undoId: restored.undoId! });
    expect(ids(await list(h))).toEqual([]);
    expect((await list(h, { view: 'trash' })).items[0]!.images).toHaveLength(3);
  });

  it('a favourite job (jobs.setFavorite) makes each of its images a favourite', async () => {
    h = await startHarness();
    const batch = await make(h, 'starred', { count: 2 });
    await h.engine.handlers['jobs.setFavorite']({ ids: [batch.id], favorite: true });
    const page = await list(h, { search: 'is:favorite' });
    expect(page.items[0]!.images.map((i) => i.favorite)).toEqual([true, true]);
    await h.engine.handlers['images.setFavorite']({ ids: [batch.images[0]!.id], favorite: false });
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).favorite).toBe(true);
    await h.engine.handlers['images.setFavorite']({ ids: [batch.images[1]!.id], favorite: false });
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).favorite).toBe(false);
  });
});

describe('bulk actions on all matches, with one undo', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('tags every image a query matches in one action, counts follow the query, and one undo puts each back', async () => {
    h = await startHarness();
    const foxes = [await make(h, 'red fox', { count: 2 }), await make(h, 'grey fox', { count: 2 })];
    const owl = await make(h, 'snowy owl', { count: 2 });
    await h.engine.handlers['images.setRating']({ ids: [foxes[0]!.images[0]!.id], rating: 3 });

    expect(await h.engine.handlers['jobs.count']({ search: 'fox' })).toEqual({
      active: 4,
      favorites: 0,
      trash: 0,
      images: 4,
      capped: [],
    });
    const tagged = await h.engine.handlers['images.tag']({ query: { view: 'active', search: 'fox' }, add: ['Keeper'] });
    expect(tagged.updated).toBe(4);
    expect(await h.engine.handlers['tags.list']({})).toEqual({ items: [{ name: 'Keeper', count: 4 }] });
    expect(ids(await list(h, { search: 'tag:keeper' }))).toEqual([foxes[1]!.id, foxes[0]!.id]);
    expect(ids(await list(h, { search: '-tag:keeper' }))).toEqual([owl.id]);

    const rated = await h.engine.handlers['images.setRating']({
      query: { view: 'active', search: 'tag:keeper' },
      rating: 5,
    });
    expect(rated.updated).toBe(4);
    await h.engine.handlers['images.undo']({ undoId: rated.undoId! });
    // Each image's own rating is back: 3 where it was 3, unrated elsewhere.
    const ratings = (await list(h, { search: 'fox' })).items.flatMap((j) => j.images.map((i) => i.rating ?? 0));
    expect(ratings.sort()).toEqual([0, 0, 0, 3]);
    await expect(h.engine.handlers['images.undo']({ undoId: rated.undoId! })).rejects.toMatchObject({
      code: 'not_found',
    });

    await h.engine.handlers['images.undo']({ undoId: tagged.undoId! });
    expect(await h.engine.handlers['tags.list']({})).toEqual({ items: [] });
  });

  it('renames a tag, and renaming onto another merges them', async () => {
    h = await startHarness();
    const a = await make(h, 'one', { count: 2 });
    await h.engine.handlers['images.tag']({ ids: [a.images[0]!.id], add: ['cat'] });
    await h.engine.handlers['images.tag']({ ids: [a.images[0]!.id, a.images[1]!.id], add: ['kitty'] });
    expect(await h.engine.handlers['tags.rename']({ from: 'cat', to: 'Kitty' })).toEqual({ updated: 1, merged: true });
    expect((await h.engine.handlers['tags.list']({})).items).toEqual([{ name: 'kitty', count: 2 }]);
    expect(await h.engine.handlers['tags.rename']({ from: 'kitty', to: 'Cats' })).toEqual({
      updated: 2,
      merged: false,
    });
    expect(ids(await list(h, { search: 'tag:cats' }))).toEqual([a.id]);
  });
});

describe('boards and smart boards', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('puts images on many boards, finds them with board:, and a smart board counts what matches now', async () => {
    h = await startHarness();
    const fox = await make(h, 'red fox', { count: 2 });
    const owl = await make(h, 'owl');
    const { board: covers } = await h.engine.handlers['boards.create']({ name: 'Cover ideas' });
    const { board: print } = await h.engine.handlers['boards.create']({ name: 'Print' });
    await h.engine.handlers['boards.add']({ boardId: covers.id, ids: [fox.images[0]!.id, owl.images[0]!.id] });
    await h.engine.handlers['boards.add']({ boardId: print.id, ids: [fox.images[0]!.id] });
    const { board: smart } = await h.engine.handlers['boards.create']({ name: 'Top rated', query: 'rating:>=4' });

    const counts = async () =>
      Object.fromEntries((await h.engine.handlers['boards.list']({})).items.map((b) => [b.name, b.count]));
    expect(await counts()).toEqual({ 'Cover ideas': 2, Print: 1, 'Top rated': 0 });
    expect(ids(await list(h, { search: 'board:"cover ideas"' }))).toEqual([owl.id, fox.id]);

    await h.engine.handlers['images.setRating']({ ids: [owl.images[0]!.id], rating: 4 });
    expect((await counts())['Top rated']).toBe(1);
    expect(ids(await list(h, { search: 'board:"Top rated"' }))).toEqual([owl.id]);
    await expect(
      h.engine.handlers['boards.add']({ boardId: smart.id, ids: [fox.images[0]!.id] }),
    ).rejects.toMatchObject({ code: 'conflict' });

    await h.engine.handlers['boards.remove']({ boardId: covers.id, ids: [owl.images[0]!.id] });
    expect((await counts())['Cover ideas']).toBe(1);
    await h.engine.handlers['boards.delete']({ id: covers.id });
    expect(Object.keys(await counts())).toEqual(['Print', 'Top rated']);
    // Deleting a board keeps its images.
    expect(ids(await list(h))).toEqual([owl.id, fox.id]);
    await expect(h.engine.handlers['boards.create']({ name: 'print' })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('queries, sorts and suggestions through the engine', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('finds by seed, size, steps and free settings words; a query it cannot read says where', async () => {
    h = await startHarness();
    const a = await make(h, 'ČERVENÁ liška', { seed: 424242, width: 512, height: 768, steps: 20 });
    const b = await make(h, 'blue bird', { seed: 99, width: 768, height: 512, steps: 30 });
    expect(ids(await list(h, { search: 'cervena' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: 'ČERVENÁ' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: '424242' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: 'seed:424242' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: 'seed:4242*' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: 'seed:1-100' }))).toEqual([b.id]);
    expect(ids(await list(h, { search: 'size:512x768' }))).toEqual([a.id]);
    expect(ids(await list(h, { search: 'ratio:landscape' }))).toEqual([b.id]);
    expect(ids(await list(h, { search: 'steps:25-40' }))).toEqual([b.id]);
    expect(ids(await list(h, { search: 'w:>=768 bird' }))).toEqual([b.id]);
    expect(ids(await list(h, { search: 'builtin' }))).toEqual([b.id, a.id]);
    expect(ids(await list(h, { search: 'provider:builtin date:today' }))).toEqual([b.id, a.id]);
    expect(ids(await list(h, { search: 'liska | bird' }))).toEqual([b.id, a.id]);
    expect(ids(await list(h, { search: '-bird' }))).toEqual([a.id]);

    const bad = await list(h, { search: 'steps:lots' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect(bad).toMatchObject({ code: 'invalid_request', details: { at: 6 } });
  });

  it('sorts oldest first, by rating, and at random in an order that stays put while paging', async () => {
    h = await startHarness();
    const made: JobSummary[] = [];
    for (let i = 0; i < 7; i += 1) made.push(await make(h, `job ${i}`));
    await h.engine.handlers['images.setRating']({ ids: [made[2]!.images[0]!.id], rating: 5 });
    await h.engine.handlers['images.setRating']({ ids: [made[5]!.images[0]!.id], rating: 3 });

    const all = async (query: Partial<ListQuery>) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(h, { ...query, limit: 3, ...(cursor !== undefined && { cursor }) });
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return seen;
    };
    expect(await all({ sort: 'oldest' })).toEqual(made.map((j) => j.id));
    expect(await all({ sort: 'rating' })).toEqual([
      made[2]!.id,
      made[5]!.id,
      ...[6, 4, 3, 1, 0].map((i) => made[i]!.id),
    ]);
    const shuffled = await all({ sort: 'random', shuffle: 12345 });
    expect([...shuffled].sort()).toEqual(made.map((j) => j.id).sort());
    expect(await all({ sort: 'random', shuffle: 12345 })).toEqual(shuffled);
    expect(await all({ sort: 'random', shuffle: 999 })).not.toEqual(shuffled);
  });

  it('suggests keys, and the values the library holds', async () => {
    h = await startHarness();
    const job = await make(h, 'fox', { count: 1 });
    await h.engine.handlers['images.tag']({ ids: [job.images[0]!.id], add: ['Cover art'] });
    const keys = await h.engine.handlers['search.suggest']({ text: 'red mo', cursor: 6 });
    expect(keys.items.map((s) => s.insert)).toEqual(['model:']);
    expect([keys.from, keys.to]).toEqual([4, 6]);
    const tags = await h.engine.handlers['search.suggest']({ text: 'tag:co', cursor: 6 });
    expect(tags.items).toEqual([{ label: 'Cover art', insert: 'tag:"Cover art"', kind: 'value', count: 1 }]);
    expect(ids(await list(h, { search: tags.items[0]!.insert }))).toEqual([job.id]);
  });
});

describe('counts', () => {
  let h: Harness;
  afterEach(async () => h?.cleanup());

  it('without a query come from the totals, and agree with counting every row, trash and per-image trash included', async () => {
    h = await startHarness();
    const a = await make(h, 'red fox', { count: 3 });
    const b = await make(h, 'owl', { count: 2 });
    await make(h, 'cat');
    await h.engine.handlers['images.trash']({ ids: [a.images[0]!.id] });
    await h.engine.handlers['jobs.trash']({ ids: [b.id] });
    await h.engine.handlers['images.setFavorite']({ ids: [a.images[1]!.id], favorite: true });
    const fast = await h.engine.handlers['jobs.count']({});
    // Images, as the tabs count them: two of the fox and the cat; the fox's trashed one and the owl's two in the trash.
    expect(fast).toEqual({ active: 3, favorites: 1, trash: 3, images: 3, capped: [] });
    // The same through the counting path: a query every job matches.
    expect(await h.engine.handlers['jobs.count']({ search: 'builtin' })).toEqual(fast);
  });
});
