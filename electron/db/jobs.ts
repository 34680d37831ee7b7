import {
  GenerateRequest,
  describeIssues,
  operationOf,
  type JobResult,
  type JobDetail,
  type JobSummary,
} from '../../shared/contract.js';
import { AppError, type ErrorBody } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import { boundError, boundResult, byteLength } from './bounds.js';
import { toDetail, toSummary } from './codec.js';
import { SUMMARY_COLUMNS, type DetailRow, type StoreContext, type SummaryRow } from './context.js';
import type { Events } from './events.js';
import { idempotencyKeyHash, requestFingerprint } from './fingerprint.js';
import { searchTextOf } from './fold.js';
import { facetsOf, withSettings } from './facets.js';
import { gramsOf } from './grams.js';
import type { Images } from './images.js';
import type { NewImage, QueuedJob, SubmitOutcome } from './records.js';

/** Fixed per-row overhead counted in the logical byte budget (ids, times, index entries). */
export const ROW_OVERHEAD_BYTES = 256;
/** The logical size of a row from what it stores; pending rows also reserve room for their result. */
export const ROW_BYTES_SQL = `length(CAST(request_json AS BLOB)) + length(CAST(search_text AS BLOB))
  + length(CAST(COALESCE(result_json, '') AS BLOB)) + length(CAST(COALESCE(error_json, '') AS BLOB)) + ${ROW_OVERHEAD_BYTES}`;

