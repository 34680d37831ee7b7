import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobSummary } from '../../../shared/contract.js';
import { resolveMediaFile } from '../../../electron/host/media-request.js';
import { toolFiles } from '../../fixtures/images/tool-files.js';
import { importFolder } from '../library/import-helpers.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';

async function batchOfFour(h: Harness): Promise<JobSummary> {
  const { job } = await h.engine.handlers['jobs.submit']({
    provider: 'builtin',
    prompt: 'a lighthouse at dusk',
    width: 64,
    height: 64,
    count: 4,
  });
  await waitForStatus(h.engine, job.id, ['succeeded']);
  return (await h.engine.handlers['jobs.list']({ limit: 200, view: 'all' })).items.find((j) => j.id === job.id)!;
}

const fileOf = async (h: Harness, imageId: string) =>
  (await resolveMediaFile(h.engine, { kind: 'image', imageId }))!.path;
const trashCards = async (h: Harness) => (await h.engine.handlers['jobs.list']({ limit: 200, view: 'trash' })).items;

describe('the trash counts what the Trash view shows: jobs and single images alike', () => {
  let h: Harness;
  let outside: string | undefined;
  afterEach(async () => {
    await h?.cleanup();
    if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('one image trashed from a batch of four is in the summary and the tab count; Empty trash deletes only its file', async () => {
    h = await startHarness();
    const batch = await batchOfFour(h);
    const [gone, ...kept] = batch.images;
    const goneFile = await fileOf(h, gone!.id);
    await h.engine.handlers['images.trash']({ ids: [gone!.id] });

    expect(await trashCards(h)).toHaveLength(1);
    expect((await h.engine.handlers['jobs.count']({})).trash).toBe(1);
    const summary = await h.engine.handlers['jobs.trashSummary']({});
    expect(summary).toEqual({ jobs: 0, images: 1, looseImages: 1, bytes: gone!.bytes, favorites: 0 });

    await h.engine.handlers['jobs.emptyTrash']({});
    expect(existsSync(goneFile)).toBe(false);
    for (const image of kept) expect(existsSync(await fileOf(h, image.id))).toBe(true);
    expect(await h.engine.handlers['jobs.trashSummary']({})).toEqual({
      jobs: 0,
      images: 0,
      looseImages: 0,
      bytes: 0,
      favorites: 0,
    });
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).images).toHaveLength(3);
  });

  it('a job trashed whole counts as a job with its images, and a loose image beside it adds one image', async () => {
    h = await startHarness();
    const whole = await batchOfFour(h);
    const other = await batchOfFour(h);
    await h.engine.handlers['jobs.trash']({ ids: [whole.id] });
    await h.engine.handlers['images.trash']({ ids: [other.images[2]!.id] });
    const summary = await h.engine.handlers['jobs.trashSummary']({});
    expect(summary).toMatchObject({ jobs: 1, images: 5, looseImages: 1 });
    expect(await trashCards(h)).toHaveLength(2);
  });

  it('Delete permanently removes only what the trash holds: a trashed image and a trashed job, never one outside', async () => {
    h = await startHarness();
    const batch = await batchOfFour(h);
    const whole = await batchOfFour(h);
    const [trashed, visible] = batch.images;
    const trashedFile = await fileOf(h, trashed!.id);
    const visibleFile = await fileOf(h, visible!.id);
    await h.engine.handlers['images.trash']({ ids: [trashed!.id] });
    await h.engine.handlers['jobs.trash']({ ids: [whole.id] });
    const active = await batchOfFour(h);

    // Asked for images and a job outside the trash too: those stay.
    const result = await h.engine.handlers['jobs.purgeTrashed']({
      ids: [whole.id, active.id],
      imageIds: [trashed!.id, visible!.id],
    });
    expect(result.removed).toBe(1);
    expect(existsSync(trashedFile)).toBe(false);
    expect(existsSync(visibleFile)).toBe(true);
    expect((await h.engine.handlers['jobs.get']({ id: batch.id })).images.map((i) => i.id)).not.toContain(trashed!.id);
    await expect(h.engine.handlers['jobs.get']({ id: whole.id })).rejects.toMatchObject({ code: 'not_found' });
    expect((await h.engine.handlers['jobs.get']({ id: active.id })).images).toHaveLength(4);
    expect(await trashCards(h)).toHaveLength(0);
  });

  it('an imported original trashed and deleted permanently, or emptied, stays on disk byte for byte', async () => {
    h = await startHarness({ housekeepingDelayMs: 0 });
    outside = mkdtempSync(join(tmpdir(), 'atelier-originals-'));
    const files = (await toolFiles('trashtruth')).slice(0, 2);
    mkdirSync(join(outside, 'mine'));
    for (const f of files) writeFileSync(join(outside, 'mine', f.name), f.bytes);
    await importFolder(h.engine, join(outside, 'mine'));
    const items = (await h.engine.handlers['jobs.list']({ limit: 20, view: 'active' })).items;
    expect(items).toHaveLength(2);
    const [first, second] = items;
    await h.engine.handlers['images.trash']({ ids: [first!.images[0]!.id] });
    await h.engine.handlers['jobs.purgeTrashed']({ ids: [first!.id], imageIds: [first!.images[0]!.id] });
    await h.engine.handlers['jobs.trash']({ ids: [second!.id] });
    await h.engine.handlers['jobs.emptyTrash']({});
    expect((await h.engine.handlers['jobs.list']({ limit: 20, view: 'all' })).items).toHaveLength(0);
    for (const f of files) expect(readFileSync(join(outside, 'mine', f.name)).equals(f.bytes), f.name).toBe(true);
  });
});
