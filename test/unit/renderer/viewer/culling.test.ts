import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, JobSummary } from '../../../../shared/contract';
import { keyToCommand, type KeyInput } from '../../../../renderer/src/common/keyboard';
import { allShownRejected, asksForRejected, visibleImages } from '../../../../renderer/src/curation/curation';
import { DEFAULT_FILTERS } from '../../../../renderer/src/store/filters';
import * as model from '../../../../renderer/src/store/jobs-model';
import { createAppStore } from '../../../../renderer/src/store/store';
import { marksOf, stripAround } from '../../../../renderer/src/viewer/filmstrip';
import { feedbackOf } from '../../../../renderer/src/viewer/mark-feedback';
import { fakeApi, flush, makeJob } from '../helpers';

const key = (k: string, over: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  inTextField: false,
  ...over,
});

function image(id: string, extra: Partial<ImageSummary> = {}): ImageSummary {
  return { id, index: 0, width: 64, height: 64, mime: 'image/png', bytes: 10, ...extra };
}

describe('X rejects, as Lightroom’s reject flag', () => {
  it('X is reject in the grid and the viewer, not in a text field or with a modifier', () => {
    expect(keyToCommand(key('x'), 'grid')).toBe('reject');
    expect(keyToCommand(key('X', { shiftKey: true }), 'viewer')).toBe('reject');
    expect(keyToCommand(key('x', { inTextField: true }), 'viewer')).toBeNull();
    expect(keyToCommand(key('x', { ctrlKey: true }), 'grid')).toBeNull();
    expect(keyToCommand(key('x'), 'composer')).toBeNull();
  });

  it('a rejected image leaves its card; a card of rejects only (is:rejected) shows them; the viewer keeps its own', () => {
    const mixed = makeJob({ images: [image('a'), image('b', { rejected: true }), image('c')] });
    expect(visibleImages(mixed, 'active').map((i) => i.id)).toEqual(['a', 'c']);
    expect(visibleImages(mixed, 'active', new Set(['b'])).map((i) => i.id)).toEqual(['a', 'b', 'c']);
    const rejects = makeJob({ images: [image('d', { rejected: true }), image('e', { trashed: true })] });
    expect(visibleImages(rejects, 'active').map((i) => i.id)).toEqual(['d']);
    expect(allShownRejected(rejects)).toBe(true);
    expect(allShownRejected(mixed)).toBe(false);
    expect(allShownRejected(makeJob({ images: [] }))).toBe(false);
  });

  it('a job of rejects only leaves All and Favorites, and comes back under is:rejected', () => {
    const kept = makeJob({ images: [image('k')] });
    const rejected = makeJob({ favorite: true, images: [image('r', { favorite: true })] });
    const page = { items: [rejected, kept], nextCursor: null };
    for (const view of ['all', 'favorites'] as const) {
      const filters = { ...DEFAULT_FILTERS, view };
      const shown = model.applyFirstPage(model.EMPTY_JOBS, page, filters);
      expect(shown.order).toContain(rejected.id);
      const changed = { ...rejected, updatedAt: rejected.updatedAt + 1, images: [image('r', { rejected: true })] };
      expect(model.applyJobChanged(shown, changed, filters).order).not.toContain(rejected.id);
    }
    // Under is:rejected the engine's page holds it, and an event keeps it there.
    const asked = { ...DEFAULT_FILTERS, search: 'is:rejected' };
    const onlyRejects = { ...rejected, images: [image('r', { rejected: true })] };
    const found = model.applyFirstPage(model.EMPTY_JOBS, { items: [onlyRejects], nextCursor: null }, asked);
    expect(found.order).toEqual([rejected.id]);
    expect(model.applyJobChanged(found, { ...onlyRejects, updatedAt: onlyRejects.updatedAt + 1 }, asked).order).toEqual(
      [rejected.id],
    );
    expect(asksForRejected('fox (is:rejected | is:favorite)')).toBe(true);
    expect(asksForRejected('-is:rejected')).toBe(false);
    expect(asksForRejected('is:rejectedish')).toBe(false);
  });

  it('rejects at once on the card, then offers Undo in a toast (the image has left the view)', async () => {
    const job = makeJob({ images: [image('i1'), image('i2')] });
    const fake = fakeApi({
      'jobs.list': async () => ({ items: [job], nextCursor: null }),
      'images.setRejected': async () => ({ updated: 1, undoId: 'u-9' }),
      'images.undo': async () => ({ updated: 1 }),
    });
    const store = createAppStore({ api: fake.api, makeKey: () => 'k', now: () => 0 });
    await store.getState().loadFirstPage();
    const done = store.getState().rejectImages({ images: { imageIds: ['i2'], jobIds: [job.id] } }, true);
    expect(store.getState().jobs.byId[job.id]!.images.map((i) => i.rejected === true)).toEqual([false, true]);
    expect(await done).toBe(true);
    expect(fake.calls.find((c) => c.channel === 'images.setRejected')?.input).toEqual({ ids: ['i2'], rejected: true });
    const toast = store.getState().toasts.find((t) => t.action?.label === 'Undo');
    expect(toast?.message).toMatch(/^Rejected 1 image: hidden from All/u);
    toast!.action!.run();
    await flush();
    expect(fake.calls.find((c) => c.channel === 'images.undo')?.input).toEqual({ undoId: 'u-9' });
    expect(store.getState().jobs.byId[job.id]!.images.some((i) => i.rejected === true)).toBe(false);
  });
});

