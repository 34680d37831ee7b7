import type { ImageSummary } from '../../../shared/contract';

/** Whether the person rejected this image (the flag is optional on older summaries). */
export function isRejected(image: ImageSummary): boolean {
  return (image as { rejected?: boolean }).rejected === true;
}

/**
 * An image's own curation over its thumbnail: its stars, its heart and a reject mark, nothing for an image not yet
 * curated. `compact` (a small tile) draws them smaller so they stay inside the picture; symbols only, no digits, as
 * they may sit inside a button named by its prompt (axe's label-content-name-mismatch).
 */
export function CurationBadges({
  image,
  compact = false,
  decorative = false,
}: {
  image: ImageSummary;
  compact?: boolean;
  /** Drawn for the eye alone: the same marks are said elsewhere on the card (its caption). */
  decorative?: boolean;
}) {
  const rating = image.rating ?? 0;
  const rejected = isRejected(image);
  if (rating === 0 && image.favorite !== true && !rejected) return null;
  return (
    <span
      className={compact ? 'curation-badges compact' : 'curation-badges'}
      role={decorative ? undefined : 'img'}
      aria-hidden={decorative ? true : undefined}
      aria-label={
        decorative
          ? undefined
          : [rejected ? 'rejected' : '', rating > 0 ? `Rated ${rating} of 5` : '', image.favorite ? 'favorite' : '']
              .filter(Boolean)
              .join(', ')
      }
    >
      {rejected ? <span className="reject">✕</span> : null}
      {rating > 0 ? <span className="stars">{'★'.repeat(rating)}</span> : null}
      {image.favorite ? <span className="heart">♥</span> : null}
    </span>
  );
}
