/** Events the engine pushes to every host and the renderer. */
import { z } from 'zod';
import { Id } from './common.js';
import { ExportProgressEvent } from './export.js';
import { ImportProgressEvent, RereadProgress } from './imports.js';
import { JobSummary, QueueWait } from './jobs.js';
import { QueueControlState } from './queue.js';
import { UpdateStatus } from './updates.js';

export const JobProgressEvent = z.object({
  id: Id,
  stage: z.string(),
  fraction: z.number().min(0).max(1).optional(),
  step: z.number().int().optional(),
  steps: z.number().int().optional(),
  etaMs: z.number().int().optional(),
  partialImages: z.number().int(),
  previewImageId: z.string().optional(),
});
export type JobProgressEvent = z.infer<typeof JobProgressEvent>;

export const events = {
  'jobs.changed': z.object({ job: JobSummary }),
  'jobs.progress': JobProgressEvent,
  'jobs.removed': z.object({ ids: z.array(Id) }),
  /** The queue began or stopped waiting for the disk (also in jobs.stats). */
  'jobs.queue': z.object({ waiting: QueueWait.nullable() }),
  /** The queue was paused or resumed, or a provider's hold began or ended (back-off, rate limit, spend cap). */
  'queue.control': QueueControlState,
  'library.importProgress': ImportProgressEvent,
  /** The background re-read of imported files' settings moved on (rereader.ts). */
  'library.rereadProgress': RereadProgress,
  /** Tags, boards or counts changed (a curation action, an undo, a rename): lists and counts refetch. */
  'library.curated': z.object({ at: z.number().int() }),
  'export.progress': ExportProgressEvent,
  'updates.status': UpdateStatus,
} as const;

export type Events = { [E in keyof typeof events]: z.infer<(typeof events)[E]> };
export type EventName = keyof Events;
export const EVENT_NAMES = Object.keys(events) as EventName[];
