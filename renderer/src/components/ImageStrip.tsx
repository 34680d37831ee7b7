import { STRIP_THUMB } from '../lib/grid-layout';
import { thumbSrc } from '../lib/thumbs';
import { useApi, useApp } from '../store/context';

/** An expanded job's images in a row beneath its card; each opens the viewer on that image. */
export function ImageStrip({ id }: { id: string }) {
  const api = useApi();
  const job = useApp((s) => s.jobs.byId[id]);
  const openViewer = useApp((s) => s.openViewer);
  if (job === undefined) return null;
  const count = job.images.length;
  return (
    <div className="image-strip" role="group" aria-label={`Images of: ${job.prompt}`}>
      {job.images.map((image, i) => (
        <button key={image.id} type="button" className="strip-image" aria-label={`Image ${i + 1} of ${count}: ${job.prompt}`} onClick={() => openViewer(id, i)}>
          {thumbSrc(api, image) === null ? (
            <div className="thumb pending" aria-hidden="true" />
          ) : (
            <img className="thumb" src={thumbSrc(api, image)!} alt="" width={STRIP_THUMB} height={STRIP_THUMB} loading="lazy" decoding="async" draggable={false} />
          )}
        </button>
      ))}
    </div>
  );
}
