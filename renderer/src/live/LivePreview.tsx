import { memo, useEffect, useState } from 'react';
import { useApi, useApp } from '../store/context';

/** How long a finished card keeps its last preview under the thumbnail, which loads over it meanwhile. */
const HANDOVER_MS = 5_000;

/**
 * A live card's newest partial preview, filling the card beneath its ring. When the job finishes it is the same
 * element with the same picture (the preview file is gone from disk, but the page still holds it), so the card never
 * blanks while its own thumbnail loads on top; a few seconds later it lets the picture go.
 */
export const LivePreview = memo(function LivePreview({
  id,
  width,
  height,
}: {
  id: string;
  width: number;
  height: number;
}) {
  const api = useApi();
  const previewId = useApp((s) => s.jobs.progress[id]?.previewImageId);
  const live = useApp((s) => {
    const status = s.jobs.byId[id]?.status;
    return status === 'queued' || status === 'running';
  });
  const [kept, setKept] = useState<string | undefined>(previewId);
  // The newest preview replaces the kept one as it arrives; the end of the job keeps the last.
  if (previewId !== undefined && previewId !== kept) setKept(previewId);
  useEffect(() => {
    if (live || kept === undefined) return;
    const timer = setTimeout(() => setKept(undefined), HANDOVER_MS);
    return () => clearTimeout(timer);
  }, [kept, live]);
  if (kept === undefined) return null;
  return (
    <img
      className={live ? 'live-preview' : 'live-preview handover'}
      src={api.mediaUrl('preview', kept)}
      alt=""
      aria-hidden="true"
      width={width}
      height={height}
      draggable={false}
    />
  );
});
