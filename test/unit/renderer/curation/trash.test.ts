import { describe, expect, it } from 'vitest';
import type { KeyboardEvent } from 'react';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import {
  canEmptyTrash,
  emptiedWhat,
  emptyTrashWhat,
  purgeQuestion,
  purgeTargetOf,
  trashContents,
} from '../../../../renderer/src/curation/trash-rules';
import { onGridKey } from '../../../../renderer/src/gallery/grid-keys';
import { createAppStore } from '../../../../renderer/src/store/store';
import { emptyStats, fakeApi, flush, makeJob } from '../helpers';

const image = (id: string, extra: Partial<ImageSummary> = {}): ImageSummary => ({
  id,
  index: 0,
  width: 64,
  height: 64,
  mime: 'image/png',
  bytes: 10,
  ...extra,
});
const summary = (s: Partial<{ jobs: number; images: number; looseImages: number }>) => ({
  jobs: 0,
  images: 0,
  looseImages: 0,
  bytes: 0,
  favorites: 0,
  ...s,
});

/** A batch of four with one image trashed alone, and a job trashed whole: the trash view's two kinds of card. */
function trashCards(): { loose: JobSummary; whole: JobSummary } {
  const loose = makeJob({ images: [image('a1', { trashed: true }), image('a2'), image('a3'), image('a4')] });
  const whole = makeJob({ trashedAt: 5, images: [image('b1'), image('b2')] });
  return { loose, whole };
}

function trashStore(jobs: JobSummary[]) {
  const fake = fakeApi({
    'jobs.list': async () => ({ items: jobs, nextCursor: null }),
    'jobs.stats': async () => emptyStats,
    'jobs.purgeTrashed': async () => ({ removed: 1, bytesFreed: 0 }),
    'jobs.restore': async () => ({ updated: 1 }),
    'images.restore': async () => ({ updated: 1, undoId: null }),
  });
  const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
  return { fake, store };
}

describe('the trash banner counts what the Trash view shows', () => {
  it('one image trashed from a batch is in the trash, and Empty trash is offered for it', () => {
    const s = summary({ images: 1, looseImages: 1 });
    expect(trashContents(s)).toBe('1 image in the trash.');
    expect(canEmptyTrash(s)).toBe(true);
  });

  it('nothing at all says so and offers nothing; jobs trashed whole and single images are told apart', () => {
    expect(trashContents(summary({}))).toBe('Nothing in the trash.');
    expect(canEmptyTrash(summary({}))).toBe(false);
    expect(trashContents(summary({ jobs: 2, images: 9, looseImages: 1 }))).toBe(
      '2 jobs (8 images) and 1 single image in the trash.',
    );
    // A failed job has no image: still something Empty trash removes.
    expect(canEmptyTrash(summary({ jobs: 1 }))).toBe(true);
    expect(trashContents(summary({ jobs: 1 }))).toBe('1 job in the trash.');
  });

  it('Empty trash asks with both counted, and its toast says what went', () => {
    expect(emptyTrashWhat(summary({ images: 1, looseImages: 1 }))).toBe('1 image');
    expect(emptyTrashWhat(summary({ jobs: 1, images: 3, looseImages: 2 }))).toBe(
      '1 job with 1 image and 2 single images',
    );
    expect(emptiedWhat(summary({ jobs: 4, images: 4 }))).toBe('4 jobs removed');
    expect(emptiedWhat(summary({ images: 1, looseImages: 1 }))).toBe('1 image removed');
  });
});

describe('Delete permanently asks with the count', () => {
  it('counts the images each card shows in the trash: a whole job all of its images, a batch only its trashed one', () => {
    const { loose, whole } = trashCards();
    const target = purgeTargetOf([loose, whole]);
    expect(target).toMatchObject({ ids: [whole.id], imageIds: ['a1'], images: 3 });
    expect(purgeQuestion(target)).toBe('Delete 3 images permanently? This cannot be undone.');
  });

  it('one picked image of a job trashed whole goes alone', () => {
    const { whole } = trashCards();
    expect(purgeTargetOf([whole], ['b2'])).toMatchObject({ ids: [], imageIds: ['b2'], images: 1 });
  });

  it('the Delete key in the trash opens the question and restores nothing; confirming deletes, with a toast', async () => {
    const { loose, whole } = trashCards();
    const { fake, store } = trashStore([loose, whole]);
    store.getState().setFilters({ view: 'trash' });
    await store.getState().loadFirstPage();
    store.getState().focusImage(loose.id, null);
    const event = {
      key: 'Delete',
      target: null,
      preventDefault: () => undefined,
    } as unknown as KeyboardEvent<HTMLDivElement>;
    onGridKey(event, { store, rows: { rows: [] } as never, columns: 4, focusCard: () => undefined });
    await flush();
    expect(store.getState().purgeAsk?.question).toBe('Delete 1 image permanently? This cannot be undone.');
    expect(fake.calls.filter((c) => c.channel.endsWith('.restore'))).toEqual([]);

    await store.getState().confirmPurge();
    expect(fake.calls.find((c) => c.channel === 'jobs.purgeTrashed')?.input).toEqual({ ids: [], imageIds: ['a1'] });
    expect(store.getState().purgeAsk).toBeNull();
    expect(store.getState().toasts.map((t) => t.message)).toContain('Deleted 1 image permanently.');
  });
});

describe('Restore from the trash', () => {
  it('of a batch card restores its trashed image alone; of a job trashed whole, the job', async () => {
    const { loose, whole } = trashCards();
    const { fake, store } = trashStore([loose, whole]);
    await store.getState().loadFirstPage();
    await store.getState().restoreFromTrash([loose.id]);
    expect(fake.calls.find((c) => c.channel === 'images.restore')?.input).toMatchObject({ ids: ['a1'] });
    await store.getState().restoreFromTrash([whole.id]);
    expect(fake.calls.find((c) => c.channel === 'jobs.restore')?.input).toEqual({ ids: [whole.id] });
  });
});
