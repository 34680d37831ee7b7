import { useRef, type Ref } from 'react';
import type { ImageSummary, JobSummary } from '../../../shared/contract';
import type { SharedView } from './compare';
import { jobTitle } from '../common/thumbs';
import { useApi } from '../store/context';
import { ZoomPane, type ZoomControls } from './ZoomPane';

/**
 * Two images in one place at one zoom: the first whole, the second over it clipped to the right of the split.
 * The clip also limits where the second takes the pointer, so either image zooms and pans both.
 */
export function SplitPanes({
  zoomRef,
  shown,
  split,
  onSplit,
  view,
  onView,
}: {
  zoomRef: Ref<ZoomControls>;
  shown: { job: JobSummary; image: ImageSummary }[];
  split: number;
  onSplit: (split: number) => void;
  view: SharedView;
  onView: (view: SharedView) => void;
}) {
  const api = useApi();
  const stage = useRef<HTMLDivElement>(null);
  const dragTo = (clientX: number) => {
    const rect = stage.current?.getBoundingClientRect();
    if (rect === undefined || rect.width === 0) return;
    onSplit(Math.min(100, Math.max(0, ((clientX - rect.left) / rect.width) * 100)));
  };
  return (
    <div ref={stage} className="compare-panes compare-split">
      {shown.map(({ job, image }, i) => (
        <figure
          key={image.id}
          className="compare-pane"
          aria-label={`Image ${i + 1}: ${jobTitle(job)}`}
          style={i === 1 ? { clipPath: `inset(0 0 0 ${split}%)` } : undefined}
        >
          <ZoomPane
            ref={i === 0 ? zoomRef : undefined}
            src={api.mediaUrl('image', image.id)}
            alt={jobTitle(job)}
            width={image.width}
            height={image.height}
            sync={{ view, onChange: onView }}
          />
        </figure>
      ))}
      <div
        className="compare-split-handle"
        style={{ left: `${split}%` }}
        aria-hidden="true"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          e.stopPropagation();
        }}
        onPointerMove={(e) => {
          if (e.currentTarget.hasPointerCapture(e.pointerId)) dragTo(e.clientX);
        }}
      />
      <input
        type="range"
        className="compare-split-range"
        aria-label="Split position"
        min={0}
        max={100}
        step={1}
        value={Math.round(split)}
        onChange={(e) => onSplit(Number(e.target.value))}
      />
    </div>
  );
}
