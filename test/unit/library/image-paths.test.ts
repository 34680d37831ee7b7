import { describe, expect, it } from 'vitest';
import { collectImagePaths } from '../../../electron/library/image-paths.js';
import { finished, image, open } from '../db/helpers.js';

describe('collectImagePaths', () => {
  it('reads every row a page at a time, letting the event loop run between pages', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      id: `img-${String(i).padStart(5, '0')}`,
      path: `library/${i % 7}/p${i}.png`,
      thumbPath: i % 3 === 0 ? null : `thumbs/${i % 7}/p${i}.webp`,
      linked: false,
    }));
    const pagesAsked: Array<string | null> = [];
    const store = {
      imagePathsPage(after: string | null, limit: number) {
        pagesAsked.push(after);
        return rows.filter((r) => after === null || r.id > after).slice(0, limit);
      },
    };
    let immediates = 0;
    const count = () => {
      immediates += 1;
      if (immediates < 100) setImmediate(count);
    };
    setImmediate(count);
    const result = await collectImagePaths(store, 1_000);
    expect(pagesAsked).toEqual([null, 'img-00999', 'img-01999']);
    // Work queued on the loop ran while the pages were read: the read did not hold the loop throughout.
    expect(immediates).toBeGreaterThanOrEqual(2);
    expect(result.images).toHaveLength(2_500);
    expect(result.images[2_499]).toEqual({ id: 'img-02499', path: 'library/0/p2499.png' });
    expect(result.referenced.size).toBe(2_500 + rows.filter((r) => r.thumbPath !== null).length);
    expect(result.referenced.has('thumbs/1/p1.webp')).toBe(true);
    expect(result.referenced.has('thumbs/0/p0.webp')).toBe(false);
  });

  it('pages through a real store: every image once, thumbnails included', async () => {
    const store = open();
    const paths: string[] = [];
    for (let j = 0; j < 7; j += 1) {
      const images = [image(0), image(1)];
      finished(store, `job ${j}`, { count: 2 }, images);
      for (const i of images) paths.push(i.path, ...(i.thumbPath === null ? [] : [i.thumbPath]));
    }
    const result = await collectImagePaths(store, 3);
    expect(result.images).toHaveLength(14);
    expect(new Set(result.images.map((i) => i.id)).size).toBe(14);
    expect([...result.referenced].sort()).toEqual([...new Set(paths)].sort());
    store.close();
  });
});
