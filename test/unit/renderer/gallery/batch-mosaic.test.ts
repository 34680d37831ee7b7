import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageSummary } from '../../../../shared/contract';
import { BatchMosaic } from '../../../../renderer/src/gallery/BatchMosaic';

const api = { mediaUrl: (kind: string, id: string) => `/media/${kind}/${id}` };
const image = (index: number, over: Partial<ImageSummary> & { rejected?: boolean } = {}): ImageSummary =>
  ({ id: `i${index}`, index, width: 512, height: 512, mime: 'image/png', bytes: 10, ...over }) as ImageSummary;

const mosaic = (images: ImageSummary[], focusedImageId: string | null = null) =>
  renderToStaticMarkup(
    createElement(BatchMosaic, {
      api,
      images,
      count: images.length,
      width: 180,
      height: 180,
      focusedImageId,
      imageAllowed: true,
    }),
  );

/** The text a sighted person reads in the card's button (tags and attributes stripped). */
const textOf = (html: string) => html.replace(/<[^>]*>/g, '');

describe('a batch’s pictures in its card', () => {
  it('draws each picture with its own marks, a rejected one faded with its ✕, the focused one ringed', () => {
    const html = mosaic(
      [image(0), image(1, { rating: 3, favorite: true }), image(2, { rejected: true }), image(3)],
      'i3',
    );
    expect(html.match(/<img /g)).toHaveLength(4);
    expect(html).toContain('aria-label="Rated 3 of 5, favorite"');
    expect(html).toContain('aria-label="rejected"');
    expect(html).toMatch(/class="tile[^"]*rejected[^"]*" data-tile="2"/);
    expect(html).toMatch(/class="tile[^"]*focused[^"]*" data-tile="3"/);
    expect(textOf(html)).toBe('★★★♥✕');
  });

  it('beyond four shows three and "+N", the count drawn by CSS: no digit inside the card’s button', () => {
    const html = mosaic(Array.from({ length: 7 }, (_, i) => image(i, { rating: 2 })));
    expect(html.match(/<img /g)).toHaveLength(4);
    expect(html).toContain('data-more="+4"');
    expect(textOf(html)).not.toMatch(/\d/);
  });
});
