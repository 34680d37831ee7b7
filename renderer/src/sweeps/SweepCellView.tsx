import { memo } from 'react';
import type { JobSummary } from '../../../shared/contract';
import type { Api } from '../api';
import { thumbSrc } from '../common/thumbs';

const WAITING: Partial<Record<JobSummary['status'], string>> = { queued: 'Queued…', running: 'Rendering…' };

/** One cell of the grid: its pictures at their own aspect, or what it is waiting for, or why it failed. */
export const SweepCellView = memo(function SweepCellView({
  api,
  job,
  label,
  index,
  left,
  top,
  width,
  height,
  selected,
  focused,
}: {
  api: Pick<Api, 'mediaUrl'>;
  job: JobSummary | null;
  label: string;
  index: number;
  left: number;
  top: number;
  width: number;
  height: number;
  selected: boolean;
  focused: boolean;
}) {
  const images = job?.images.filter((image) => image.trashed !== true) ?? [];
  const waiting = job === null ? undefined : WAITING[job.status];
  const failed = job !== null && ['failed', 'cancelled', 'interrupted'].includes(job.status);
  const state = job === null ? 'missing' : failed ? job.status : (waiting ?? (images.length === 0 ? 'empty' : 'done'));
  const rating = images[0]?.rating;
  return (
    <button
      type="button"
      className={`sweep-cell${selected ? ' selected' : ''}${failed || job === null ? ' failed' : ''}`}
      data-cell={index}
      data-state={state}
      // A cell with words on it (waiting, failed) is named by them after its place; a picture by its place and mark.
      aria-label={images.length > 0 ? `${label}: ${rating === undefined ? 'done' : `rated ${rating}`}` : undefined}
      title={label}
      aria-pressed={selected}
      tabIndex={focused ? 0 : -1}
      style={{ left, top, width, height }}
    >
      {images.length > 0 ? (
        images.map((image) => {
          const src = thumbSrc(api, image);
          return src === null ? (
            <span key={image.id} className="sweep-thumb placeholder" aria-hidden="true" />
          ) : (
            <img
              key={image.id}
              className="sweep-thumb"
              src={src}
              alt=""
              loading="lazy"
              decoding="async"
              draggable={false}
            />
          );
        })
      ) : (
        <span className="sweep-cell-status">
          {waiting !== undefined ? (
            <>
              <span className="sweep-spinner" aria-hidden="true" />
              {waiting}
            </>
          ) : failed ? (
            <>
              <strong>{job!.status === 'failed' ? 'failed' : job!.status}</strong>
              {job!.error === undefined ? null : <span className="sweep-cell-error">{job!.error.message}</span>}
            </>
          ) : job === null ? (
            'missing'
          ) : (
            'no image'
          )}
        </span>
      )}
      {rating === undefined ? null : (
        <span className="sweep-cell-mark" aria-hidden="true">
          {'★'.repeat(rating)}
        </span>
      )}
      {images[0]?.rejected === true ? (
        <span className="sweep-cell-mark rejected" aria-hidden="true">
          ✕
        </span>
      ) : null}
    </button>
  );
});
