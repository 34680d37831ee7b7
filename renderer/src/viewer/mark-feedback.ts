/** What the viewer says after a mark key: a short sign over the picture, and words for a screen reader. */

export type Mark =
  | { kind: 'rating'; rating: number }
  | { kind: 'favorite'; on: boolean }
  | { kind: 'reject'; on: boolean }
  | { kind: 'trash' };

export interface Feedback {
  /** The sign over the picture ("★★★★", "♥"). */
  sign: string;
  /** What the live region announces. */
  spoken: string;
  /** The trash's Undo: offered on the sign itself. */
  undo: boolean;
}

/** How long the sign stays: long enough to read, gone before the next key of a quick cull; the Undo a little longer. */
export const FEEDBACK_MS = 1_200;
export const UNDO_FEEDBACK_MS = 5_000;

export function feedbackOf(mark: Mark): Feedback {
  switch (mark.kind) {
    case 'rating':
      return mark.rating === 0
        ? { sign: '☆ cleared', spoken: 'Rating cleared', undo: false }
        : {
            sign: '★'.repeat(mark.rating),
            spoken: `Rated ${mark.rating} ${mark.rating === 1 ? 'star' : 'stars'}`,
            undo: false,
          };
    case 'favorite':
      return mark.on
        ? { sign: '♥', spoken: 'Added to Favorites', undo: false }
        : { sign: '♡ removed', spoken: 'Removed from Favorites', undo: false };
    case 'reject':
      return mark.on
        ? { sign: 'Rejected', spoken: 'Rejected: hidden from All', undo: false }
        : { sign: 'Unrejected', spoken: 'Unrejected', undo: false };
    case 'trash':
      return { sign: 'Trashed', spoken: 'Moved to Trash. Undo with Control+Z.', undo: true };
  }
}
