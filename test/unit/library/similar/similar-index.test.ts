import { describe, expect, it } from 'vitest';
import { createSimilarIndex } from '../../../../electron/library/similar/similar-index.js';
import type { JobStore, NewImage } from '../../../../electron/db/types.js';
import { finished, image, open } from '../../db/helpers.js';

const A = '0123456789abcdef';
/** A with the lowest `bits` bits flipped. */
const near = (bits: number) => (BigInt(`0x${A}`) ^ ((1n << BigInt(bits)) - 1n)).toString(16).padStart(16, '0');
const FAR = 'fedcba9876543210';
const TEXTURED = { r: 120, g: 130, b: 140, spread: 40 };

function hashed(index: number, phash: string | undefined, sha?: string): NewImage {
  const made = image(index);
  return { ...made, ...(phash === undefined ? {} : { phash }), ...(sha === undefined ? {} : { sha256: sha }) };
}

function setup(store: JobStore, made: string[] = []) {
  return createSimilarIndex({
    store,
    hashNow: async (imageId) => {
      made.push(imageId);
      return null;
    },
    // The hashes decide here: every picture textured and one colour (near-copy.test.ts covers the colour check).
    colourOf: async () => TEXTURED,
  });
}

describe('the similarity index over the store', () => {
  it('groups the same bytes stored twice as exact copies, inside their near group', async () => {
    const store = open();
    const one = hashed(0, A, 'same-bytes');
    const two = hashed(0, A, 'same-bytes');
    const three = hashed(0, near(3));
    const jobs = [
      finished(store, 'a', {}, [one]),
      finished(store, 'b', {}, [two]),
      finished(store, 'c', {}, [three]),
      finished(store, 'd', {}, [hashed(0, FAR)]),
    ];
    const page = await setup(store).duplicates(undefined);
    expect(page.groups).toEqual([
      {
        kind: 'exact',
        imageIds: expect.arrayContaining([one.id, two.id]),
        jobIds: expect.arrayContaining([jobs[0], jobs[1]]),
      },
      {
        kind: 'near',
        imageIds: expect.arrayContaining([one.id, two.id, three.id]),
        jobIds: expect.arrayContaining(jobs.slice(0, 3)),
      },
    ]);
    expect(page.groups[1]!.imageIds).toHaveLength(3);
    expect(page.jobs.map((j) => j.id).sort()).toEqual(jobs.slice(0, 3).sort());
    expect(page.nextCursor).toBeNull();
  });

  it('pages groups newest first with a cursor, each group once', async () => {
    const store = open();
    const index = setup(store);
    const expected: string[][] = [];
    for (let g = 0; g < 60; g += 1) {
      // Sixty distinct pictures, each stored twice a bit apart: far from each other (a different random hash each).
      const base = (BigInt(g + 1) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
      const a = hashed(0, base.toString(16).padStart(16, '0'));
      const b = hashed(1, (base ^ 1n).toString(16).padStart(16, '0'));
      finished(store, `p${g}`, {}, [a, b]);
      expected.unshift([a.id, b.id].sort());
    }
    const first = await index.duplicates(undefined);
    expect(first.groups).toHaveLength(50);
    const second = await index.duplicates(first.nextCursor!);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.groups, ...second.groups].map((g) => [...g.imageIds].sort());
    expect(seen).toEqual(expected);
  });

  it('finds an image stored after the index loaded, and one whose hash was recorded later', async () => {
    const store = open();
    const index = setup(store);
    const first = hashed(0, A);
    finished(store, 'first', {}, [first]);
    expect((await index.similar(first.id, 10)).items).toEqual([]);
    const later = hashed(0, near(2));
    const laterJob = finished(store, 'later', {}, [later]);
    // An imported image: stored without a hash, given one by its thumbnail afterwards.
    const imported = hashed(0, undefined);
    const importedJob = finished(store, 'imported', {}, [imported]);
    const after = hashed(0, near(5));
    const afterJob = finished(store, 'after', {}, [after]);
    expect((await index.similar(first.id, 10)).items.map((i) => i.jobId)).toEqual([laterJob, afterJob]);
    index.record(imported.id, near(1));
    const result = await index.similar(first.id, 10);
    expect(result.items).toEqual([
      { imageId: imported.id, jobId: importedJob, distance: 1 },
      { imageId: later.id, jobId: laterJob, distance: 2 },
      { imageId: after.id, jobId: afterJob, distance: 5 },
    ]);
    expect(result.jobs.map((j) => j.id)).toEqual([importedJob, laterJob, afterJob]);
    // Hashed again (stale entry left behind): it answers with its new hash only.
    index.record(imported.id, FAR);
    expect((await index.similar(first.id, 10)).items.map((i) => i.imageId)).toEqual([later.id, after.id]);
  });

  it('finds a new image that reuses the rowid of a purged one', async () => {
    const store = open();
    const index = setup(store);
    const first = hashed(0, A);
    finished(store, 'first', {}, [first]);
    const newest = finished(store, 'newest', {}, [hashed(0, FAR)]);
    expect((await index.similar(first.id, 10)).items).toEqual([]);
    store.trash([newest]);
    store.purge([newest]);
    index.removed();
    const reused = hashed(0, near(4));
    finished(store, 'reused', {}, [reused]);
    expect((await index.similar(first.id, 10)).items.map((i) => i.imageId)).toEqual([reused.id]);
  });

  it('makes the hash of an image that has none yet, and says so when it cannot', async () => {
    const store = open();
    const made: string[] = [];
    const pending = hashed(0, undefined);
    finished(store, 'pending', {}, [pending]);
    await expect(setup(store, made).similar(pending.id, 5)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(made).toEqual([pending.id]);
  });

  it('groups pictures the hash links only where their colours agree: flat blue and flat light blue are not copies', async () => {
    const store = open();
    // Flat pictures: one degenerate hash for all, told apart by colour alone.
    const blue = hashed(0, A);
    const lightBlue = hashed(0, A);
    const blueAgain = hashed(0, near(1));
    const colours = new Map([
      [blue.id, { r: 0, g: 0, b: 255, spread: 0 }],
      [lightBlue.id, { r: 135, g: 206, b: 250, spread: 0 }],
      [blueAgain.id, { r: 0, g: 1, b: 254, spread: 0.1 }],
    ]);
    const jobs = [blue, lightBlue, blueAgain].map((img, i) => finished(store, `flat-${i}`, {}, [img]));
    const index = createSimilarIndex({
      store,
      hashNow: async () => null,
      colourOf: async (id) => colours.get(id) ?? null,
    });
    const page = await index.duplicates(undefined);
    expect(page.groups).toEqual([
      {
        kind: 'near',
        imageIds: expect.arrayContaining([blue.id, blueAgain.id]),
        jobIds: expect.arrayContaining([jobs[0], jobs[2]]),
      },
    ]);
    expect(page.groups[0]!.imageIds).toHaveLength(2);
  });
});
