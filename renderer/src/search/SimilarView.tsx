import { useCallback, useEffect, useRef, useState } from 'react';
import type { DuplicateGroup, JobSummary, SimilarImage } from '../../../shared/contract';
import { formatCount, formatNumber } from '../common/format';
import {
  closeSimilarView,
  describeDistance,
  theRest,
  useSimilarMode,
  withoutImages,
  type SimilarMode,
} from './similar-view';
import { jobTitle, thumbSrc } from '../common/thumbs';
import { useApi, useApp, useAppStore } from '../store/context';
import './similar.css';

type Loaded =
  | { kind: 'similar'; items: SimilarImage[] }
  | { kind: 'duplicates'; groups: DuplicateGroup[]; nextCursor: string | null };

/** One image of a result (in whichever of `jobIds` holds it): its thumbnail, opening the viewer on it. */
function Tile({
  jobIds,
  imageId,
  label,
  primary,
  showSize,
}: {
  jobIds: readonly string[];
  imageId: string;
  label?: string;
  primary?: boolean;
  /** Its pixel size under it: which of near copies to keep. */
  showSize?: boolean;
}) {
  const api = useApi();
  const store = useAppStore();
  const job = useApp((s) => jobIds.map((id) => s.jobs.byId[id]).find((j) => j?.images.some((i) => i.id === imageId)));
  const index = job?.images.findIndex((i) => i.id === imageId) ?? -1;
  const image = index >= 0 ? job!.images[index] : undefined;
  const src = image === undefined ? null : thumbSrc(api, image);
  const title = job === undefined ? 'Image' : jobTitle(job);
  return (
    <button
      type="button"
      className={primary === true ? 'similar-tile primary' : 'similar-tile'}
      data-similar-image={imageId}
      title={title}
      disabled={job === undefined}
      onClick={() => job !== undefined && store.getState().openViewer(job.id, Math.max(0, index))}
    >
      {src === null ? (
        <span className="similar-thumb placeholder" aria-hidden="true" />
      ) : (
        <img className="similar-thumb" src={src} alt={title} loading="lazy" />
      )}
      {label === undefined ? null : <span className="similar-label">{label}</span>}
      {showSize === true && image !== undefined ? (
        <span className="similar-label">
          {image.width} × {image.height}
        </span>
      ) : null}
    </button>
  );
}

function useResults(mode: SimilarMode) {
  const api = useApi();
  const store = useAppStore();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The jobs come with each answer: merged into the app's jobs so the tiles and the viewer can show them.
  const keep = useCallback((jobs: readonly JobSummary[]) => store.getState().applyJobsChanged(jobs), [store]);

  // Asked again (an Undo put trashed copies back): the groups are read afresh.
  const [round, setRound] = useState(0);
  // Another mode: nothing loaded for it yet (adjusted while rendering, not in the effect).
  const [askedFor, setAskedFor] = useState(mode);
  if (askedFor !== mode) {
    setAskedFor(mode);
    setLoaded(null);
    setError(null);
  }

  useEffect(() => {
    let live = true;
    if (mode === null) return;
    const ask =
      mode.kind === 'similar'
        ? api.call('images.similar', { imageId: mode.imageId, limit: 100 }).then((r) => {
            keep(r.jobs);
            return { kind: 'similar' as const, items: r.items };
          })
        : api.call('images.duplicates', {}).then((r) => {
            keep(r.jobs);
            return { kind: 'duplicates' as const, groups: r.groups, nextCursor: r.nextCursor };
          });
    ask.then(
      (value) => live && setLoaded(value),
      (e: unknown) => live && setError(e instanceof Error ? e.message : 'Atelier could not compare the images.'),
    );
    return () => {
      live = false;
    };
  }, [api, keep, mode, round]);

  const more = async () => {
    if (loaded?.kind !== 'duplicates' || loaded.nextCursor === null) return;
    try {
      const page = await api.call('images.duplicates', { cursor: loaded.nextCursor });
      keep(page.jobs);
      setLoaded({ kind: 'duplicates', groups: [...loaded.groups, ...page.groups], nextCursor: page.nextCursor });
    } catch (e) {
      store.getState().reportError(e);
    }
  };
  /** Images trashed from here leave their groups at once (Undo in the toast puts them back in the library). */
  const drop = (gone: readonly string[]) =>
    setLoaded((now) =>
      now?.kind === 'duplicates' ? { ...now, groups: withoutImages(now.groups, new Set(gone)) } : now,
    );
  return { loaded, error, more, drop, reload: () => setRound((n) => n + 1) };
}

/**
 * The trash's Undo inside the sheet: the sheet is modal, so the toast under it cannot be pressed. Undo puts the images
 * back and the groups are read again.
 */
