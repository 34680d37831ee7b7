import { memo } from 'react';
import type { ImageSummary } from '../../../shared/contract';
import type { Api } from '../api/types';
import { thumbSrc } from '../common/thumbs';
import { CurationBadges, isRejected } from '../curation/CurationBadges';
import { batchLayout } from './batch-layout';

/** Thumbnails are this long on their long edge; a tile drawn larger asks for the original so it stays sharp. */
const THUMB_EDGE = 384;
/** A tile narrower than this draws its marks small. */
const COMPACT_TILE = 96;

/** Which of a card's pictures a click landed on (its index among the shown images), or null outside any tile. */
export function tileIndexOf(target: EventTarget | null): number | null {
  if (!(target instanceof Element)) return null;
  // data-tile: each tile's index, set below.
  const tile = target.closest('[data-tile]');
  const index = tile === null ? NaN : Number(tile.getAttribute('data-tile'));
  return Number.isInteger(index) ? index : null;
}

export interface BatchMosaicProps {
  api: Pick<Api, 'mediaUrl'>;
  images: readonly ImageSummary[];
  /** How many places to lay out: a running batch keeps room for the pictures still coming. */
  count: number;
  width: number;
  height: number;
  focusedImageId: string | null;
  /** The pictures picked alone (gallery/selection.ts), drawn selected; null when the card is selected whole or not at all. */
  picked?: readonly string[] | null;
  /** False while the person types a search: frames only, no image requests. */
  imageAllowed: boolean;
}

/**
 * Every picture of a batch inside its card (a row for two or three, two by two for four, "+N" beyond), each with its
 * own marks at rest. Drawn inside the card's button, so it holds no control of its own: a click on a tile is read by
 * the card (tileIndexOf), and the arrows move the focused tile.
 */
export const BatchMosaic = memo(function BatchMosaic({
  api,
  images,
  count,
  width,
  height,
  focusedImageId,
  imageAllowed,
  picked = null,
}: BatchMosaicProps) {
  const layout = batchLayout(count, width, height);
  const dpr = globalThis.devicePixelRatio || 1;
  const place = (index: number, box: { x: number; y: number; w: number; h: number }, extra: string) => {
    const image = images[index];
    const foot = box.y + box.h >= height - 1;
    const sharp = Math.max(box.w, box.h) * dpr > THUMB_EDGE * 1.25;
    const src =
      image === undefined || image.thumbPending === true
        ? null
        : sharp
          ? api.mediaUrl('image', image.id)
          : thumbSrc(api, image);
    const classes = [
      'tile',
      extra,
      foot ? 'foot' : '',
      image !== undefined && image.id === focusedImageId ? 'focused' : '',
      image !== undefined && picked?.includes(image.id) === true ? 'picked' : '',
      image !== undefined && isRejected(image) ? 'rejected' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return { image, src, classes };
  };
  return (
    <span className="batch-mosaic" aria-hidden="true">
      {layout.tiles.map((box) => {
        const { image, src, classes } = place(box.index, box, '');
        return (
          <span
            key={image?.id ?? `slot-${box.index}`}
            className={classes}
            data-tile={image === undefined ? undefined : box.index}
            style={{ left: box.x, top: box.y, width: box.w, height: box.h }}
          >
            {src !== null && imageAllowed ? (
              <img className="thumb" src={src} alt="" decoding="async" draggable={false} />
            ) : (
              <span className={src === null ? 'thumb pending' : 'thumb'} />
            )}
            {image === undefined ? null : <CurationBadges image={image} compact={box.w < COMPACT_TILE} />}
          </span>
        );
      })}
      {layout.more === null
        ? null
        : (() => {
            const index = layout.tiles.length;
            const { image, src, classes } = place(index, layout.more, 'more');
            // The count is drawn by CSS from data-more: digits inside the card's button would not be in its name.
            return (
              <span
                key="more"
                className={classes}
                data-tile={index}
                data-more={`+${layout.more.count}`}
                style={{ left: layout.more.x, top: layout.more.y, width: layout.more.w, height: layout.more.h }}
              >
                {src !== null && imageAllowed && image !== undefined ? (
                  <img className="thumb" src={src} alt="" decoding="async" draggable={false} />
                ) : (
                  <span className="thumb pending" />
                )}
              </span>
            );
          })()}
    </span>
  );
});
