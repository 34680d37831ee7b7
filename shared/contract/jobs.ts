/** Jobs: what a person asks for, what the engine keeps, and how the history is listed. */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import { Corrections, ImageNote } from './corrections.js';
import { ImageSource, ImportedMetadata } from './imports.js';
import { IterateFields, Operation, ProviderTarget } from './iterate.js';
import { OrphanStats, RecoveryStats } from './library.js';
import { JobCost } from './spend.js';
import { Loras } from './loras.js';
import {
  BACKGROUNDS,
  CONTROL_CHARS,
  Id,
  JOB_STATUSES,
  JobStatus,
  OUTPUT_FORMATS,
  ProviderId,
  QUALITIES,
  Seed,
  int,
  num,
} from './common.js';

export const GenerateRequest = z.strictObject({
  /** An instance id (comfyui, comfyui-2) or any:<kind>. */
  provider: ProviderTarget,
  model: z
    .string()
    .min(1, 'A model name cannot be empty.')
    .max(200, 'A model name is at most 200 characters.')
    .optional(),
  prompt: z
    .string({ error: 'Write a prompt.' })
    .min(1, 'Write a prompt.')
    .max(32_000, 'A prompt is at most 32,000 characters.')
    .refine((s) => s.trim().length > 0, 'Write a prompt: it cannot be only spaces.'),
  negativePrompt: z.string().max(32_000, 'A negative prompt is at most 32,000 characters.').optional(),
  width: int('Width', 64, 4096),
  height: int('Height', 64, 4096),
  count: int('Count', 1, 10),
  seed: Seed.optional(),
  steps: int('Steps', 1, 150).optional(),
  guidance: num('Guidance', 0, 30).optional(),
  sampler: z.string().min(1).max(64, 'A sampler name is at most 64 characters.').optional(),
  /** LoRAs applied in this order, sent the way the engine expects (electron/providers/<kind>/). */
  loras: Loras.optional(),
  quality: z.enum(QUALITIES, { error: `Quality is one of ${QUALITIES.join(', ')}.` }).optional(),
  background: z.enum(BACKGROUNDS, { error: `Background is one of ${BACKGROUNDS.join(', ')}.` }).optional(),
  outputFormat: z.enum(OUTPUT_FORMATS, { error: `Output format is one of ${OUTPUT_FORMATS.join(', ')}.` }).optional(),
  partialImages: int('Partial previews', 0, 3).optional(),
  /** Per-request provider timeout; excluded from the idempotency fingerprint. */
  timeoutMs: int('Timeout', 1_000, 3_600_000).optional(),
  idempotencyKey: z
    .string()
    .min(1, 'An idempotency key cannot be empty.')
    .max(256, 'An idempotency key is at most 256 characters.')
    .refine((s) => !CONTROL_CHARS.test(s), 'An idempotency key cannot contain control characters.')
    .optional(),
  ...IterateFields,
});
export type GenerateRequest = z.infer<typeof GenerateRequest>;

export const ImageSummary = z.object({
  id: Id,
  index: z.number().int().min(0),
  width: z.number().int(),
  height: z.number().int(),
  mime: z.string(),
  bytes: z.number().int().min(0),
  /** The seed this image was rendered with, where known: a batch's images each have their own. */
  seed: Seed.optional(),
  /** Position in a batch that shares one seed (ComfyUI): reproduce it with that seed and at least this many + 1. */
  batchIndex: z.number().int().min(0).optional(),
  /** No thumbnail yet (an imported image's is made in the background; a job's failed): show a placeholder. */
  thumbPending: z.literal(true).optional(),
  /** The person's own curation of this one image (absent: unrated, not a favourite, no tags, not in the trash). */
  rating: z.number().int().min(1).max(5).optional(),
  favorite: z.literal(true).optional(),
  tags: z.array(z.string()).optional(),
  trashed: z.literal(true).optional(),
  /** Rejected (X): hidden from the default view, found with is:rejected. */
  rejected: z.literal(true).optional(),
});
export type ImageSummary = z.infer<typeof ImageSummary>;

