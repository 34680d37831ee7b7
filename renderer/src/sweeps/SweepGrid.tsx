import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { JobSummary, SweepCell } from '../../../shared/contract';
import { isTextField } from '../common/keyboard';
import { ExportDialog } from '../library/export/ExportDialog';
import { useApi, useApp, useAppStore, useJobIndex } from '../store/context';
import {
  cellAspect,
  cellRectangle,
  clampZoom,
  fitZoom,
  columnLeft,
  gridShape,
  layoutGrid,
  moveFocus,
  pageCells,
  visibleRange,
  ZOOM,
} from './grid-layout';
import { axisTitle } from './sweep-axes';
import { sweepKeyToCommand } from './sweep-keys';
import { SweepCellView } from './SweepCellView';
import { SweepExportSheet } from './SweepExportSheet';
import './sweeps.css';

const HEADS = { headWidth: 132, headHeight: 40, gap: 6 };
const FAILED = new Set(['failed', 'cancelled', 'interrupted']);
/** Scroll offsets are read in steps of this many px; the cells drawn reach one band further. */
const BAND = 128;

function useViewport(scroller: React.RefObject<HTMLDivElement | null>) {
  const [viewport, setViewport] = useState({ left: 0, top: 0, width: 1200, height: 800 });
  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    let frame = 0;
    // One read per frame however many scroll events arrive: the cells shown follow the scroll without a stutter.
    const read = () => {
      frame = 0;
      // The offset in bands: a slow scroll renders the grid again only when it crosses into the next band.
      const next = {
        left: Math.floor(element.scrollLeft / BAND) * BAND,
        top: Math.floor(element.scrollTop / BAND) * BAND,
        width: element.clientWidth,
        height: element.clientHeight,
      };
      setViewport((now) =>
        now.left === next.left && now.top === next.top && now.width === next.width && now.height === next.height
          ? now
          : next,
      );
    };
    const onScroll = () => {
      if (frame === 0) frame = requestAnimationFrame(read);
    };
    read();
    element.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(onScroll);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [scroller]);
  return viewport;
}

/** What each cell of every page is now: the app's copy of its job (curation, live updates), else the sweep's. */
function useCellJobs(): (cell: SweepCell | null) => JobSummary | null {
  const { byId } = useJobIndex();
  return (cell) => (cell?.job == null ? null : (byId[cell.job.id] ?? cell.job));
}

/** The page's layout, made again only when the zoom or a cell's size changes (`sizes`: "WxH" per cell, joined). */
function useGridLayout(columns: number, rows: number, zoom: number, sizes: string) {
  return useMemo(() => {
    const each = sizes.split(',').map((size) => {
      const [width, height] = size.split('x').map(Number);
      return { width: width!, height: height! };
    });
    return layoutGrid(columns, rows, zoom, (x, y) => each[y * columns + x] ?? { width: 1, height: 1 }, HEADS);
  }, [columns, rows, zoom, sizes]);
}

/** A sweep as a labelled grid over the history: X across, Y down, Z as pages; Escape or Back closes it. */
export function SweepGrid() {
  const view = useApp((s) => s.sweepView);
  if (view === null) return null;
  return <SweepGridOpen key={view.id} />;
}

