import fc from 'fast-check';
import type { KeyboardEvent } from 'react';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { visibleImages } from '../../../../renderer/src/curation/curation';
import {
  clickSelect,
  draggedImages,
  EMPTY_SELECTION,
  pruneSelection,
  selectAll,
  selectedImages,
  type Selection,
} from '../../../../renderer/src/gallery/selection';
import { onGridKey } from '../../../../renderer/src/gallery/grid-keys';
import { createAppStore } from '../../../../renderer/src/store/store';
import { imagePlace } from '../../../../renderer/src/viewer/image-place';
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

/** Three jobs of two images each, as the afternoon had them. */
function threePairs(): { jobs: JobSummary[]; byId: Record<string, JobSummary>; order: string[] } {
  const jobs = ['a', 'b', 'c'].map((p) => makeJob({ count: 2, images: [image(`${p}1`), image(`${p}2`)] }));
  return { jobs, byId: Object.fromEntries(jobs.map((j) => [j.id, j])), order: jobs.map((j) => j.id) };
}

const plain = { range: false, toggle: false };
const toggle = { range: false, toggle: true };

describe('a selection counts images', () => {
  it('three cards of two images selected are six images; Ctrl/Cmd on one picture of a batch picks it alone', () => {
    const { byId, order } = threePairs();
    const shown = (id: string) => visibleImages(byId[id]!, 'active').map((i) => i.id);
    expect(selectedImages(selectAll(order), order, byId, 'active').imageIds).toHaveLength(6);

    let s = clickSelect(EMPTY_SELECTION, order, order[0]!, toggle, { imageId: 'a2', shown });
    expect(selectedImages(s, order, byId, 'active')).toEqual({ imageIds: ['a2'], jobIds: [order[0]] });
    s = clickSelect(s, order, order[1]!, toggle, { imageId: 'b1', shown });
    s = clickSelect(s, order, order[2]!, toggle);
    expect(selectedImages(s, order, byId, 'active').imageIds).toEqual(['a2', 'b1', 'c1', 'c2']);
    // The other picture of the first card too: the card whole, counted once each.
    s = clickSelect(s, order, order[0]!, toggle, { imageId: 'a1', shown });
    expect(s.images[order[0]!]).toBeUndefined();
    expect(selectedImages(s, order, byId, 'active').imageIds).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
    // Out again, picture by picture: the card leaves the selection with its last picture.
    s = clickSelect(s, order, order[1]!, toggle, { imageId: 'b1', shown });
    expect(s.selected[order[1]!]).toBeUndefined();
    // A plain click on a picture picks it alone; a shift range takes each card in it whole.
    s = clickSelect(s, order, order[2]!, plain, { imageId: 'c2', shown });
    expect(selectedImages(s, order, byId, 'active').imageIds).toEqual(['c2']);
    s = clickSelect(s, order, order[1]!, { range: true, toggle: false });
    expect(selectedImages(s, order, byId, 'active').imageIds).toEqual(['b1', 'b2', 'c1', 'c2']);
  });

  it('a picture picked alone and since trashed is not counted, and pruning keeps what is still shown', () => {
    const { byId, order } = threePairs();
    const shown = (id: string) => visibleImages(byId[id]!, 'active').map((i) => i.id);
    const s = clickSelect(EMPTY_SELECTION, order, order[0]!, plain, { imageId: 'a1', shown });
    const trashed = {
      ...byId,
      [order[0]!]: { ...byId[order[0]!]!, images: [image('a1', { trashed: true }), image('a2')] },
    };
    expect(selectedImages(s, order, trashed, 'active')).toEqual({ imageIds: [], jobIds: [] });
    expect(pruneSelection(s, order)).toBe(s);
    expect(pruneSelection(s, order.slice(1))).toEqual({ selected: {}, images: {}, anchor: null });
  });

  it('in any sequence of clicks, the images counted are shown images of selected cards, each once', () => {
    const sizes = [1, 2, 4, 3, 1];
    const jobs = sizes.map((n, j) =>
      makeJob({ count: n, images: Array.from({ length: n }, (_, i) => image(`j${j}i${i}`)) }),
    );
    const byId = Object.fromEntries(jobs.map((j) => [j.id, j]));
    const order = jobs.map((j) => j.id);
    const shown = (id: string) => visibleImages(byId[id]!, 'active').map((i) => i.id);
    const click = fc.record({
      job: fc.integer({ min: 0, max: jobs.length - 1 }),
      picture: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      range: fc.boolean(),
      toggle: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(click, { maxLength: 30 }), (clicks) => {
        let s: Selection = EMPTY_SELECTION;
        for (const c of clicks) {
          const id = order[c.job]!;
          const pictures = shown(id);
          const pick = c.picture === undefined ? undefined : { imageId: pictures[c.picture % pictures.length]!, shown };
          s = clickSelect(s, order, id, { range: c.range, toggle: c.toggle }, pick);
        }
        const { imageIds, jobIds } = selectedImages(s, order, byId, 'active');
        expect(new Set(imageIds).size).toBe(imageIds.length);
        for (const id of jobIds) expect(s.selected[id]).toBe(true);
        const allowed = new Set(jobIds.flatMap(shown));
        for (const imageId of imageIds) expect(allowed.has(imageId)).toBe(true);
        // Every card selected stands for at least one of its pictures, a whole card for all of them.
        for (const id of Object.keys(s.selected)) {
          const counted = imageIds.filter((i) => shown(id).includes(i));
          expect(counted.length).toBeGreaterThan(0);
          if (s.images[id] === undefined) expect(counted).toEqual(shown(id));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('a drag carries what is counted', () => {
  it('from a selected card, the selection’s images (a picture picked alone is only it); from another card, its own', () => {
    const { byId, order } = threePairs();
    const shown = (id: string) => visibleImages(byId[id]!, 'active').map((i) => i.id);
    let s = clickSelect(EMPTY_SELECTION, order, order[0]!, plain);
    s = clickSelect(s, order, order[1]!, toggle, { imageId: 'b2', shown });
    expect(draggedImages(s, order, byId, 'active', order[0]!)).toEqual(['a1', 'a2', 'b2']);
    expect(draggedImages(s, order, byId, 'active', order[1]!)).toEqual(['a1', 'a2', 'b2']);
    expect(draggedImages(s, order, byId, 'active', order[2]!)).toEqual(['c1', 'c2']);
  });
});

describe('the store’s selection', () => {
  it('a click with a picture picks that picture and focuses it; a card clicked whole stands for its images', async () => {
    const { jobs, order } = threePairs();
    const fake = fakeApi({
      'jobs.list': async () => ({ items: jobs, nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'jobs.count': async () => ({ active: 6, favorites: 0, trash: 0, images: 6, capped: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    await flush();
    store.getState().click(order[0]!, plain);
    store.getState().click(order[1]!, toggle, 'b2');
    const s = store.getState();
    const target = selectedImages(s.selection, s.jobs.order, s.jobs.byId, 'active');
    // In grid order, newest first: the second job's one picture, then the first job's two.
    expect(target.imageIds).toEqual(['b2', 'a1', 'a2']);
    // The picture clicked is the one in focus, as the card shows it.
    expect(s.focusedImageId).toBe('b2');
  });
});

describe('keys on a selection of several cards', () => {
  it('rate exactly the images the selection counts: a card whole and one picture of another', async () => {
    const { jobs, order } = threePairs();
    const fake = fakeApi({
      'jobs.list': async () => ({ items: jobs, nextCursor: null }),
      'jobs.stats': async () => emptyStats,
      'jobs.count': async () => ({ active: 6, favorites: 0, trash: 0, images: 6, capped: [] }),
      'images.setRating': async () => ({ updated: 3, undoId: null, jobs: [] }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    store.getState().click(order[0]!, plain);
    store.getState().click(order[1]!, toggle, 'b2');
    store.getState().focusImage(order[0]!, null);
    const event = {
      key: '4',
      target: null,
      preventDefault: () => undefined,
    } as unknown as KeyboardEvent<HTMLDivElement>;
    onGridKey(event, { store, rows: { rows: [] } as never, columns: 4, focusCard: () => undefined });
    await flush();
    const rated = fake.calls.find((c) => c.channel === 'images.setRating')?.input as { ids: string[]; rating: number };
    expect([...rated.ids].sort()).toEqual(['a1', 'a2', 'b2']);
    expect(rated.rating).toBe(4);
  });
});

describe('the viewer and Details count alike', () => {
  it('Details says where the open image is among the images the viewer steps through, and what they leave out', () => {
    const batch = makeJob({
      count: 4,
      images: [image('p1'), image('p2', { trashed: true }), image('p3'), image('p4')],
    });
    expect(visibleImages(batch, 'active')).toHaveLength(3);
    expect(imagePlace(batch, 'active', 'p4')).toBe('3 of 3 · 1 in the trash');
    expect(imagePlace(batch, 'trash', 'p2')).toBe('1 of 1 · 3 outside the trash');
    const short = makeJob({ count: 4, status: 'failed', images: [image('q1'), image('q2')] });
    expect(imagePlace(short, 'active', 'q1')).toBe('1 of 2 · 2 of 4 not made');
    expect(imagePlace(makeJob({ images: [image('r1')] }), 'active', 'r1')).toBe('1 of 1');
  });
});
