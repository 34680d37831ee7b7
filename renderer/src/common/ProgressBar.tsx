import type { JobProgressEvent } from '../../../shared/contract';
import { formatEta, formatPercent, formatStage } from './format';

export function ProgressBar({ tick, status }: { tick: JobProgressEvent | undefined; status: string }) {
  const percent = formatPercent(tick?.fraction);
  const stage = tick === undefined ? (status === 'queued' ? 'Waiting in queue' : 'Starting') : formatStage(tick.stage);
  const eta = formatEta(tick?.etaMs);
  const steps = tick?.step !== undefined && tick.steps !== undefined ? `step ${tick.step}/${tick.steps}` : null;
  return (
    <div className="progress">
      <div
        className={tick?.fraction === undefined ? 'bar indeterminate' : 'bar'}
        role="progressbar"
        aria-label={`Progress: ${stage}`}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(tick?.fraction === undefined ? {} : { 'aria-valuenow': Math.round(tick.fraction * 100) })}
      >
        <div className="fill" style={{ width: `${Math.round((tick?.fraction ?? 0) * 100)}%` }} />
      </div>
      <p className="progress-text">
        <span>{stage}</span>
        {percent === null ? null : <span>{percent}</span>}
        {steps === null ? null : <span>{steps}</span>}
        {eta === null ? null : <span>{eta}</span>}
      </p>
    </div>
  );
}
