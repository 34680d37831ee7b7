import { visibleImages } from '../curation/curation';
import { startImageDrag } from '../library/export/drag-out';
import type { StripLayout } from './batch-layout';
import { thumbSrc } from '../common/thumbs';
import { useApi, useApp, useAppStore } from '../store/context';
import { CurationBadges } from '../curation/CurationBadges';

/** Thumbnails are this long on their long edge. */
const THUMB_EDGE = 384;

/**
 * An expanded job's images beneath its card, each larger than the card (`layout`, from stripLayout); each opens the
 * viewer on that image, and drags to a board.
 */
export function ImageStrip({ id, layout }: { id: string; layout: StripLayout }) {
  const api = useApi();
  const store = useAppStore();
  const job = useApp((s) => s.jobs.byId[id]);
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  const focused = useApp((s) => (s.focusedJobId === id ? s.focusedImageId : null));
  const openViewer = useApp((s) => s.openViewer);
  if (job === undefined) return null;
  const images = visibleImages(job, view);
  const count = images.length;
  // Larger than a thumbnail holds sharply: the image itself, as the card does when drawn large.
  const sharp = Math.max(layout.width, layout.height) * (globalThis.devicePixelRatio || 1) > THUMB_EDGE * 1.25;
  const src = (image: (typeof images)[number]) =>
    image.thumbPending === true ? null : sharp ? api.mediaUrl('image', image.id) : thumbSrc(api, image);
  return (
    <div className="image-strip" role="group" aria-label={`Images of: ${job.prompt}`}>
      {images.map((image, i) => (
        <button
          key={image.id}
          type="button"
          className={image.id === focused ? 'strip-image focused' : 'strip-image'}
          style={{ width: layout.width, height: layout.height }}
          aria-label={`Image ${i + 1} of ${count}: ${job.prompt}`}
          draggable
          onDragStart={(e) => startImageDrag(e, api, [image.id], store.getState().reportError)}
          onClick={() => openViewer(id, i)}
        >
          {src(image) === null ? (
            <div className="thumb pending" aria-hidden="true" />
          ) : (
            <img
              className="thumb"
              src={src(image)!}
              alt=""
              width={layout.width}
              height={layout.height}
              loading="lazy"
              decoding="async"
              draggable={false}
            />
          )}
          <CurationBadges image={image} />
        </button>
      ))}
    </div>
  );
}
