import type { Db } from './connection.js';
import type { Statements } from './statements.js';
import type { StoreLimits } from './records.js';

/** What every aggregate module shares: one connection, its statements, the clock and the limits. */
export interface StoreContext {
  db: Db;
  sql: Statements;
  now: () => number;
  limits: StoreLimits;
}

export const DEFAULT_LIMITS: StoreLimits = {
  maxPendingJobs: 1_000,
  maxLogicalBytes: 1024 * 1024 * 1024,
  maxResultBytes: 64 * 1024,
};

/** Columns a JobSummary needs (no request/result JSON: list pages stay small), in SELECT order. */
const SUMMARY_FIELDS = [
  'id',
  'status',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'provider',
  'model',
  'prompt',
  'negative_prompt',
  'width',
  'height',
  'count',
  'favorite',
  'trashed_at',
  'progress_stage',
  'progress_fraction',
  'partial_images',
  'error_json',
  'retry_of',
  'retried_as',
  'source',
  'best_rating',
  'rowid',
  'original_path',
  'operation',
  'parent_image_id',
  'instance',
  'parent_job_id',
  'sweep_link',
] as const satisfies ReadonlyArray<keyof SummaryRow>;

/** An imported job's original: the first location still found, else the first known (index image_locations_image). */
const ORIGINAL_PATH_SQL = `CASE WHEN j.source = 'atelier' THEN NULL ELSE COALESCE(
  (SELECT l.path FROM images AS i JOIN image_locations AS l ON l.image_id = i.id WHERE i.job_id = j.id AND l.missing_at IS NULL LIMIT 1),
  (SELECT l.path FROM images AS i JOIN image_locations AS l ON l.image_id = i.id WHERE i.job_id = j.id LIMIT 1)) END AS original_path`;

/** The job that holds a derived job's source image, while that image is in the library (one primary-key read). */
const PARENT_JOB_SQL = '(SELECT p.job_id FROM images AS p WHERE p.id = j.parent_image_id) AS parent_job_id';

/** The sweep cell a job ran for, as [sweep_id, x, y, z] (one read of the unique index sweep_jobs_job). */
const SWEEP_LINK_SQL =
  '(SELECT json_array(w.sweep_id, w.x, w.y, w.z) FROM sweep_jobs AS w WHERE w.job_id = j.id) AS sweep_link';

const COMPUTED: Partial<Record<(typeof SUMMARY_FIELDS)[number], string>> = {
  original_path: ORIGINAL_PATH_SQL,
  parent_job_id: PARENT_JOB_SQL,
  sweep_link: SWEEP_LINK_SQL,
};
export const SUMMARY_COLUMNS = SUMMARY_FIELDS.map((f) => COMPUTED[f] ?? `j.${f}`).join(', ');

export interface SummaryRow {
  id: string;
  status: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
  provider: string;
  model: string | null;
  prompt: string;
  negative_prompt: string | null;
  width: number;
  height: number;
  count: number;
  favorite: number;
  trashed_at: number | null;
  progress_stage: string | null;
  progress_fraction: number | null;
  partial_images: number;
  error_json: string | null;
  retry_of: string | null;
  retried_as: string | null;
  source: string;
  /** The job's best image rating outside the trash (sort by rating), and its rowid (the shuffle's input). */
  best_rating: number;
  rowid: number;
  original_path: string | null;
  operation: string;
  parent_image_id: string | null;
  instance: string | null;
  parent_job_id: string | null;
  /** JSON [sweep_id, x, y, z] when the job is a sweep's cell (migration 0024). */
  sweep_link: string | null;
}

/** A row of SUMMARY_COLUMNS fetched raw (as an array of values: a list page reads 60 of them per call). */
export function summaryRowFrom(values: readonly unknown[]): SummaryRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SUMMARY_FIELDS.length; i += 1) row[SUMMARY_FIELDS[i]!] = values[i];
  return row as unknown as SummaryRow;
}

export interface DetailRow extends SummaryRow {
  request_json: string;
  result_json: string | null;
  cancel_requested: number;
  metadata_json: string | null;
}