export const JobProgress = z.object({
  stage: z.string(),
  fraction: z.number().min(0).max(1).optional(),
  partialImages: z.number().int().min(0),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const ErrorBody = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const JobSummary = z.object({
  id: Id,
  status: JobStatus,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  startedAt: z.number().int().optional(),
  completedAt: z.number().int().optional(),
  provider: z.string(),
  model: z.string().optional(),
  prompt: z.string(),
  negativePrompt: z.string().optional(),
  width: z.number().int(),
  height: z.number().int(),
  count: z.number().int(),
  favorite: z.boolean(),
  trashedAt: z.number().int().nullable(),
  progress: JobProgress.optional(),
  images: z.array(ImageSummary),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).optional(),
  /** The job this one retried, and the newest job that retried this one. */
  retryOf: Id.optional(),
  retriedAs: Id.optional(),
  /** The tool that made the image: atelier for jobs run here, else the generator an imported file came from. */
  source: ImageSource,
  /** Imported images: where the original is (the first location still found, else the first known). */
  path: z.string().optional(),
  /** What the job did with an image of the library (absent: generate), and which image (lineage survives the source's removal). */
  operation: Operation.optional(),
  parentImageId: Id.optional(),
  /** The job holding parentImageId, while that image is still in the library (absent once it is purged). */
  parentJobId: Id.optional(),
  /** The instance that ran (or runs) it, when the job asked for any instance of a kind or was moved. */
  instance: z.string().optional(),
  /** The sweep cell this job ran for (the viewer links back to the grid). */
  sweep: z
    .object({ id: Id, x: z.number().int().min(0), y: z.number().int().min(0), z: z.number().int().min(0) })
    .optional(),
});
export type JobSummary = z.infer<typeof JobSummary>;

export const Usage = z.record(z.string(), z.unknown());

export const JobResult = z.object({
  revisedPrompt: z.string().optional(),
  seed: Seed.optional(),
  usage: Usage.optional(),
  /** Milliseconds per phase, e.g. {queuedMs, providerMs, storeMs, totalMs}. */
  timings: z.record(z.string(), z.number()),
  /** What the job cost: reported by the provider, else estimated (electron/spend/). Paid kinds only. */
  cost: JobCost.optional(),
});
export type JobResult = z.infer<typeof JobResult>;

export const JobEvent = z.object({
  seq: z.number().int(),
  at: z.number().int(),
  kind: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type JobEvent = z.infer<typeof JobEvent>;

/**
 * A job's settings as stored. A job run here always satisfies GenerateRequest; an imported file's settings are
 * whatever its tool wrote: no prompt, or a size outside what Atelier generates, is kept as it is.
 */
export const StoredRequest = GenerateRequest.omit({ idempotencyKey: true }).extend({
  prompt: z.string().max(32_000),
  width: z.number().int().min(1).max(65_535),
  height: z.number().int().min(1).max(65_535),
});
export type StoredRequest = z.infer<typeof StoredRequest>;

export const JobDetail = JobSummary.extend({
  request: StoredRequest,
  /** Imported images only: what the file said beyond the request, its raw metadata texts, where it lives. */
  metadata: ImportedMetadata.optional(),
  /** A person's corrections of what the file was read to say (request and metadata stay the file's own). */
  corrections: Corrections.optional(),
  /** The person's notes on this job's images (absent: none). */
  notes: z.array(ImageNote).optional(),
  result: JobResult.optional(),
  errorDetail: ErrorBody.optional(),
  cancelRequested: z.boolean(),
  events: z.array(JobEvent),
});
export type JobDetail = z.infer<typeof JobDetail>;

export const SORTS = ['newest', 'oldest', 'rating', 'random'] as const;
export type Sort = (typeof SORTS)[number];

export const ListQuery = z.strictObject({
  cursor: z.string().min(1).max(512, 'That cursor is not one Atelier made.').optional(),
  limit: int('Limit', 1, 200).default(60),
  view: z.enum(['active', 'trash', 'all']).default('active'),
  status: z.array(JobStatus).min(1).max(JOB_STATUSES.length).optional(),
  favorite: z.boolean().optional(),
  provider: ProviderId.optional(),
  source: ImageSource.optional(),
  search: z.string().max(1_000, 'A search is at most 1,000 characters.').optional(),
  /** Absent: newest first. */
  sort: z.enum(SORTS, { error: `Sort is one of ${SORTS.join(', ')}.` }).optional(),
  /** random: the shuffle; the same number keeps the same order while the person scrolls. */
  shuffle: int('Shuffle', 0, 2_147_483_647).optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const ListPage = z.object({ items: z.array(JobSummary), nextCursor: z.string().nullable() });
export type ListPage = z.infer<typeof ListPage>;

export const SubmitResult = z.object({ job: JobDetail, created: z.boolean() });
export type SubmitResult = z.infer<typeof SubmitResult>;

/** Why queued jobs are not starting although a server is free: the library's disk refuses the writes that start or end them. */
export const QueueWait = z.object({
  /** disk_space: the disk (or quota) is full; library_disk: the library's drive refuses writes otherwise (read-only, gone). */
  for: z.enum(['disk_space', 'library_disk']),
  /** What the disk said, in the words of a storage error. */
  message: z.string(),
  since: z.number().int(),
});
export type QueueWait = z.infer<typeof QueueWait>;

export const Stats = z.object({
  byStatus: z.record(JobStatus, z.number().int()),
  total: z.number().int(),
  trashed: z.number().int(),
  favorites: z.number().int(),
  images: z.number().int(),
  databaseBytes: z.number().int(),
  mediaBytes: z.number().int(),
  /** Image rows whose file is gone from disk: reported, never silently dropped. */
  missingFiles: z.number().int(),
  orphans: OrphanStats,
  recovery: RecoveryStats,
  /** The queue held up by the disk; jobs start by themselves once it takes writes again. */
  queue: z.object({ waiting: QueueWait.nullable() }).optional(),
});
export type Stats = z.infer<typeof Stats>;
