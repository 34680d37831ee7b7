import { STRIP_THUMB } from '../lib/grid-layout';
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
          <img className="thumb" src={api.mediaUrl('thumb', image.id)} alt="" width={STRIP_THUMB} height={STRIP_THUMB} loading="lazy" decoding="async" draggable={false} />
        </button>
      ))}
    </div>
  );
}
