import { memo } from 'react';
import { instanceLabel } from '../settings/instances';
import { formatEtaShort, progressOf } from './eta';
import { formatStage, queueWaitLabel } from '../common/format';
import { useEta } from './use-eta';
import { useApp } from '../store/context';
import { ProgressRing } from './ProgressRing';

/** Below this width a card shows the ring alone: two lines of text would cover the picture. */
const COMPACT_WIDTH = 112;

/**
 * The id of a live card's spoken status, for the card button's aria-describedby. The status is aria-hidden itself
 * (a description reads hidden text): as content it would add to the button's name, which is the prompt alone.
 */
export function liveStatusId(id: string): string {
  return `live-status-${id}`;
}

/** Queued jobs of the same target older than this one: each starts before it. */
function useQueuedAhead(id: string): number | null {
  return useApp((s) => {
    const provider = s.jobs.byId[id]?.provider;
    let ahead = 0;
    for (const other of s.jobs.liveIds) {
      if (other === id) return ahead;
      const job = s.jobs.byId[other];
      if (job?.status === 'queued' && job.provider === provider) ahead += 1;
    }
    return null;
  });
}

/** The server running the job, else the provider or kind it asked for. */
function useRunsOn(id: string): string {
  return useApp((s) => {
    const job = s.jobs.byId[id];
    return job === undefined ? '' : instanceLabel(job, s.providers);
  });
}

/**
 * Text painted by CSS from data-text, not a text node: it sits inside the card's button, whose name is the prompt, and
 * text there would make a name that does not match what is shown (WCAG 2.5.3). Assistive tech reads the same words
 * from the card's description.
 */
function Painted({ className, text }: { className: string; text: string }) {
  return <span className={`painted ${className}`} data-text={text} />;
}

function Queued({ id, compact }: { id: string; compact: boolean }) {
  const ahead = useQueuedAhead(id);
  const runsOn = useRunsOn(id);
  const waiting = useApp((s) => (s.queueWaiting === null ? null : queueWaitLabel(s.queueWaiting)));
  // Its place in line means nothing while the disk holds the whole queue: the card says what it waits for.
  const place = waiting ?? (ahead === null ? null : ahead === 0 ? 'next in line' : `${ahead} ahead`);
  return (
    <>
      <div className="live-queued" aria-hidden="true">
        <Painted className="live-word" text="Queued" />
        {compact || place === null ? null : <Painted className="live-place" text={place} />}
        {compact || runsOn === '' ? null : <Painted className="live-instance" text={runsOn} />}
      </div>
      <span id={liveStatusId(id)} className="visually-hidden" aria-hidden="true">
        {['Queued', place, runsOn === '' ? null : `on ${runsOn}`].filter(Boolean).join(', ')}
      </span>
    </>
  );
}

function Running({ id, compact }: { id: string; compact: boolean }) {
  const tick = useApp((s) => s.jobs.progress[id]);
  // Opened while it runs, the window has no tick yet: the job's stored stage and fraction stand in until one comes.
  const saved = useApp((s) => s.jobs.byId[id]?.progress);
  const runsOn = useRunsOn(id);
  const eta = formatEtaShort(useEta(tick));
  const fraction = progressOf(tick ?? saved);
  const steps = tick?.step !== undefined && tick.steps !== undefined ? { n: tick.step, of: tick.steps } : null;
  const stage = formatStage((tick ?? saved)?.stage ?? 'starting');
  const preview = tick?.previewImageId;
  const percent = fraction === null ? null : `${Math.round(fraction * 100)}%`;
  const spoken = [
    'Rendering',
    percent,
    steps === null ? stage : `step ${steps.n} of ${steps.of}`,
    eta,
    runsOn === '' ? null : `on ${runsOn}`,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <>
      {/* The preview itself is drawn by the card beneath this (LivePreview), so it can outlast the render. */}
      {preview === undefined ? <div className="live-canvas" aria-hidden="true" /> : null}
      <div className="live-scrim" aria-hidden="true">
        <ProgressRing fraction={fraction} size={compact ? 26 : 34} label="Rendering progress" />
        {compact ? null : (
          <span className="live-text">
            <Painted className="live-step" text={steps === null ? stage : `step ${steps.n}/${steps.of}`} />
            <Painted className="live-eta" text={[eta, runsOn].filter(Boolean).join(' · ')} />
          </span>
        )}
      </div>
      <span id={liveStatusId(id)} className="visually-hidden" aria-hidden="true">
        {spoken}
      </span>
    </>
  );
}

/**
 * A queued or running job drawn at its final size: the newest partial preview fills it as it renders, under a ring,
 * the step and the time left. Purely visual (it sits inside the card's button); its own job's tick re-renders it alone.
 */
export const LiveThumb = memo(function LiveThumb({ id, width }: { id: string; width: number }) {
  const status = useApp((s) => s.jobs.byId[id]?.status);
  const compact = width < COMPACT_WIDTH;
  return (
    <div className={`thumb live${status === 'queued' ? ' queued' : ' running'}`} data-live={status}>
      {status === 'queued' ? <Queued id={id} compact={compact} /> : <Running id={id} compact={compact} />}
    </div>
  );
});
