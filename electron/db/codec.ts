import type {
  ImageSource,
  Operation,
  ImageSummary,
  ImportedMetadata,
  JobDetail,
  JobEvent,
  JobResult,
  JobStatus,
  JobSummary,
} from '../../shared/contract.js';
import type { ErrorBody } from '../../shared/errors.js';
import type { DetailRow, SummaryRow } from './context.js';

/** A stored row as the contract's JobSummary (optional fields omitted, never null). */
export function toSummary(row: SummaryRow, images: ImageSummary[]): JobSummary {
  const summary: JobSummary = {
    id: row.id,
    status: row.status as JobStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    provider: row.provider,
    prompt: row.prompt,
    width: row.width,
    height: row.height,
    count: row.count,
    favorite: row.favorite === 1,
    trashedAt: row.trashed_at,
    images,
    source: row.source as ImageSource,
  };
  if (row.original_path !== null) summary.path = row.original_path;
  if (row.started_at !== null) summary.startedAt = row.started_at;
  if (row.completed_at !== null) summary.completedAt = row.completed_at;
  if (row.model !== null) summary.model = row.model;
  if (row.negative_prompt !== null) summary.negativePrompt = row.negative_prompt;
  if (row.progress_stage !== null) {
    summary.progress = { stage: row.progress_stage, partialImages: row.partial_images };
    if (row.progress_fraction !== null) summary.progress.fraction = row.progress_fraction;
  }
  if (row.error_json !== null) {
    const error = JSON.parse(row.error_json) as ErrorBody;
    summary.error = { code: error.code, message: error.message };
  }
  if (row.retry_of !== null) summary.retryOf = row.retry_of;
  if (row.retried_as !== null) summary.retriedAs = row.retried_as;
  if (row.operation !== 'generate') summary.operation = row.operation as Operation;
  if (row.parent_image_id !== null) summary.parentImageId = row.parent_image_id;
  if (row.parent_job_id !== null) summary.parentJobId = row.parent_job_id;
  if (row.instance !== null) summary.instance = row.instance;
  if (row.sweep_link !== null) {
    const [id, x, y, z] = JSON.parse(row.sweep_link) as [string, number, number, number];
    summary.sweep = { id, x, y, z };
  }
  return summary;
}

export function toDetail(row: DetailRow, images: ImageSummary[], events: JobEvent[]): JobDetail {
  const detail: JobDetail = {
    ...toSummary(row, images),
    request: JSON.parse(row.request_json) as JobDetail['request'],
    cancelRequested: row.cancel_requested === 1,
    events,
  };
  if (row.result_json !== null) detail.result = JSON.parse(row.result_json) as JobResult;
  if (row.error_json !== null) detail.errorDetail = JSON.parse(row.error_json) as ErrorBody;
  if (row.metadata_json !== null) detail.metadata = JSON.parse(row.metadata_json) as ImportedMetadata;
  return detail;
}
