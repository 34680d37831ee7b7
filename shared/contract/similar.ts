/** Find similar and show duplicates: images compared by their 64-bit perceptual hash. */
import { z } from 'zod';
import { Id } from './common.js';
import { JobSummary } from './jobs.js';

export const SIMILAR_DEFAULT_LIMIT = 50;
export const SIMILAR_MAX_LIMIT = 200;

export const SimilarQuery = z.strictObject({
  imageId: Id,
  limit: z
    .number()
    .int('A limit is a whole number.')
    .min(1, 'Ask for at least one image.')
    .max(SIMILAR_MAX_LIMIT, `At most ${SIMILAR_MAX_LIMIT} similar images at once.`)
    .default(SIMILAR_DEFAULT_LIMIT),
});

/** One look-alike: how many of the 64 hash bits differ (0: the same picture to the eye). */
export const SimilarImage = z.object({ imageId: Id, jobId: Id, distance: z.number().int().min(0).max(64) });
export type SimilarImage = z.infer<typeof SimilarImage>;

/** Nearest first, the image itself left out; `jobs` holds every job an item belongs to, so the grid can show them. */
export const SimilarResult = z.object({ items: z.array(SimilarImage), jobs: z.array(JobSummary) });
export type SimilarResult = z.infer<typeof SimilarResult>;

/** 'exact': the same file (same SHA-256) stored more than once; 'near': resized, re-encoded or lightly cropped copies. */
export const DuplicateGroup = z.object({
  kind: z.enum(['exact', 'near']),
  imageIds: z.array(Id).min(2),
  jobIds: z.array(Id).min(1),
});
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;

export const DuplicatesQuery = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,16}$/, 'That is not a cursor this library gave out.')
    .optional(),
});

/** Newest groups first; `nextCursor` continues the list (null: that was the last page). */
export const DuplicatesPage = z.object({
  groups: z.array(DuplicateGroup),
  jobs: z.array(JobSummary),
  nextCursor: z.string().nullable(),
});
export type DuplicatesPage = z.infer<typeof DuplicatesPage>;