describe('the viewer’s mark signs', () => {
  it('says each mark with a sign and in words, and offers Undo only for the trash', () => {
    expect(feedbackOf({ kind: 'rating', rating: 4 })).toEqual({ sign: '★★★★', spoken: 'Rated 4 stars', undo: false });
    expect(feedbackOf({ kind: 'rating', rating: 1 }).spoken).toBe('Rated 1 star');
    expect(feedbackOf({ kind: 'rating', rating: 0 }).spoken).toBe('Rating cleared');
    expect(feedbackOf({ kind: 'favorite', on: true }).sign).toBe('♥');
    expect(feedbackOf({ kind: 'favorite', on: false }).sign).toBe('♡ removed');
    expect(feedbackOf({ kind: 'reject', on: true }).sign).toBe('Rejected');
    expect(feedbackOf({ kind: 'reject', on: false }).sign).toBe('Unrejected');
    expect(feedbackOf({ kind: 'trash' })).toMatchObject({ sign: 'Trashed', undo: true });
  });
});

describe('the filmstrip', () => {
  const jobOf = (n: number, prefix: string): JobSummary =>
    makeJob({ images: Array.from({ length: n }, (_, i) => image(`${prefix}-${i}`)) });

  it('shows the current image among its card’s and the grid’s neighbours, with their marks', () => {
    const a = jobOf(1, 'a');
    const b = makeJob({ images: [image('b-0', { rating: 3, favorite: true }), image('b-1', { rejected: true })] });
    const c = jobOf(2, 'c');
    const byId = { [a.id]: a, [b.id]: b, [c.id]: c };
    const order = [a.id, b.id, c.id];
    const strip = stripAround(order, byId, 'active', { jobId: b.id, index: 0 }, 2, new Set(['b-1']));
    expect(strip.map((s) => s.image.id)).toEqual(['a-0', 'b-0', 'b-1', 'c-0']);
    expect(strip.find((s) => s.current)?.image.id).toBe('b-0');
    expect(strip.find((s) => s.image.id === 'c-0')).toMatchObject({ jobId: c.id, index: 0 });
    expect(marksOf(b.images[0]!)).toMatchObject({ stars: 3, favorite: true, rejected: false });
    expect(marksOf(b.images[1]!).words).toBe('rejected');
    // Not kept by the viewer, the reject is not in the strip.
    expect(stripAround(order, byId, 'active', { jobId: b.id, index: 0 }, 2).map((s) => s.image.id)).toEqual([
      'a-0',
      'b-0',
      'c-0',
      'c-1',
    ]);
  });

  it('holds the current image once, in grid order, at most reach either side', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        (sizes, pickJob, pickImage, reach) => {
          const jobs = sizes.map((n, j) => jobOf(n, `j${j}`));
          const byId = Object.fromEntries(jobs.map((j) => [j.id, j]));
          const order = jobs.map((j) => j.id);
          const at = jobs[pickJob % jobs.length]!;
          if (at.images.length === 0) return;
          const index = pickImage % at.images.length;
          const strip = stripAround(order, byId, 'active', { jobId: at.id, index }, reach);
          const current = strip.filter((s) => s.current);
          expect(current.map((s) => s.image.id)).toEqual([at.images[index]!.id]);
          const mid = strip.indexOf(current[0]!);
          expect(mid).toBeLessThanOrEqual(reach);
          expect(strip.length - mid - 1).toBeLessThanOrEqual(reach);
          // The strip is a window on the grid's images in order.
          const all = jobs.flatMap((j) => j.images.map((i) => i.id));
          const first = all.indexOf(strip[0]!.image.id);
          expect(strip.map((s) => s.image.id)).toEqual(all.slice(first, first + strip.length));
          const whole = all.indexOf(at.images[index]!.id);
          expect(mid).toBe(Math.min(reach, whole));
        },
      ),
    );
  });
});

describe('the filmstrip of a job that left the grid', () => {
  it('keeps its neighbours: the job sits where it was when the viewer opened it', () => {
    const jobs = [0, 1, 2].map((j) => makeJob({ images: [image(`g${j}`)] }));
    const byId = Object.fromEntries(jobs.map((j) => [j.id, j]));
    // The middle job was rejected whole: the grid's order no longer holds it.
    const order = [jobs[0]!.id, jobs[2]!.id];
    const strip = stripAround(order, byId, 'active', { jobId: jobs[1]!.id, index: 0, place: 1 }, 3);
    expect(strip.map((s) => s.image.id)).toEqual(['g0', 'g1', 'g2']);
    expect(stripAround(order, byId, 'active', { jobId: jobs[1]!.id, index: 0 }, 3).map((s) => s.image.id)).toEqual([
      'g1',
    ]);
  });
});
