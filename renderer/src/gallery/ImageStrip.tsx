import { visibleImages } from '../curation/curation';
import { startImageDrag } from '../library/export/drag-out';
import { STRIP_THUMB } from './grid-layout';
import { thumbSrc } from '../common/thumbs';
import { useApi, useApp, useAppStore } from '../store/context';
import { CurationBadges } from '../curation/CurationBadges';

/** An expanded job's images in a row beneath its card; each opens the viewer on that image, and drags to a board. */
export function ImageStrip({ id }: { id: string }) {
  const api = useApi();
  const store = useAppStore();
  const job = useApp((s) => s.jobs.byId[id]);
  const view = useApp((s) => (s.filters.view === 'trash' ? 'trash' : 'active'));
  const focused = useApp((s) => (s.focusedJobId === id ? s.focusedImageId : null));
  const openViewer = useApp((s) => s.openViewer);
  if (job === undefined) return null;
  const images = visibleImages(job, view);
  const count = images.length;
  return (
    <div className="image-strip" role="group" aria-label={`Images of: ${job.prompt}`}>
      {images.map((image, i) => (
        <button
          key={image.id}
          type="button"
          className={image.id === focused ? 'strip-image focused' : 'strip-image'}
          aria-label={`Image ${i + 1} of ${count}: ${job.prompt}`}
          draggable
          onDragStart={(e) => startImageDrag(e, api, [image.id], store.getState().reportError)}
          onClick={() => openViewer(id, i)}
        >
          {thumbSrc(api, image) === null ? (
            <div className="thumb pending" aria-hidden="true" />
          ) : (
            <img
              className="thumb"
              src={thumbSrc(api, image)!}
              alt=""
              width={STRIP_THUMB}
              height={STRIP_THUMB}
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