function SheetUndo({ onUndone }: { onUndone: () => void }) {
  const last = useApp((s) => s.toasts.findLast((t) => t.topic === 'trash' && t.action?.label === 'Undo'));
  const dismiss = useApp((s) => s.dismissToast);
  if (last?.action === undefined) return null;
  const { run } = last.action;
  return (
    <p className="similar-undo" role="status">
      {last.message}
      <button
        type="button"
        className="btn small"
        onClick={() => {
          run();
          dismiss(last.id);
          onUndone();
        }}
      >
        Undo
      </button>
    </p>
  );
}

/** One duplicate group: its images side by side, each with "Keep this" (the rest go to the app's trash, with Undo). */
function DuplicateGroupView({ group, onTrashed }: { group: DuplicateGroup; onTrashed: (ids: string[]) => void }) {
  const store = useAppStore();
  const title = group.kind === 'exact' ? 'Exact copies' : 'Near copies';
  const keep = async (imageId: string) => {
    const rest = theRest(group, imageId);
    if (await store.getState().trashImages({ images: rest })) onTrashed(rest.imageIds);
  };
  return (
    <section className="similar-group" aria-label={title}>
      <h3>
        {title} <span className="muted">· {formatNumber(group.imageIds.length)} images</span>
      </h3>
      <div className="similar-grid">
        {group.imageIds.map((imageId) => (
          <div key={imageId} className="similar-item">
            <Tile jobIds={group.jobIds} imageId={imageId} showSize />
            <button
              type="button"
              className="btn small similar-keep"
              // The short label fits one line under a narrow tile; the whole of what it does is its description.
              title={`Keep this, trash the rest: the other ${formatCount(group.imageIds.length - 1, 'image')} go to the trash`}
              onClick={() => void keep(imageId)}
            >
              Keep this
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}

/** Find similar and Show duplicates: a sheet over the history, with a clear way back (the button or Escape). */
export function SimilarView() {
  const mode = useSimilarMode();
  const viewerOpen = useApp((s) => s.viewerId !== null);
  const { loaded, error, more, drop, reload } = useResults(mode);
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (mode !== null && dialog !== null && !dialog.open) dialog.showModal();
  }, [mode]);

  if (mode === null) return null;
  const heading = mode.kind === 'similar' ? 'Similar images' : 'Duplicates';
  return (
    <dialog
      ref={dialogRef}
      className="similar-view"
      aria-label={heading}
      onCancel={(e) => {
        e.preventDefault();
        // Escape in the viewer above closes the viewer alone.
        if (!viewerOpen) closeSimilarView();
      }}
    >
      <header className="similar-head">
        <button type="button" className="btn" onClick={closeSimilarView} autoFocus>
          ← Back to history
        </button>
        <h2>{heading}</h2>
        {mode.kind === 'similar' ? (
          <div className="similar-source">
            <span className="muted">Images that look like</span>
            <Tile jobIds={[mode.jobId]} imageId={mode.imageId} primary />
          </div>
        ) : null}
      </header>
      <div className="similar-body">
        {error !== null ? (
          <p className="details-error" role="alert">
            {error}
          </p>
        ) : null}
        {loaded === null && error === null ? (
          <p className="muted" role="status">
            Comparing…
          </p>
        ) : null}
        {loaded?.kind === 'similar' ? (
          loaded.items.length === 0 ? (
            <p className="similar-empty">Nothing in the library looks like this image.</p>
          ) : (
            <>
              <p className="muted" role="status">
                {formatNumber(loaded.items.length)} similar, closest first
              </p>
              <div className="similar-grid">
                {loaded.items.map((item) => (
                  <Tile
                    key={item.imageId}
                    jobIds={[item.jobId]}
                    imageId={item.imageId}
                    label={describeDistance(item.distance)}
                  />
                ))}
              </div>
            </>
          )
        ) : null}
        {loaded?.kind === 'duplicates' ? <SheetUndo onUndone={reload} /> : null}
        {loaded?.kind === 'duplicates' ? (
          loaded.groups.length === 0 ? (
            <p className="similar-empty">No duplicates: every image in the library is one of a kind.</p>
          ) : (
            <>
              <p className="muted" role="status">
                {formatCount(loaded.groups.length, 'group')} of copies. Keep one of each; the rest go to the trash,
                where you can restore them.
              </p>
              {loaded.groups.map((group, i) => (
                <DuplicateGroupView
                  key={`${group.kind}-${group.imageIds.join()}-${i}`}
                  group={group}
                  onTrashed={drop}
                />
              ))}
              {loaded.nextCursor === null ? null : (
                <button type="button" className="btn" onClick={() => void more()}>
                  Show more
                </button>
              )}
            </>
          )
        ) : null}
      </div>
    </dialog>
  );
}
