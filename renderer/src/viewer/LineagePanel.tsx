import { useEffect, useMemo, useState } from 'react';
import type { JobSummary, Operation } from '../../../shared/contract';
import { jobTitle, thumbSrc } from '../common/thumbs';
import { useApi, useApp, useAppStore } from '../store/context';
import '../iterate/iterate.css';

export const OPERATION_LABELS: Record<Operation, string> = {
  generate: 'Generated',
  img2img: 'Image to image',
  inpaint: 'Masked edit',
  variation: 'Variation',
  upscale: 'Upscale',
};

const CHILDREN_SHOWN = 24;

/** The query that finds the jobs made from an image (the engine's `from:` key). */
export function fromQuery(imageId: string): string {
  return `from:${imageId}`;
}

/** "Made from" (the source's thumbnail, which opens it) and "Made from this image" (the jobs that used it). */
export function LineagePanel({ job, imageId }: { job: JobSummary; imageId: string | undefined }) {
  const api = useApi();
  const store = useAppStore();
  const parentId = job.parentImageId;
  // The source the engine said is gone: it counts only while it is still this job's source.
  const [goneId, setGoneId] = useState<string | null>(null);
  const parentGone = parentId !== undefined && goneId === parentId;
  const [found, setFound] = useState<JobSummary[]>([]);
  const [searchError, setSearchError] = useState<string | null>(null);
  // Children queued in this window show at once, before the search knows them.
  const liveKey = useApp((s) =>
    imageId === undefined ? '' : s.jobs.order.filter((id) => s.jobs.byId[id]?.parentImageId === imageId).join(','),
  );
  const live = useMemo(() => liveKey.split(',').filter((id) => id !== ''), [liveKey]);

  useEffect(() => {
    if (parentId === undefined) return;
    let current = true;
    // Asked past the cache: a thumbnail is cached for good, and would still show a source purged since.
    fetch(api.mediaUrl('image', parentId), { method: 'HEAD', cache: 'no-store' })
      .then((response) => {
        if (current && response.status === 404) setGoneId(parentId);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api, parentId]);

  useEffect(() => {
    if (imageId === undefined) return;
    let current = true;
    api
      .call('jobs.list', { search: fromQuery(imageId), view: 'all', limit: CHILDREN_SHOWN })
      .then((page) => {
        if (!current) return;
        setFound(page.items);
        setSearchError(null);
      })
      .catch((error: unknown) => {
        if (!current) return;
        setFound([]);
        setSearchError(error instanceof Error ? error.message : 'The search for them did not answer.');
      });
    return () => {
      current = false;
    };
  }, [api, imageId, liveKey]);

  const children = useMemo(() => {
    const byId = new Map(found.map((j) => [j.id, j]));
    for (const id of live) {
      const j = store.getState().jobs.byId[id];
      if (j !== undefined) byId.set(id, j);
    }
    return [...byId.values()].filter((j) => j.id !== job.id).sort((a, b) => b.createdAt - a.createdAt);
  }, [found, live, job.id, store]);

  const open = async (jobId: string, wantImage?: string) => {
    const state = store.getState();
    let target = state.jobs.byId[jobId];
    if (target === undefined) {
      const detail = await state.getDetail(jobId);
      if (detail === null) return;
      state.applyJobChanged(detail);
      target = detail;
    }
    store.getState().openViewer(
      jobId,
      Math.max(
        0,
        target.images.findIndex((i) => i.id === wantImage),
      ),
    );
  };

  const openParent = () => {
    if (parentId === undefined) return;
    // The engine names the source's job (parentJobId), so it opens even when no loaded page holds it.
    const owner =
      job.parentJobId ??
      Object.values(store.getState().jobs.byId).find((j) => j.images.some((i) => i.id === parentId))?.id;
    if (owner === undefined) {
      store.getState().toast({ kind: 'info', message: 'The source is no longer in the library.' });
      return;
    }
    void open(owner, parentId);
  };

  const operation = job.operation ?? 'generate';
  if (parentId === undefined && imageId === undefined) return null;
  return (
    <section className="lineage" aria-label="Lineage">
      {parentId === undefined ? null : (
        <div className="lineage-parent">
          <h3>Made from</h3>
          <div className="lineage-row">
            {parentGone ? (
              <span className="lineage-gone" role="note">
                The source is no longer in the library.
              </span>
            ) : (
              <button
                type="button"
                className="lineage-thumb"
                aria-label={`Open the source image (${OPERATION_LABELS[operation].toLowerCase()})`}
                onClick={openParent}
              >
                <img
                  src={api.mediaUrl('thumb', parentId)}
                  alt=""
                  width={56}
                  height={56}
                  onError={() => setGoneId(parentId ?? null)}
                />
              </button>
            )}
            <span className="badge">{OPERATION_LABELS[operation]}</span>
          </div>
        </div>
      )}
      {imageId === undefined ? null : (
        <div className="lineage-children">
          <h3>Made from this image</h3>
          {children.length === 0 ? (
            <p className="muted small" title={searchError ?? undefined}>
              {searchError === null ? 'Nothing yet.' : 'Nothing yet here; the library could not list older ones.'}
            </p>
          ) : (
            <ul className="lineage-list">
              {children.map((child) => {
                const cover = child.images[0];
                const src = cover === undefined ? null : thumbSrc(api, cover);
                const label = OPERATION_LABELS[child.operation ?? 'generate'];
                return (
                  <li key={child.id}>
                    <button
                      type="button"
                      className="lineage-thumb"
                      aria-label={`${label}: ${jobTitle(child)} (${child.status})`}
                      title={`${label} · ${child.status}`}
                      onClick={() => void open(child.id)}
                    >
                      {src === null ? (
                        <span className={`thumb pending status-${child.status}`} aria-hidden="true" />
                      ) : (
                        <img src={src} alt="" width={56} height={56} />
                      )}
                      <span className="lineage-op" aria-hidden="true">
                        {label}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
