import { describe, expect, it } from 'vitest';
import type { ImageSummary } from '../../../../shared/contract';
import { createAppStore } from '../../../../renderer/src/store/store';
import { fakeApi, makeJob } from '../helpers';

const image = (id: string): ImageSummary => ({ id, index: 0, width: 64, height: 64, mime: 'image/png', bytes: 10 });

describe('a reject from the viewer', () => {
  it('raises no toast over the viewer’s sign (quiet), while the grid’s reject keeps its toast', async () => {
    const job = makeJob({ images: [image('i1'), image('i2')] });
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [job], nextCursor: null }),
      'images.setRejected': async () => ({ updated: 1, undoId: 'u-1' }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    const one = { images: { imageIds: ['i2'], jobIds: [job.id] } };
    expect(await store.getState().rejectImages(one, true, { quiet: true })).toBe(true);
    expect(store.getState().jobs.byId[job.id]!.images[1]!.rejected).toBe(true);
    expect(store.getState().toasts.filter((t) => /^Rejected/u.test(t.message))).toEqual([]);
    expect(await store.getState().rejectImages(one, true)).toBe(true);
    expect(store.getState().toasts.filter((t) => /^Rejected/u.test(t.message))).toHaveLength(1);
  });
});
