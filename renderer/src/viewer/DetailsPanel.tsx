import { useState } from 'react';
import type { JobDetail } from '../../../shared/contract';
import { formatBytes, formatDateTime, formatDuration, formatUsd } from '../common/format';
import { describeSeed, seedOfImage } from './image-seed';
import { openSimilar } from '../search/similar-view';
import { useApi, useApp, useAppShallow, useAppStore } from '../store/context';
import { focusComposerPrompt, ImageActions } from '../iterate/ImageActions';
import { ImageCuration } from '../curation/ImageCuration';
import { LineagePanel } from './LineagePanel';
import { imagePlace } from './image-place';
import { ImportedDetails } from './ImportedDetails';
import { ExportDialog } from '../library/export/ExportDialog';
import { StatusBadge } from '../common/StatusBadge';
import { CorrectableSettings, PromptFileSays } from './CorrectableSettings';
import { ImageNoteField } from './ImageNoteField';
import { ModelLink } from '../models/ModelLink';
import { sweepOf } from '../sweeps/sweeps-slice';

function Row({ label, value }: { label: string; value: string | number | undefined | null }) {
  if (value === undefined || value === null || value === '') return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** The model as a link to its images and its card in the model library. */
function ModelRow({ name }: { name: string | undefined }) {
  if (name === undefined || name === '') return null;
  return (
    <>
      <dt>Model</dt>
      <dd>
        <ModelLink kind="checkpoint" name={name} />
      </dd>
    </>
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function DetailsPanel({
  id,
  detail,
  imageId,
  inTrash = false,
  onTrash,
  onRestore,
  onClose,
}: {
  id: string;
  detail: JobDetail | null;
  imageId: string | undefined;
  /** Opened from the trash view: Restore, and Delete permanently… (onTrash) behind its counted question. */
  inTrash?: boolean;
  onTrash: () => void;
  onRestore?: () => void;
  onClose: () => void;
}) {
  const api = useApi();
  const store = useAppStore();
  const job = useApp((s) => s.jobs.byId[id]);
  const actions = useAppShallow((s) => ({
    toast: s.toast,
    reportError: s.reportError,
    reuseSettings: s.reuseSettings,
    retry: s.retry,
    favoriteImages: s.favoriteImages,
    setSweepSectionOpen: s.setSweepSectionOpen,
    openSweep: s.openSweep,
    closeSweep: s.closeSweep,
  }));
  const [exporting, setExporting] = useState(false);
  if (job === undefined) return <aside className="details" aria-label="Details" />;
  const request = detail?.request;
  const result = detail?.result;
  const image = job.images.find((i) => i.id === imageId);
  const desktop = api.host === 'desktop';
  const imported = job.source !== 'atelier';
  const runDesktop = (channel: 'desktop.reveal' | 'desktop.copyImage' | 'desktop.saveAs') => {
    if (imageId === undefined) return;
    void api.call(channel, { imageId }).catch(store.getState().reportError);
  };

  return (
    <aside className="details" aria-label="Details">
      <div className="details-head">
        <StatusBadge status={job.status} />
        {job.trashedAt !== null ? <span className="badge">In trash</span> : null}
      </div>
      {job.prompt.trim() === '' ? (
        <h2 className="details-prompt muted">No prompt in this file</h2>
      ) : (
        <h2 className="details-prompt">{job.prompt}</h2>
      )}
      {imported && detail !== null ? <PromptFileSays detail={detail} /> : null}
      {/* What went wrong comes before the settings that were tried. */}
      {job.error !== undefined ? (
        <p className="details-error" role="note">
          <strong>{job.error.code.replace(/_/g, ' ')}:</strong> {job.error.message}
          {job.status === 'interrupted' ? ' The provider may have billed it: check before retrying.' : ''}
        </p>
      ) : null}
      {/* An imported file's settings as corrected, each beside what the file says. */}
      {imported && detail !== null ? (
        <CorrectableSettings detail={detail} />
      ) : (
        <dl className="details-list details-settings" aria-label="Settings">
          <Row label="Negative" value={job.negativePrompt} />
          <ModelRow name={job.model ?? request?.model ?? detail?.metadata?.model} />
          {request?.loras === undefined || request.loras.length === 0 ? null : (
            <>
              <dt>LoRAs</dt>
              <dd>
                <ul className="loras">
                  {request.loras.map((l) => (
                    <li key={l.name}>
                      <ModelLink kind="lora" name={l.name} weight={l.weight} />
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
          <Row
            label="Seed"
            value={describeSeed(seedOfImage({ images: job.images, request, result }, imageId), job.count)}
          />
          <Row label="Steps" value={request?.steps} />
          <Row label="Guidance" value={request?.guidance} />
          <Row label="Sampler" value={request?.sampler ?? detail?.metadata?.sampler} />
          {/* The open image's own file: an upscale or a provider's own choice differs from what was asked. */}
          <Row label="Size" value={`${image?.width ?? job.width} × ${image?.height ?? job.height}`} />
          {imported ? null : <Row label="Source" value={`Atelier, ${job.provider}`} />}
        </dl>
      )}
      {/* An imported file's source, LoRAs and locations follow at once. */}
      {imported && detail?.metadata !== undefined ? (
        <ImportedDetails source={job.source} metadata={detail.metadata} />
      ) : null}
      <div className="details-actions">
        <button
          type="button"
          className="btn small"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(job.prompt)
              .then(() => actions.toast({ kind: 'info', message: 'Prompt copied.' }), actions.reportError)
          }
        >
          Copy prompt
        </button>
        <button
          type="button"
          className="btn small"
          disabled={detail === null}
          onClick={() => {
            if (detail === null) return;
            actions.reuseSettings(detail, imageId);
            onClose();
            requestAnimationFrame(() => document.querySelector<HTMLElement>('textarea.prompt')?.focus());
          }}
        >
          Reuse settings
        </button>
        <button
          type="button"
          className="btn small"
          disabled={detail === null}
          title="Open the composer with these settings and its Sweep section, to vary them along axes"
          onClick={() => {
            if (detail === null) return;
            actions.reuseSettings(detail, imageId);
            actions.setSweepSectionOpen(true);
            onClose();
            // Opened from a sweep's grid: the composer it fills is under the grid, which steps aside.
            if (store.getState().sweepView !== null) actions.closeSweep();
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.sweep-values')?.focus());
          }}
        >
          Sweep from these settings…
        </button>
        {sweepOf(job) === undefined ? null : (
          <button
            type="button"
            className="btn small"
            onClick={() => {
              onClose();
              void actions.openSweep(sweepOf(job)!.id);
            }}
          >
            Open sweep grid
          </button>
        )}
        {['failed', 'cancelled', 'interrupted'].includes(job.status) || imported ? (
          <button
            type="button"
            className="btn small"
            title={imported ? `Generate it again with ${job.provider}, the same settings` : undefined}
            onClick={() => void actions.retry(id)}
          >
            Retry
          </button>
        ) : null}
        {image === undefined ? null : (
          <button
            type="button"
            className="btn small"
            aria-pressed={image.favorite === true}
            title="This image (F)"
            onClick={() =>
              void actions.favoriteImages({ images: { imageIds: [image.id], jobIds: [id] } }, image.favorite !== true)
            }
          >
            {image.favorite ? '♥ Favorite' : '♡ Favorite'}
          </button>
        )}
        {imageId !== undefined && image?.thumbPending !== true ? (
          <button
            type="button"
            className="btn small"
            title="Images in the library that look like this one"
            onClick={() => {
              onClose();
              openSimilar(imageId, id);
            }}
          >
            Find similar
          </button>
        ) : null}
        {imageId === undefined ? null : (
          <button type="button" className="btn small" onClick={() => setExporting(true)}>
            Export…
          </button>
        )}
        {inTrash ? (
          <>
            <button type="button" className="btn small" onClick={onRestore}>
              Restore
            </button>
            <button type="button" className="btn small danger" onClick={onTrash}>
              Delete permanently…
            </button>
          </>
        ) : (
          <button type="button" className="btn small danger" onClick={onTrash}>
            {job.trashedAt === null ? 'Delete' : 'Restore'}
          </button>
        )}
        {desktop && imageId !== undefined ? (
          <>
            <button type="button" className="btn small" onClick={() => runDesktop('desktop.reveal')}>
              Reveal in folder
            </button>
            <button type="button" className="btn small" onClick={() => runDesktop('desktop.copyImage')}>
              Copy image
            </button>
            <button type="button" className="btn small" onClick={() => runDesktop('desktop.saveAs')}>
              Save as…
            </button>
          </>
        ) : null}
      </div>
      {image === undefined || job.trashedAt !== null ? null : (
        <ImageActions
          jobId={id}
          imageId={imageId}
          onUseAsInput={() => {
            onClose();
            focusComposerPrompt();
          }}
        />
      )}
      {image === undefined ? null : <ImageCuration jobId={id} image={image} />}
      {image === undefined || detail === null ? null : (
        <ImageNoteField
          key={image.id}
          imageId={image.id}
          saved={detail.notes?.find((n) => n.imageId === image.id)?.text ?? ''}
        />
      )}
      <LineagePanel job={job} imageId={imageId} />
      <dl className="details-list">
        <Row label="Image" value={imagePlace(job, inTrash ? 'trash' : 'active', imageId)} />
        {image === undefined ? null : <Row label="File" value={`${image.mime}, ${formatBytes(image.bytes)}`} />}
        <Row label="Quality" value={request?.quality} />
        {result?.cost === undefined ? null : (
          <Row
            label="Cost"
            value={`${formatUsd(result.cost.usd)}${result.cost.source === 'estimated' ? ' (estimated)' : ''}`}
          />
        )}
        <Row label="Created" value={formatDateTime(job.createdAt)} />
        {job.completedAt === undefined || imported ? null : (
          <Row label="Finished" value={formatDateTime(job.completedAt)} />
        )}
      </dl>
      {result?.revisedPrompt === undefined ? null : (
        <section>
          <h3>Revised prompt</h3>
          <p className="small">{result.revisedPrompt}</p>
        </section>
      )}
      {detail === null ? (
        <div className="skeleton line" aria-label="Loading details" />
      ) : (
        <details className="details-technical">
          <summary>Technical</summary>
          {Object.keys(result?.timings ?? {}).length + Object.keys(result?.usage ?? {}).length === 0 ? null : (
            <dl className="details-list" aria-label="Timings">
              {Object.entries(result?.timings ?? {}).map(([key, ms]) => (
                <Row key={key} label={key.replace(/Ms$/, '')} value={formatDuration(ms)} />
              ))}
              {Object.entries(result?.usage ?? {}).map(([key, value]) => (
                <Row key={`usage-${key}`} label={`Usage: ${key}`} value={describe(value)} />
              ))}
            </dl>
          )}
          {detail.events.length === 0 ? null : (
            <section>
              <h3>Event trace</h3>
              <ol className="trace">
                {detail.events.map((event) => (
                  <li key={event.seq}>
                    <time>{new Date(event.at).toLocaleTimeString('en-US')}</time>{' '}
                    <span className="trace-kind">{event.kind}</span> {event.message}
                  </li>
                ))}
              </ol>
            </section>
          )}
        </details>
      )}
      {exporting && imageId !== undefined ? (
        // The dialog's own keys (arrows in its choices, Escape) stay in it instead of stepping or closing the viewer.
        <div className="details-export" onKeyDown={(e) => e.stopPropagation()}>
          <ExportDialog target={{ ids: [imageId] }} label="this image" onClose={() => setExporting(false)} />
        </div>
      ) : null}
    </aside>
  );
}
