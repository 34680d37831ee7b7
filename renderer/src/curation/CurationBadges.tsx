import type { ImageSummary } from '../../../shared/contract';

/** An image's own curation over its thumbnail: its stars and its heart, nothing for an image not yet curated. */
export function CurationBadges({ image }: { image: ImageSummary }) {
  const rating = image.rating ?? 0;
  if (rating === 0 && image.favorite !== true) return null;
  return (
    <span
      className="curation-badges"
      role="img"
      aria-label={[rating > 0 ? `Rated ${rating} of 5` : '', image.favorite ? 'favorite' : '']
        .filter(Boolean)
        .join(', ')}
    >
      {rating > 0 ? <span className="stars">{'★'.repeat(rating)}</span> : null}
      {image.favorite ? <span className="heart">♥</span> : null}
    </span>
  );
}
