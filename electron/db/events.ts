import type { JobEvent } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import type { StoreContext } from './context.js';

const MAX_EVENTS_PER_JOB = 500;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_DATA_BYTES = 8 * 1024;

interface EventRow {
  seq: number;
  at: number;
  kind: string;
  message: string;
  data_json: string | null;
}

/** The append-only trace of a job: attempts, retries, warnings, degradations, transitions. */
export function createEvents(ctx: StoreContext) {
  const insert = ctx.sql.prepare(
    'events.append',
    `INSERT INTO job_events (job_id, seq, at, kind, message, data_json)
     SELECT @jobId, COALESCE(MAX(seq), 0) + 1, @at, @kind, @message, @data FROM job_events WHERE job_id = @jobId
     HAVING COALESCE(MAX(seq), 0) < ${MAX_EVENTS_PER_JOB}`,
  );
  const exists = ctx.sql.prepare<{ one: number }>('events.jobExists', 'SELECT 1 AS one FROM jobs WHERE id = ?');
  const forJob = ctx.sql.prepare<EventRow>(
    'events.forJob',
    'SELECT seq, at, kind, message, data_json FROM job_events WHERE job_id = ? ORDER BY seq',
  );

  /** Appends within the caller's transaction; past the per-job cap further events are dropped, not stored. */
  function append(jobId: string, kind: string, message: string, data?: Record<string, unknown>): void {
    let dataJson: string | null = null;
    if (data !== undefined) {
      dataJson = JSON.stringify(data);
      if (Buffer.byteLength(dataJson) > MAX_DATA_BYTES) {
        dataJson = JSON.stringify({ truncated: true, originalBytes: Buffer.byteLength(dataJson) });
      }
    }
    const clipped = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
    insert.run({ jobId, at: ctx.now(), kind: kind.slice(0, 64), message: clipped, data: dataJson });
  }

  return {
    append,
    /** Public entry: checks the job exists first so a typo is `not_found`, not a foreign-key error. */
    appendChecked(jobId: string, kind: string, message: string, data?: Record<string, unknown>): void {
      if (exists.get(jobId) === undefined) throw new AppError('not_found', `There is no job ${jobId}.`);
      append(jobId, kind, message, data);
    },
    list(jobId: string): JobEvent[] {
      return forJob.all(jobId).map((row) => {
        const event: JobEvent = { seq: row.seq, at: row.at, kind: row.kind, message: row.message };
        if (row.data_json !== null) event.data = JSON.parse(row.data_json) as Record<string, unknown>;
        return event;
      });
    },
  };
}

export type Events = ReturnType<typeof createEvents>;
