import type { DragEvent, KeyboardEvent } from 'react';
import type { JobSummary } from '../../../shared/contract';
import { jobShape } from './queue-text';

export interface QueuedRowProps {
  job: JobSummary;
  place: number;
  providerName: string;
  dragging: boolean;
  dropBefore: boolean;
  onKeyDown(event: KeyboardEvent<HTMLLIElement>): void;
  onMoveToTop(): void;
  onDragStart(event: DragEvent<HTMLLIElement>): void;
  onDragOver(event: DragEvent<HTMLLIElement>): void;
  onDrop(event: DragEvent<HTMLLIElement>): void;
  onDragEnd(): void;
}

/** A job waiting its turn: focusable (Alt+arrows move it) and draggable; its place in line first. */
export function QueuedRow(props: QueuedRowProps) {
  const { job, place } = props;
  const classes = ['queue-row', 'queued', props.dragging ? 'dragging' : '', props.dropBefore ? 'drop-here' : ''];
  return (
    <li
      className={classes.filter(Boolean).join(' ')}
      data-id={job.id}
      tabIndex={0}
      draggable
      aria-label={`${place}. ${job.prompt}`}
      aria-describedby="queue-move-help"
      onKeyDown={props.onKeyDown}
      onDragStart={props.onDragStart}
      onDragOver={props.onDragOver}
      onDrop={props.onDrop}
      onDragEnd={props.onDragEnd}
    >
      <span className="queue-place" aria-hidden="true">
        {place}
      </span>
      <div className="queue-row-main">
        <p className="queue-prompt" title={job.prompt}>
          {job.prompt}
        </p>
        <p className="queue-meta">
          {props.providerName} · {jobShape(job)}
        </p>
      </div>
      {place === 1 ? null : (
        <button
          type="button"
          className="btn small ghost queue-top"
          aria-label={`Move to top: ${job.prompt}`}
          title="Move to top (Alt+Home)"
          tabIndex={-1}
          onClick={props.onMoveToTop}
        >
          ↑ Top
        </button>
      )}
    </li>
  );
}
