import { useRef, useState, type KeyboardEvent } from 'react';
import type { JobSummary } from '../../../shared/contract';
import { useApp } from '../store/context';
import { focusStepOfKey, queueMoveOfKey } from './queue-keys';
import { QueuedRow } from './QueuedRow';
import { dropTarget, targetOf, type ReorderTarget } from './queue-order';

/** Drag data of a queued row; anything else dropped on the list (files, images) is not a move. */
const DRAG_TYPE = 'application/x-atelier-queued';

/** The queued jobs in the order they start; moved by Alt+arrows, Alt+Home/End, the Top button or a drag. */
export function QueuedList({ jobs, nameOf }: { jobs: JobSummary[]; nameOf: (provider: string) => string }) {
  const reorder = useApp((s) => s.reorderQueue);
  const list = useRef<HTMLOListElement>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const order = jobs.map((job) => job.id);

  const move = (id: string, target: ReorderTarget | null) => {
    if (target !== null) void reorder([id], target.before);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, id: string, index: number) => {
    if (event.target !== event.currentTarget) return;
    const keys = {
      key: event.key,
      altKey: event.altKey,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
    };
    const movement = queueMoveOfKey(keys);
    if (movement !== null) {
      event.preventDefault();
      // The row keeps its key, so React moves the focused element itself: the focus follows the job.
      move(id, targetOf(order, id, movement));
      return;
    }
    const step = focusStepOfKey(keys, index, order.length);
    if (step === null) return;
    event.preventDefault();
    list.current?.querySelectorAll<HTMLElement>('li.queue-row')[step]?.focus();
  };

  return (
    <ol className="queue-list" ref={list} aria-label="Queued, in the order they start">
      {jobs.map((job, index) => (
        <QueuedRow
          key={job.id}
          job={job}
          place={index + 1}
          providerName={nameOf(job.provider)}
          dragging={dragged === job.id}
          dropBefore={over === job.id && dragged !== null && dragged !== job.id}
          onKeyDown={(event) => onKeyDown(event, job.id, index)}
          onMoveToTop={() => move(job.id, targetOf(order, job.id, 'top'))}
          onDragStart={(event) => {
            event.dataTransfer.setData(DRAG_TYPE, job.id);
            event.dataTransfer.effectAllowed = 'move';
            setDragged(job.id);
          }}
          onDragOver={(event) => {
            if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            if (over !== job.id) setOver(job.id);
          }}
          onDrop={(event) => {
            const id = event.dataTransfer.getData(DRAG_TYPE);
            if (id === '') return;
            event.preventDefault();
            setDragged(null);
            setOver(null);
            move(id, dropTarget(order, id, job.id));
          }}
          onDragEnd={() => {
            setDragged(null);
            setOver(null);
          }}
        />
      ))}
    </ol>
  );
}
