import { useEffect, useRef, useState } from 'react';
import type { JobDetail } from '../../../shared/contract';
import { compareColumns, diffSettings, FITTED, rowsWorthShowing, settingsOf, type SharedView } from './compare';
import { isTextField, keyToCommand } from '../common/keyboard';
import { jobTitle } from '../common/thumbs';
import { useApi, useApp, useAppStore, useJobIndex } from '../store/context';
import { SplitPanes } from './SplitPanes';
import { ZoomPane, type ZoomControls } from './ZoomPane';
import './viewer.css';
import './compare.css';

/** 2–4 images side by side on the viewer's dark ground, one zoom and pan for all, and what differs in their settings. */
export function CompareView() {
  const api = useApi();
  const store = useAppStore();
  const items = useApp((s) => s.compare);
  const { byId: jobs } = useJobIndex();
  const getDetail = useApp((s) => s.getDetail);
  const [details, setDetails] = useState<Record<string, JobDetail | null>>({});
  const [view, setView] = useState<SharedView>(FITTED);
  // Two images can also be laid one over the other, split at a slider (percent of the width from the left).
  const [split, setSplit] = useState<number | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const panesRef = useRef<HTMLDivElement>(null);
  // The panes' box, for choosing one row or two.
  const [area, setArea] = useState({ width: 0, height: 0 });
  // The keys drive the first pane; the others follow it through the shared view.
  const zoom = useRef<ZoomControls>(null);
  const open = items !== null;

  // Closed: the next compare starts fitted and side by side (adjusted while rendering, not in an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (!open) {
      setView(FITTED);
      setSplit(null);
    }
  }

  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, [open]);

  useEffect(() => {
    if (items === null) return;
    let live = true;
    for (const { jobId } of items)
      void getDetail(jobId).then((d) => {
        if (live) setDetails((all) => ({ ...all, [jobId]: d }));
      });
    return () => {
      live = false;
    };
  }, [items, getDetail]);

  useEffect(() => {
    const panes = panesRef.current;
    if (panes === null) return;
    const measure = () => setArea({ width: panes.clientWidth, height: panes.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(panes);
    return () => observer.disconnect();
  }, [open, split]);

  if (items === null) return null;
  const shown = items.flatMap((item) => {
    const job = jobs[item.jobId];
    const image = job?.images.find((i) => i.id === item.imageId);
    return job === undefined || image === undefined ? [] : [{ job, image }];
  });
  const rows = rowsWorthShowing(
    diffSettings(shown.map(({ job, image }) => settingsOf(job, details[job.id] ?? null, image.id))),
  );
  const columns =
    area.width > 0
      ? compareColumns(
          shown.map(({ image }) => image),
          area,
        )
      : Math.max(1, shown.length);
  const close = () => store.getState().closeCompare();
  // The viewer's zoom keys: + and − step, Ctrl+0 fits, Ctrl+1 is 1:1, Z toggles.
  const onKeyDown = (event: React.KeyboardEvent) => {
    const command = keyToCommand(
      {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        inTextField: isTextField(event.target),
      },
      'viewer',
    );
    const method =
      command === null
        ? undefined
        : ({ zoomIn: 'zoomIn', zoomOut: 'zoomOut', zoomFit: 'fit', zoomActual: 'actual', zoom: 'toggle' } as const)[
            command as 'zoomIn'
          ];
    if (method === undefined) return;
    event.preventDefault();
    zoom.current?.[method]();
  };

  return (
    <dialog
      ref={dialogRef}
      className="viewer compare-view"
      aria-label={`Compare ${shown.length} images`}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <div className="viewer-toolbar compare-toolbar">
        <strong>Compare {shown.length} images</strong>
        <span className="muted small">Zoom and pan move every image together</span>
        <span className="spacer" />
        {shown.length === 2 ? (
          <button
            type="button"
            className="btn small"
            aria-pressed={split !== null}
            title="Lay the two images one over the other, split by a slider"
            onClick={() => setSplit(split === null ? 50 : null)}
          >
            Split
          </button>
        ) : null}
        <button type="button" className="btn small" onClick={close} aria-label="Close compare">
          Close
        </button>
      </div>
      {split !== null && shown.length === 2 ? (
        <SplitPanes zoomRef={zoom} shown={shown} split={split} onSplit={setSplit} view={view} onView={setView} />
      ) : (
        <div ref={panesRef} className="compare-panes" style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }}>
          {shown.map(({ job, image }, i) => (
            <figure key={image.id} className="compare-pane" aria-label={`Image ${i + 1}: ${jobTitle(job)}`}>
              <ZoomPane
                ref={i === 0 ? zoom : undefined}
                src={api.mediaUrl('image', image.id)}
                alt={jobTitle(job)}
                width={image.width}
                height={image.height}
                sync={{ view, onChange: setView }}
              />
            </figure>
          ))}
        </div>
      )}
      <div className="compare-diff-wrap">
        <table className="compare-diff" aria-label="Settings compared">
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className={row.differs.some(Boolean) ? 'differs' : undefined}>
                <th scope="row">{row.label}</th>
                {row.values.map((value, i) => (
                  <td
                    key={i}
                    className={row.differs[i] ? 'diff' : undefined}
                    data-differs={row.differs[i] ? 'true' : undefined}
                  >
                    {value ?? <span className="muted">—</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </dialog>
  );
}
