import type { GenerateRequest, JobResult, JobDetail, JobSummary } from '../../shared/contract.js';
import { AppError, type ErrorBody } from '../../shared/errors.js';
import { boundError, boundResult } from './bounds.js';
import { toDetail, toSummary } from './codec.js';
import { SUMMARY_COLUMNS, type DetailRow, type StoreContext, type SummaryRow } from './context.js';
import type { Events } from './events.js';
import type { Images } from './images.js';
import { ROW_BYTES_SQL, createSubmit } from './job-submit.js';
import type { NewImage, QueuedJob, StoredRemote } from './records.js';

// Where the row-size constants always lived: file-jobs.ts, tests and benches import them from here.
export { ROW_BYTES_SQL, ROW_OVERHEAD_BYTES } from './job-submit.js';

export const INTERRUPTED_ERROR: ErrorBody = {
  code: 'interrupted',
  message:
    'Atelier stopped while this job was running. The provider may still have finished (and billed) it: ' +
    'check your history before retrying.',
  retryable: false,
  details: { recovery: 'check_history_before_retrying' },
};

export const RESUMING_MESSAGE =
  'Atelier stopped while the provider worked on this job: it collects the result when it starts again (nothing is sent twice).';

const MAX_STAGE_CHARS = 64;

export function createJobs(ctx: StoreContext, images: Images, events: Events) {
  const { sql } = ctx;
  const detailById = sql.prepare<DetailRow>(
    'jobs.get',
    `SELECT ${SUMMARY_COLUMNS}, j.request_json, j.result_json, j.cancel_requested, j.metadata_json FROM jobs AS j WHERE j.id = ?`,
  );
  const summaryById = sql.prepare<SummaryRow>(
    'jobs.getSummary',
    `SELECT ${SUMMARY_COLUMNS} FROM jobs AS j WHERE j.id = ?`,
  );
  const status = sql.prepare<{ status: string; cancel_requested: number }>(
    'jobs.status',
    'SELECT status, cancel_requested FROM jobs WHERE id = ?',
  );
  // Each change stamps updated_at past the last: a job queued and started in one millisecond must still read as newer
  // to a client, which keeps whichever version of a job has the later updated_at (renderer/src/store/jobs-model.ts).
  const claimStmt = sql.prepare(
    'jobs.claim',
    `UPDATE jobs SET status = 'running', started_at = @now, updated_at = MAX(@now, updated_at + 1), progress_stage = 'starting',
       progress_fraction = NULL, instance = @instance
     WHERE id = @id AND status = 'queued' AND cancel_requested = 0`,
  );
  // A local server's run that was lost with its server goes back to the queue for another instance of the kind.
  const requeueStmt = sql.prepare(
    'jobs.requeue',
    `UPDATE jobs SET status = 'queued', started_at = NULL, updated_at = MAX(@now, updated_at + 1), progress_stage = NULL, progress_fraction = NULL,
       partial_images = 0, instance = NULL
     WHERE id = @id AND status = 'running' AND cancel_requested = 0`,
  );
  // A removed instance's queued jobs: any instance of its kind takes them (the request says so too).
  const moveQueuedStmt = sql.prepare<{ id: string }>(
    'jobs.moveQueued',
    `UPDATE jobs SET provider = @to, request_json = json_set(request_json, '$.provider', @to), updated_at = @now
     WHERE provider = @from AND status = 'queued' RETURNING id`,
  );
  // The queue's order: a rank where the person moved a job (queue.ts), else its creation time (jobs_queue_order).
  const queuedStmt = sql.prepare<{
    id: string;
    provider: string;
    created_at: number;
    request_json: string;
    remote_json: string | null;
  }>(
    'jobs.queued',
    `SELECT id, provider, created_at, request_json, remote_json FROM jobs INDEXED BY jobs_queue_order
     WHERE status = 'queued' AND cancel_requested = 0
     ORDER BY COALESCE(queue_rank, created_at), created_at, id LIMIT ?`,
  );
  const progressStmt = sql.prepare(
    'jobs.progress',
    `UPDATE jobs SET progress_stage = @stage, progress_fraction = @fraction, partial_images = @partial, updated_at = MAX(@now, updated_at + 1)
     WHERE id = @id AND status = 'running' AND (progress_stage IS NOT @stage OR partial_images <> @partial)`,
  );
  const finish = sql.prepare(
    'jobs.finish',
    `UPDATE jobs SET status = @next, updated_at = MAX(@now, updated_at + 1), completed_at = @now, result_json = @result, error_json = @error,
       cancel_requested = MAX(cancel_requested, @cancel),
       progress_stage = CASE WHEN @next = 'succeeded' THEN 'done' ELSE progress_stage END,
       progress_fraction = CASE WHEN @next = 'succeeded' THEN 1 ELSE progress_fraction END
     WHERE id = @id AND status IN ('queued', 'running')`,
  );
  const resize = sql.prepare('jobs.resize', `UPDATE jobs SET logical_bytes = ${ROW_BYTES_SQL} WHERE id = ?`);
  // The job's size columns (what size:, w:, h: and ratio: search, and jobs_size_created indexes) become the size of
  // the file it made: an upscale or a provider that picks its own aspect returns another size than the request's.
  const sizeFromImage = sql.prepare(
    'jobs.sizeFromImage',
    'UPDATE jobs SET width = @width, height = @height WHERE id = @id AND (width <> @width OR height <> @height)',
  );
  const flagCancel = sql.prepare(
    'jobs.flagCancel',
    "UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ? AND status = 'running'",
  );
  // Separate from jobs.finish: 'interrupted' is only ever set on open, from 'running'.
  const interrupt = sql.prepare(
    'jobs.interrupt',
    `UPDATE jobs SET status = 'interrupted', updated_at = MAX(@now, updated_at + 1), completed_at = @now, error_json = @error
     WHERE id = @id AND status = 'running'`,
  );
  // updated_at moves past the submit's own stamp, so a client holding either job takes the linked version as newer.
  const linkStmt = sql.prepare(
    'jobs.linkRetry',
    `UPDATE jobs SET retry_of = CASE WHEN id = @retry THEN @original ELSE retry_of END,
       retried_as = CASE WHEN id = @original THEN @retry ELSE retried_as END,
       updated_at = MAX(updated_at + 1, @now)
     WHERE id IN (@original, @retry)`,
  );
  const runningIds = sql.prepare<{ id: string; remote: number; cancel_requested: number }>(
    'jobs.running',
    "SELECT id, remote_json IS NOT NULL AS remote, cancel_requested FROM jobs WHERE status = 'running'",
  );
  // Accepted work goes back to the queue's head with its handle: the scheduler collects it, never sends it again.
  const resumeStmt = sql.prepare(
    'jobs.resume',
    `UPDATE jobs SET status = 'queued', started_at = NULL, updated_at = MAX(@now, updated_at + 1), progress_stage = NULL,
       progress_fraction = NULL, partial_images = 0,
       queue_rank = MIN(COALESCE((SELECT MIN(COALESCE(queue_rank, created_at)) FROM jobs WHERE status = 'queued'), @now), @now) - 1
     WHERE id = @id AND status = 'running'`,
  );
  const setRemoteStmt = sql.prepare(
    'jobs.setRemote',
    "UPDATE jobs SET remote_json = @remote WHERE id = @id AND status = 'running'",
  );

  const locationsOf = sql.prepare<{ path: string; missing: number }>(
    'jobs.locations',
    `SELECT l.path, l.missing_at IS NOT NULL AS missing FROM images AS i JOIN image_locations AS l ON l.image_id = i.id
     WHERE i.job_id = ? ORDER BY l.missing_at IS NOT NULL, l.seen_at, l.path`,
  );

  function detail(id: string): JobDetail {
    const row = detailById.get(id);
    if (row === undefined) throw new AppError('not_found', `There is no job ${id}.`, { details: { id } });
    const out = toDetail(row, images.summariesFor([id]).get(id) ?? [], events.list(id));
    // Where the file is now lives in image_locations (it changes as folders are watched), not in the stored metadata.
    if (out.metadata !== undefined)
      out.metadata.locations = locationsOf.all(id).map((l) => ({ path: l.path, missing: l.missing === 1 }));
    return out;
  }

  function summary(id: string): JobSummary {
    const row = summaryById.get(id);
    if (row === undefined) throw new AppError('not_found', `There is no job ${id}.`, { details: { id } });
    return toSummary(row, images.summariesFor([id]).get(id) ?? []);
  }

  const submit = createSubmit(ctx, events, detail);

  function requireStatus(id: string): { status: string; cancelRequested: boolean } {
    const row = status.get(id);
    if (row === undefined) throw new AppError('not_found', `There is no job ${id}.`, { details: { id } });
    return { status: row.status, cancelRequested: row.cancel_requested === 1 };
  }

  function notPending(id: string, current: string): AppError {
    return new AppError('conflict', `Job ${id} is already ${current}; it cannot change state again.`, {
      details: { id, status: current },
    });
  }

  const claimTx = ctx.db.transaction((id: string, instance: string | null): boolean => {
    if (claimStmt.run({ id, now: ctx.now(), instance }).changes === 0) return false;
    events.append(
      id,
      'started',
      instance === null ? 'Started.' : `Started on ${instance}.`,
      instance === null ? undefined : { instance },
    );
    return true;
  });

  const requeueTx = ctx.db.transaction((id: string, message: string, data: Record<string, unknown>): boolean => {
    if (requeueStmt.run({ id, now: ctx.now() }).changes === 0) return false;
    events.append(id, 'rerun', message, data);
    return true;
  });

  const moveQueuedTx = ctx.db.transaction((from: string, to: string, message: string): string[] => {
    const ids = moveQueuedStmt.all({ from, to, now: ctx.now() }).map((r) => r.id);
    for (const id of ids) events.append(id, 'moved', message, { from, to });
    return ids;
  });

  function finishJob(
    id: string,
    next: 'succeeded' | 'failed' | 'cancelled',
    resultJson: string | null,
    errorJson: string | null,
    cancelFlag: 0 | 1,
  ): void {
    const now = ctx.now();
    if (finish.run({ id, next, now, result: resultJson, error: errorJson, cancel: cancelFlag }).changes === 0) {
      throw notPending(id, requireStatus(id).status);
    }
    resize.run(id);
  }

  const succeedTx = ctx.db.transaction((id: string, newImages: NewImage[], result: JobResult) => {
    const current = requireStatus(id);
    if (current.status !== 'running') throw notPending(id, current.status);
    finishJob(id, 'succeeded', JSON.stringify(boundResult(result, ctx.limits.maxResultBytes)), null, 0);
    images.insertAll(id, newImages);
    const first = newImages[0];
    if (first !== undefined) sizeFromImage.run({ id, width: first.width, height: first.height });
    events.append(id, 'succeeded', `Finished with ${newImages.length} image${newImages.length === 1 ? '' : 's'}.`);
  });

  const failTx = ctx.db.transaction((id: string, error: ErrorBody, result?: Partial<JobResult>) => {
    requireStatus(id);
    const bounded = boundError(error, ctx.limits.maxResultBytes);
    const resultJson =
      result === undefined
        ? null
        : JSON.stringify(boundResult({ ...result, timings: result.timings ?? {} }, ctx.limits.maxResultBytes));
    finishJob(id, 'failed', resultJson, JSON.stringify(bounded), 0);
    events.append(id, 'failed', bounded.message, { code: bounded.code, retryable: bounded.retryable });
  });

  function cancelledError(reason?: string): ErrorBody {
    return { code: 'cancelled', message: reason ?? 'Cancelled.', retryable: false };
  }

  const markCancelledTx = ctx.db.transaction((id: string, reason?: string) => {
    requireStatus(id);
    const error = boundError(cancelledError(reason), ctx.limits.maxResultBytes);
    finishJob(id, 'cancelled', null, JSON.stringify(error), 1);
    events.append(id, 'cancelled', error.message);
  });

  const requestCancelTx = ctx.db.transaction((id: string) => {
    const current = requireStatus(id);
    if (current.status === 'queued') {
      finishJob(id, 'cancelled', null, JSON.stringify(cancelledError('Cancelled before it started.')), 1);
      events.append(id, 'cancelled', 'Cancelled before it started.');
    } else if (current.status === 'running' && !current.cancelRequested) {
      flagCancel.run(ctx.now(), id);
      events.append(id, 'cancel_requested', 'Cancel requested; stopping the provider.');
    }
  });

  const linkRetryTx = ctx.db.transaction((originalId: string, retryId: string) => {
    requireStatus(originalId);
    requireStatus(retryId);
    linkStmt.run({ original: originalId, retry: retryId, now: ctx.now() });
    events.append(retryId, 'retry_of', `Retry of job ${originalId}.`, { originalId });
    events.append(originalId, 'retried_as', `Retried as job ${retryId}.`, { retryId });
  });

  const recoverTx = ctx.db.transaction((): { interrupted: number; resumed: number } => {
    const rows = runningIds.all();
    const errorJson = JSON.stringify(INTERRUPTED_ERROR);
    let resumed = 0;
    for (const { id, remote, cancel_requested } of rows) {
      const now = ctx.now();
      if (remote === 1 && cancel_requested === 0) {
        resumeStmt.run({ id, now });
        events.append(id, 'resuming', RESUMING_MESSAGE);
        resumed += 1;
        continue;
      }
      interrupt.run({ id, now, error: errorJson });
      resize.run(id);
      events.append(id, 'interrupted', INTERRUPTED_ERROR.message);
    }
    return { interrupted: rows.length - resumed, resumed };
  });

  return {
    reads: {
      get: detail,
      getSummary: summary,
      queued(limit: number): QueuedJob[] {
        return queuedStmt.all(Math.max(0, Math.trunc(limit))).map((row) => {
          const job: QueuedJob = {
            id: row.id,
            provider: row.provider,
            createdAt: row.created_at,
            request: JSON.parse(row.request_json) as GenerateRequest,
          };
          if (row.remote_json !== null) job.remote = JSON.parse(row.remote_json) as StoredRemote;
          return job;
        });
      },
    },
    writes: {
      ...submit,
      claim(id: string, instance?: string): boolean {
        return claimTx.immediate(id, instance ?? null);
      },
      requeue(id: string, message: string, data: Record<string, unknown> = {}): boolean {
        return requeueTx.immediate(id, message, data);
      },
      moveQueued(from: string, to: string, message: string): string[] {
        return moveQueuedTx.immediate(from, to, message);
      },
      setProgress(id: string, progress: { stage: string; fraction?: number; partialImages: number }): boolean {
        if (progress.stage.length === 0 || progress.stage.length > MAX_STAGE_CHARS) {
          throw new AppError('invalid_request', `A progress stage is 1 to ${MAX_STAGE_CHARS} characters.`);
        }
        if (!Number.isInteger(progress.partialImages) || progress.partialImages < 0) {
          throw new AppError('invalid_request', 'A partial image count is a whole number from 0.');
        }
        const fraction =
          progress.fraction === undefined || !Number.isFinite(progress.fraction)
            ? null
            : Math.min(1, Math.max(0, progress.fraction));
        return (
          progressStmt.run({ id, stage: progress.stage, fraction, partial: progress.partialImages, now: ctx.now() })
            .changes > 0
        );
      },
      succeed(id: string, newImages: NewImage[], result: JobResult): JobSummary {
        sql.time('jobs.succeed', () => succeedTx.immediate(id, newImages, result));
        return summary(id);
      },
      fail(id: string, error: ErrorBody, result?: Partial<JobResult>): JobSummary {
        failTx.immediate(id, error, result);
        return summary(id);
      },
      markCancelled(id: string, reason?: string): JobSummary {
        markCancelledTx.immediate(id, reason);
        return summary(id);
      },
      requestCancel(id: string): JobDetail {
        requestCancelTx.immediate(id);
        return detail(id);
      },
      linkRetry(originalId: string, retryId: string): void {
        linkRetryTx.immediate(originalId, retryId);
      },
      recoverInterrupted(): { interrupted: number; resumed: number } {
        return sql.time('jobs.recoverInterrupted', () => recoverTx.immediate());
      },
      setRemote(id: string, remote: StoredRemote): boolean {
        return setRemoteStmt.run({ id, remote: JSON.stringify(remote) }).changes > 0;
      },
    },
  };
}

export type Jobs = ReturnType<typeof createJobs>;
