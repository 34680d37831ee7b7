/** The library on disk: what the trash and retention would remove, kept orphans, and rebuilding a lost history. */
import { z } from 'zod';

const count = z.number().int().min(0);

/** What Empty trash removes for good: jobs trashed whole, every trashed image (`looseImages` of them from jobs that stay), favorites apart. */
export const TrashSummary = z.object({
  jobs: count,
  images: count,
  looseImages: count,
  bytes: count,
  favorites: count,
});
export type TrashSummary = z.infer<typeof TrashSummary>;

/** Retention limits to try before saving them (null: no limit), as in settings.retention. */
export const RetentionLimits = z.strictObject({
  maxJobs: z.number().int().min(1).max(100_000_000).nullable(),
  maxBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable(),
  maxAgeDays: z.number().int().min(1).max(36_500).nullable(),
});
export type RetentionLimits = z.infer<typeof RetentionLimits>;

/** Jobs (with their images and image bytes) retention would move to the trash now. Favorites never move. */
export const RetentionPreview = z.object({ jobs: count, images: count, bytes: count });
export type RetentionPreview = z.infer<typeof RetentionPreview>;

/** The person confirms the number of orphaned files they were shown: another number is refused (`conflict`). */
export const RemoveOrphans = z.strictObject({ expectedCount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export const RebuildResult = z.object({
  /** Jobs and images recreated from the files' embedded settings. */
  jobs: count,
  images: count,
  /** Files the history already knew (a second rebuild finds every file here). */
  known: count,
  /** Files without a readable Atelier record: left where they are. */
  unreadable: count,
});
export type RebuildResult = z.infer<typeof RebuildResult>;

/** Files in the orphans folder: moved out of library/ and thumbs/ by the start-up orphan collection, never deleted by it. */
export const OrphanStats = z.object({ files: count, bytes: count });

/**
 * 'checking' until the start-up check has looked at library/; 'needed' when the database knows fewer than half of
 * its files (a new, empty or replaced database): nothing is swept then, and the history can be rebuilt.
 */
export const RecoveryStats = z.object({
  state: z.enum(['checking', 'ok', 'needed', 'rebuilding']),
  libraryFiles: count,
  unknownFiles: count,
});
export type RecoveryStats = z.infer<typeof RecoveryStats>;
