/** Submitting jobs: validation, idempotency keys, admission (queue and byte budget), the row and its grams. */
import { GenerateRequest, describeIssues, operationOf, type JobDetail } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import { byteLength } from './bounds.js';
import type { StoreContext } from './context.js';
import type { Events } from './events.js';
import { facetsOf, withSettings } from './facets.js';
import { idempotencyKeyHash, requestFingerprint } from './fingerprint.js';
import { searchTextOf } from './fold.js';
import { gramsOf } from './grams.js';
import type { SubmitOutcome } from './records.js';

/** Fixed per-row overhead counted in the logical byte budget (ids, times, index entries). */
export const ROW_OVERHEAD_BYTES = 256;
/** The logical size of a row from what it stores; pending rows also reserve room for their result. */
export const ROW_BYTES_SQL = `length(CAST(request_json AS BLOB)) + length(CAST(search_text AS BLOB))
  + length(CAST(COALESCE(result_json, '') AS BLOB)) + length(CAST(COALESCE(error_json, '') AS BLOB)) + ${ROW_OVERHEAD_BYTES}`;

/** submit and submitMany; `detail` reads the stored job back for the answer. */
export function createSubmit(ctx: StoreContext, events: Events, detail: (id: string) => JobDetail) {
  const { sql } = ctx;
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
  const insertLora = sql.prepare(
    'jobs.insertLora',
    'INSERT OR IGNORE INTO job_loras (job_id, key, name) VALUES (?, ?, ?)',
  );

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
    const searchText = withSettings(searchTextOf(request.prompt), facets);
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
    for (const lora of facets.loras) insertLora.run(id, lora.key, lora.name);
    events.append(id, 'submitted', `Queued for ${request.provider}.`);
    return { id, created: true };
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
  };
}