function SweepGridOpen() {
  const api = useApi();
  const store = useAppStore();
  const view = useApp((s) => s.sweepView)!;
  const viewerOpen = useApp((s) => s.viewerId !== null);
  const compareOpen = useApp((s) => s.compare !== null);
  const detail = view.detail;
  const jobOf = useCellJobs();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const viewport = useViewport(scrollerRef);
  // null: the page fits the window (as it is resized) until the person zooms.
  const [zoomSet, setZoom] = useState<number | null>(null);
  const [focus, setFocus] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [anchor, setAnchor] = useState(0);
  const [exporting, setExporting] = useState(false);
  // A key moved the focus: the cell is scrolled into view and takes the keyboard once it is drawn.
  const focusAfterRender = useRef(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const axes = useMemo(() => detail?.axes ?? [], [detail]);
  const { columns, rows, pages } = gridShape(axes);
  const page = Math.min(view.page, pages - 1);
  const cells = useMemo(() => pageCells(detail?.cells ?? [], columns, rows, page), [detail, columns, rows, page]);
  const jobs = cells.map(jobOf);
  const base = detail?.base ?? { width: 1, height: 1 };
  const zoom = zoomSet ?? fitZoom(columns, rows, base, viewport, HEADS);
  // The layout reads only each cell's size: written as one string, a job's other changes leave it as it is.
  const sizes = jobs.map((job) => {
    const { width, height } = cellAspect(job, base);
    return `${width}x${height}`;
  });
  const layout = useGridLayout(columns, rows, zoom, sizes.join());
  const range = visibleRange(layout, { ...viewport, width: viewport.width + BAND, height: viewport.height + BAND }, 2);

  const allJobs = (detail?.cells ?? []).map(jobOf);
  const failedCells = (detail?.cells ?? []).filter((cell, i) => {
    const job = allJobs[i];
    return job === null || FAILED.has(job!.status);
  });
  const pending = allJobs.filter((j) => j !== null && (j.status === 'queued' || j.status === 'running')).length;
  const done = allJobs.filter((j) => j?.status === 'succeeded').length;

  const picked = selected.size > 0 ? [...selected] : [focus];
  const pickedImages = picked.flatMap((i) => {
    const job = jobs[i];
    const image = job?.images.find((each) => each.trashed !== true);
    return job == null || image === undefined ? [] : [{ jobId: job.id, imageId: image.id }];
  });
  const targets = {
    images: {
      imageIds: picked.flatMap((i) => jobs[i]?.images.filter((m) => m.trashed !== true).map((m) => m.id) ?? []),
      jobIds: [...new Set(picked.flatMap((i) => (jobs[i] == null ? [] : [jobs[i]!.id])))],
    },
  };

  useLayoutEffect(() => {
    if (!focusAfterRender.current) return;
    focusAfterRender.current = false;
    scrollerRef.current?.querySelector<HTMLElement>(`[data-cell="${focus}"]`)?.focus({ preventScroll: true });
  });

  const moveTo = (index: number) => {
    const scroller = scrollerRef.current;
    setFocus(index);
    focusAfterRender.current = true;
    if (scroller === null) return;
    const x = index % columns;
    const y = Math.floor(index / columns);
    const left = columnLeft(layout, x);
    const top = layout.headHeight + layout.rowTops[y]!;
    // The headers stay over the cells: a cell is in view once it is clear of them.
    if (left - HEADS.headWidth < scroller.scrollLeft) scroller.scrollLeft = left - HEADS.headWidth;
    else if (left + layout.columnWidth > scroller.scrollLeft + scroller.clientWidth)
      scroller.scrollLeft = left + layout.columnWidth - scroller.clientWidth;
    if (top - HEADS.headHeight < scroller.scrollTop) scroller.scrollTop = top - HEADS.headHeight;
    else if (top + layout.rowHeights[y]! > scroller.scrollTop + scroller.clientHeight)
      scroller.scrollTop = top + layout.rowHeights[y]! - scroller.clientHeight;
  };

  const openCell = (index: number) => {
    const job = jobs[index];
    if (job == null || job.images.length === 0) return;
    store.getState().openViewer(job.id, 0);
  };
  const compare = () => {
    if (pickedImages.length >= 2 && pickedImages.length <= 4) store.getState().openCompare(pickedImages);
  };
  const rerunPicked = () =>
    void store.getState().rerunSweep(picked.map((i) => ({ x: i % columns, y: Math.floor(i / columns), z: page })));
  const setPage = (next: number) => {
    store.getState().setSweepPage(Math.max(0, Math.min(pages - 1, next)));
    setSelected(new Set());
  };

  const onCellClick = (index: number, e: React.MouseEvent) => {
    setFocus(index);
    if (e.shiftKey) setSelected(new Set(cellRectangle(anchor, index, columns)));
    else if (e.ctrlKey || e.metaKey) {
      const next = new Set(selected);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      setSelected(next);
      setAnchor(index);
    } else {
      setSelected(new Set());
      setAnchor(index);
      openCell(index);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (exporting || isTextField(e.target) || (e.target as HTMLElement).closest?.('.sweep-head') != null) return;
    const command = sweepKeyToCommand(e);
    // The gallery's keys (N, Q, B, Tab…) would act behind the grid: only undo and the cheat sheet pass through.
    const passes = ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') || e.key === '?' || e.key === 'Tab';
    if (command === null) {
      if (!passes) e.stopPropagation();
      return;
    }
    e.preventDefault();
    // The grid's keys are the grid's: the gallery under it never sees them.
    e.stopPropagation();
    const state = store.getState();
    if (command.kind === 'move') moveTo(moveFocus(focus, command.key, columns, rows));
    else if (command.kind === 'open') openCell(focus);
    else if (command.kind === 'zoom') setZoom(clampZoom(zoom + command.by * ZOOM.step));
    else if (command.kind === 'page') setPage(page + command.by);
    else if (command.kind === 'compare') compare();
    else if (command.kind === 'rerun') rerunPicked();
    else if (targets.images.imageIds.length === 0) return;
    else if (command.kind === 'rate') void state.rate(targets, command.rating);
    else if (command.kind === 'reject') void state.rejectImages(targets, true);
    else if (command.kind === 'trash') void state.trashImages(targets);
  };

  const xAxis = axes[0];
  const yAxis = axes[1];
  const zAxis = axes[2];
  const labelOf = (index: number) => {
    const parts = [xAxis, yAxis].flatMap((axis, n) => {
      if (axis === undefined) return [];
      const value = axis.values[n === 0 ? index % columns : Math.floor(index / columns)];
      return [`${axisTitle(axis)} ${value}`];
    });
    return parts.join(', ');
  };

  const rendered: React.ReactNode[] = [];
  for (let y = range.y0; y < range.y1; y++)
    for (let x = range.x0; x < range.x1; x++) {
      const index = y * columns + x;
      rendered.push(
        <SweepCellView
          key={index}
          api={api}
          job={jobs[index] ?? null}
          label={labelOf(index)}
          index={index}
          left={columnLeft(layout, x)}
          top={layout.headHeight + layout.rowTops[y]!}
          width={layout.columnWidth}
          height={layout.rowHeights[y]!}
          selected={selected.has(index)}
          focused={focus === index}
        />,
      );
    }

  return (
    <dialog
      ref={dialogRef}
      className="sweep-view"
      aria-label={detail === null ? 'Sweep' : `Sweep ${detail.name}`}
      onCancel={(e) => {
        e.preventDefault();
        // Escape in the viewer or compare above closes that alone.
        if (!viewerOpen && !compareOpen && !exporting) store.getState().closeSweep();
      }}
      onKeyDown={onKeyDown}
    >
      <header className="sweep-head">
        <button type="button" className="btn" onClick={() => store.getState().closeSweep()}>
          ← Back
        </button>
        <h2 title={detail?.name}>{detail?.name ?? 'Sweep'}</h2>
        {detail === null ? null : (
          <span className="muted sweep-counts" role="status">
            {done} of {detail.cellCount} done
            {pending > 0 ? ` · ${pending} to go` : ''}
            {failedCells.length > 0 ? ` · ${failedCells.length} failed` : ''}
          </span>
        )}
        <span className="sweep-tools">
          <label className="sweep-zoom">
            <span>Zoom</span>
            <input
              type="range"
              min={ZOOM.min}
              max={ZOOM.max}
              step={ZOOM.step}
              value={zoom}
              aria-label="Cell size"
              onChange={(e) => setZoom(clampZoom(Number(e.target.value)))}
            />
          </label>
          <button
            type="button"
            className="btn small"
            disabled={pickedImages.length < 2 || pickedImages.length > 4}
            title="Select 2 to 4 cells (Ctrl+click or Shift+click), then compare them (C)"
            onClick={compare}
          >
            Compare{selected.size > 0 ? ` (${pickedImages.length})` : ''}
          </button>
          <button
            type="button"
            className="btn small"
            disabled={failedCells.length === 0}
            onClick={() => void store.getState().rerunSweep()}
          >
            Re-run failed ({failedCells.length})
          </button>
          <button
            type="button"
            className="btn small"
            disabled={detail === null}
            title="Run the selected cells (or the focused one) again (R)"
            onClick={rerunPicked}
          >
            Re-run {selected.size > 1 ? `${selected.size} cells` : 'cell'}
          </button>
          {detail === null ? null : <SweepExportSheet id={detail.id} page={page} />}
          <button type="button" className="btn small" disabled={detail === null} onClick={() => setExporting(true)}>
            Export cells (ZIP)
          </button>
        </span>
      </header>
      {zAxis !== undefined ? (
        <nav className="sweep-pages" aria-label={`${axisTitle(zAxis)} pages (PageUp, PageDown)`}>
          {zAxis.values.map((value, z) => (
            <button
              key={z}
              type="button"
              className={z === page ? 'chip active' : 'chip'}
              aria-current={z === page ? 'page' : undefined}
              onClick={() => setPage(z)}
            >
              {axisTitle(zAxis)} {value}
            </button>
          ))}
        </nav>
      ) : null}
      {view.error !== null ? (
        <p className="details-error" role="alert">
          {view.error}
        </p>
      ) : null}
      {detail === null && view.error === null ? (
        <p className="muted sweep-loading" role="status">
          Loading the sweep…
        </p>
      ) : null}
      <div ref={scrollerRef} className="sweep-scroll" role="region" aria-label="Sweep cells">
        <div
          className="sweep-canvas"
          style={{ width: layout.width, height: layout.height }}
          onClick={(e) => {
            const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-cell]');
            if (cell !== null) onCellClick(Number(cell.dataset.cell), e);
          }}
        >
          <div className="sweep-xhead" style={{ width: layout.width, height: layout.headHeight }}>
            <div className="sweep-corner" style={{ width: layout.headWidth, height: layout.headHeight }}>
              {xAxis === undefined ? null : <span>{axisTitle(xAxis)} →</span>}
              {yAxis === undefined ? null : <span>{axisTitle(yAxis)} ↓</span>}
            </div>
            {xAxis === undefined
              ? null
              : Array.from({ length: range.x1 - range.x0 }, (_, n) => range.x0 + n).map((x) => (
                  <div
                    key={x}
                    className="sweep-label x"
                    style={{ left: columnLeft(layout, x), width: layout.columnWidth }}
                    title={`${axisTitle(xAxis)} ${xAxis.values[x]}`}
                  >
                    {xAxis.values[x]}
                  </div>
                ))}
          </div>
          <div className="sweep-yhead" style={{ width: layout.headWidth, height: layout.height - layout.headHeight }}>
            {Array.from({ length: range.y1 - range.y0 }, (_, n) => range.y0 + n).map((y) => (
              <div
                key={y}
                className="sweep-label y"
                style={{ top: layout.rowTops[y], height: layout.rowHeights[y] }}
                title={yAxis === undefined ? undefined : `${axisTitle(yAxis)} ${yAxis.values[y]}`}
              >
                {yAxis?.values[y] ?? ''}
              </div>
            ))}
          </div>
          {rendered}
        </div>
      </div>
      {exporting && detail !== null ? (
        <ExportDialog
          target={{ query: { search: `sweep:${detail.id}` } }}
          label="this sweep's cells"
          onClose={() => setExporting(false)}
        />
      ) : null}
    </dialog>
  );
}