export const INTERRUPTED_ERROR: ErrorBody = {
  code: 'interrupted',
  message:
    'Atelier stopped while this job was running. The provider may still have finished (and billed) it: ' +
    'check your history before retrying.',
  retryable: false,
  details: { recovery: 'check_history_before_retrying' },
};

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
  const byKey = sql.prepare<{ id: string; request_fingerprint: string | null }>(
    'jobs.byIdempotencyKey',
    'SELECT id, request_fingerprint FROM jobs WHERE idempotency_key_hash = ?',
  );
  // One row kept by triggers (migrations 0002, 0003): admission is O(1) however long the history.
  const admission = sql.prepare<{ pending: number; bytes: number }>(
    'jobs.admission',
    'SELECT queued + running AS pending, logical_bytes AS bytes FROM store_totals WHERE id = 1',
  );
  const insert = sql.prepare(
    'jobs.insert',
    `INSERT INTO jobs (id, status, created_at, updated_at, provider, model, prompt, negative_prompt, width, height,
       count, request_json, search_text, logical_bytes, idempotency_key_hash, request_fingerprint, model_key, sampler_key,
       steps, cfg, negative_key, operation, parent_image_id)
     VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (idempotency_key_hash) WHERE idempotency_key_hash IS NOT NULL DO NOTHING`,
  );
  // Around the insert, the jobs_grams trigger stands aside (migration 0004): the tokens are made here, in linear time.
  const gramsFromApp = sql.prepare('jobs.gramsFromApp', 'UPDATE store_totals SET grams_from_app = ? WHERE id = 1');
  const insertGrams = sql.prepare('jobs.insertGrams', 'INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
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
  const queuedStmt = sql.prepare<{ id: string; provider: string; created_at: number; request_json: string }>(
    'jobs.queued',
    `SELECT id, provider, created_at, request_json FROM jobs WHERE status = 'queued' AND cancel_requested = 0
     ORDER BY created_at, id LIMIT ?`,
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
  const runningIds = sql.prepare<{ id: string }>('jobs.running', "SELECT id FROM jobs WHERE status = 'running'");

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

  const submitTx = ctx.db.transaction((request: GenerateRequest): { id: string; created: boolean } => {
    const keyHash = request.idempotencyKey === undefined ? null : idempotencyKeyHash(request.idempotencyKey);
    const fingerprint = keyHash === null ? null : requestFingerprint(request);
    const replay = () => {
      const existing = keyHash === null ? undefined : byKey.get(keyHash);
      if (existing === undefined) return null;
      if (existing.request_fingerprint !== fingerprint) {
        throw new AppError(
          'conflict',
          'This idempotency key was already used for a different request. Use a new key for a new request.',
          { details: { jobId: existing.id } },
        );
      }
      return { id: existing.id, created: false };
    };
    const first = replay();
    if (first !== null) return first;

    const totals = admission.get()!;
    if (totals.pending >= ctx.limits.maxPendingJobs) {
      throw new AppError(
        'overloaded',
        `Atelier already has ${ctx.limits.maxPendingJobs} jobs waiting. Try again when some finish.`,
        {
          retryable: true,
          details: { reason: 'pending_capacity', maxPendingJobs: ctx.limits.maxPendingJobs },
        },
      );
    }
    const lineage = operationOf(request);
    if ('error' in lineage)
      throw new AppError('invalid_request', lineage.error, { details: { fields: { [lineage.field]: lineage.error } } });
    const { idempotencyKey: _key, ...stored } = request;
    const requestJson = JSON.stringify(stored);
    const facets = facetsOf({ provider: request.provider, model: request.model ?? null, request });
    const searchText = withSettings(searchTextOf(request.prompt, request.negativePrompt), facets);
    const rowBytes = byteLength(requestJson) + byteLength(searchText) + ROW_OVERHEAD_BYTES + ctx.limits.maxResultBytes;
    if (totals.bytes + rowBytes > ctx.limits.maxLogicalBytes) {
      throw new AppError('overloaded', 'The job store is full. Empty the trash or prune old jobs, then try again.', {
        retryable: true,
        details: { reason: 'byte_budget', maxLogicalBytes: ctx.limits.maxLogicalBytes },
      });
    }
    const now = ctx.now();
    const id = uuidv7(now);
    gramsFromApp.run(1);
    const inserted = insert.run(
      id,
      now,
      now,
      request.provider,
      request.model ?? null,
      request.prompt,
      request.negativePrompt ?? null,
      request.width,
      request.height,
      request.count,
      requestJson,
      searchText,
      rowBytes,
      keyHash,
      fingerprint,
      facets.modelKey,
      facets.samplerKey,
      facets.steps,
      facets.cfg,
      facets.negativeKey,
      lineage.operation,
      lineage.parentImageId ?? null,
    );
    gramsFromApp.run(0);
    if (inserted.changes === 0) {
      // Another connection committed the same key first: converge on its job (or its conflict).
      const raced = replay();
      if (raced !== null) return raced;
      throw new AppError('internal', 'The job could not be stored.');
    }
    insertGrams.run(inserted.lastInsertRowid, gramsOf(searchText));
    events.append(id, 'submitted', `Queued for ${request.provider}.`);
    return { id, created: true };
  });

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

  const recoverTx = ctx.db.transaction((): number => {
    const ids = runningIds.all().map((r) => r.id);
    const errorJson = JSON.stringify(INTERRUPTED_ERROR);
    for (const id of ids) {
      const now = ctx.now();
      interrupt.run({ id, now, error: errorJson });
      resize.run(id);
      events.append(id, 'interrupted', INTERRUPTED_ERROR.message);
    }
    return ids.length;
  });

  const parseRequest = (raw: GenerateRequest): GenerateRequest => {
    const parsed = GenerateRequest.safeParse(raw);
    if (!parsed.success) {
      const { message, fields } = describeIssues(parsed.error);
      throw new AppError('invalid_request', message, { details: { fields } });
    }
    return parsed.data;
  };

  // Each submit runs in its own savepoint (better-sqlite3 nests transactions so): a refused one rolls back alone.
  const submitManyTx = ctx.db.transaction((requests: GenerateRequest[]) =>
    requests.map((request): { id: string; created: boolean } | { error: unknown } => {
      try {
        return submitTx(request);
      } catch (error) {
        return { error };
      }
    }),
  );

  return {
    reads: {
      get: detail,
      getSummary: summary,
      queued(limit: number): QueuedJob[] {
        return queuedStmt.all(Math.max(0, Math.trunc(limit))).map((row) => ({
          id: row.id,
          provider: row.provider,
          createdAt: row.created_at,
          request: JSON.parse(row.request_json) as GenerateRequest,
        }));
      },
    },
    writes: {
      submit(raw: GenerateRequest): { job: JobDetail; created: boolean } {
        const request = parseRequest(raw);
        // IMMEDIATE: the write lock is taken before the key lookup, so lookup-then-insert is atomic across connections.
        const outcome = sql.time('jobs.submit', () => submitTx.immediate(request));
        return { job: detail(outcome.id), created: outcome.created };
      },
      submitMany(raws: GenerateRequest[]): SubmitOutcome[] {
        const outcomes: SubmitOutcome[] = new Array<SubmitOutcome>(raws.length);
        // Validated outside the transaction: only well-formed requests take the write lock.
        const valid: Array<{ at: number; request: GenerateRequest }> = [];
        raws.forEach((raw, at) => {
          try {
            valid.push({ at, request: parseRequest(raw) });
          } catch (error) {
            outcomes[at] = { ok: false, error };
          }
        });
        if (valid.length === 0) return outcomes;
        const stored = sql.time('jobs.submitMany', () => submitManyTx.immediate(valid.map((v) => v.request)));
        stored.forEach((outcome, k) => {
          const at = valid[k]!.at;
          outcomes[at] =
            'error' in outcome
              ? { ok: false, error: outcome.error }
              : { ok: true, value: { job: detail(outcome.id), created: outcome.created } };
        });
        return outcomes;
      },
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
      recoverInterrupted(): number {
        return sql.time('jobs.recoverInterrupted', () => recoverTx.immediate());
      },
    },
  };
}

export type Jobs = ReturnType<typeof createJobs>;
