import { CORRECTABLE_FIELDS, Corrections, type CorrectableField } from '../../shared/contract.js';
import type { StoreContext } from './context.js';

/** The rows of job_corrections (migration 0015): one per corrected field, its value as JSON. */
export function createCorrections(ctx: StoreContext) {
  const { sql } = ctx;
  const forJob = sql.prepare<{ field: string; value: string }>(
    'corrections.forJob',
    'SELECT field, value FROM job_corrections WHERE job_id = ?',
  );
  const upsert = sql.prepare(
    'corrections.upsert',
    `INSERT INTO job_corrections (job_id, field, value, corrected_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (job_id, field) DO UPDATE SET value = excluded.value, corrected_at = excluded.corrected_at`,
  );
  const removeOne = sql.prepare('corrections.remove', 'DELETE FROM job_corrections WHERE job_id = ? AND field = ?');

  return {
    /** The job's corrections; a row this version cannot read (written by a later one) is left out, never thrown. */
    of(jobId: string): Corrections {
      const raw: Record<string, unknown> = {};
      for (const row of forJob.all(jobId)) {
        if (!(CORRECTABLE_FIELDS as readonly string[]).includes(row.field)) continue;
        try {
          raw[row.field] = JSON.parse(row.value) as unknown;
        } catch {
          // A damaged value is as if never corrected: the file's own shows.
        }
      }
      const out: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(raw)) {
        const one = Corrections.safeParse({ [field]: value });
        if (one.success) Object.assign(out, one.data);
      }
      return out as Corrections;
    },
    set(jobId: string, field: CorrectableField, value: unknown): void {
      upsert.run(jobId, field, JSON.stringify(value), ctx.now());
    },
    remove(jobId: string, field: CorrectableField): boolean {
      return removeOne.run(jobId, field).changes > 0;
    },
  };
}

export type CorrectionRows = ReturnType<typeof createCorrections>;
