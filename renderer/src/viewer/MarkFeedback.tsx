import { useEffect } from 'react';
import { FEEDBACK_MS, UNDO_FEEDBACK_MS, feedbackOf, type Mark } from './mark-feedback';
import './feedback.css';

export interface ShownMark {
  /** A new press of the same key shows the sign again (and restarts its timer). */
  seq: number;
  mark: Mark;
  /** The image marked, and its thumbnail: the sign names it once the viewer has moved on. */
  of?: { id: string; thumb: string | null };
}

/**
 * The sign over the picture after a mark key (the Details panel may be hidden: culling), gone by itself, and the
 * live region that says it. The region stays mounted, so every new text is announced.
 */
export function MarkFeedback({
  shown,
  currentImageId,
  spoken,
  onUndo,
  onDone,
}: {
  shown: ShownMark | null;
  /** The image on screen now: a sign for another one (Next after rating moved on) says which it was. */
  currentImageId: string | undefined;
  /** The last announcement (kept after the sign has gone: a live region that empties says nothing new). */
  spoken: string;
  onUndo: () => void;
  onDone: () => void;
}) {
  const feedback = shown === null ? null : feedbackOf(shown.mark);
  const seq = shown?.seq;
  const undo = feedback?.undo === true;
  // A trashed image has left the viewer: "Trashed" can only be about it. Any other mark over another image says so.
  const elsewhere =
    shown?.of !== undefined && shown.mark.kind !== 'trash' && shown.of.id !== currentImageId ? shown.of : null;
  useEffect(() => {
    if (seq === undefined) return;
    const timer = setTimeout(onDone, undo ? UNDO_FEEDBACK_MS : FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [seq, undo, onDone]);
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="mark-announcement">
        {spoken}
      </div>
      {feedback !== null ? (
        <div
          key={seq}
          className={`mark-feedback ${shown!.mark.kind}`}
          data-testid="mark-feedback"
          // The region above says it in words; the sign itself is for the eye.
          aria-hidden={undo ? undefined : true}
        >
          {elsewhere?.thumb == null ? null : <img className="mark-of-thumb" src={elsewhere.thumb} alt="" />}
          <span className="sign">{feedback.sign}</span>
          {elsewhere === null ? null : <span className="mark-of"> · previous image</span>}
          {undo ? (
            <>
              <span aria-hidden="true"> — </span>
              <button type="button" className="btn small" onClick={onUndo}>
                Undo
              </button>
            </>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
