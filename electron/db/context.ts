import type { Db } from './connection.js';
import type { Statements } from './statements.js';
import type { StoreLimits } from './types.js';

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

/** Columns a JobSummary needs (no request/result JSON: list pages stay small). */
export const SUMMARY_COLUMNS = `j.id, j.status, j.created_at, j.updated_at, j.started_at, j.completed_at, j.provider,
  j.model, j.prompt, j.negative_prompt, j.width, j.height, j.count, j.favorite, j.trashed_at, j.progress_stage,
  j.progress_fraction, j.partial_images, j.error_json`;

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
}

export interface DetailRow extends SummaryRow {
  request_json: string;
  result_json: string | null;
  cancel_requested: number;
}
