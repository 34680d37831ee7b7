/** Queue control: its order, pausing it (whole or per provider), holds, and cancelling what waits (counted). */
import { z } from 'zod';
import { Id, ProviderId, int } from './common.js';
import { JobSummary } from './jobs.js';

/** At most this many queued jobs come back in one view (the store holds at most 1,000 pending by default). */
export const QUEUE_VIEW_LIMIT = 1_000;

/** Why a provider takes no new work now: the person paused it, it is backing off after a 429, or its spend cap. */
export const QUEUE_HOLDS = ['paused', 'backoff', 'rate', 'spend'] as const;
export const QueueHold = z.object({
  kind: z.enum(QUEUE_HOLDS),
  message: z.string(),
  /** When it lifts by itself (back-off, rate limit), ms since the epoch. */
  until: z.number().int().optional(),
});
export type QueueHold = z.infer<typeof QueueHold>;

export const QueueProviderState = z.object({
  id: ProviderId,
  running: z.number().int(),
  queued: z.number().int(),
  /** Jobs at once on this provider (its concurrency setting). */
  limit: z.number().int(),
  /** Jobs started per minute at most, when the person set one. */
  perMinute: z.number().int().optional(),
  hold: QueueHold.optional(),
});
export type QueueProviderState = z.infer<typeof QueueProviderState>;

export const QueueControlState = z.object({
  /** The whole queue is paused: running jobs finish, nothing new starts. */
  paused: z.boolean(),
  providers: z.array(QueueProviderState),
});
export type QueueControlState = z.infer<typeof QueueControlState>;

export const QueueView = z.object({
  running: z.array(JobSummary),
  /** In the order they will start. */
  queued: z.array(JobSummary),
  queuedTotal: z.number().int(),
  control: QueueControlState,
});
export type QueueView = z.infer<typeof QueueView>;

export const ReorderQueue = z.strictObject({
  ids: z.array(Id).min(1).max(QUEUE_VIEW_LIMIT),
  /** The job they go before; null: the end of the queue. */
  before: Id.nullable(),
});
export type ReorderQueue = z.infer<typeof ReorderQueue>;

export const QueueTarget = z.strictObject({
  /** One provider instance; absent: the whole queue. */
  provider: ProviderId.optional(),
});
export type QueueTarget = z.infer<typeof QueueTarget>;

export const CancelQueued = z.strictObject({
  /** The count the person confirmed; a queue that changed meanwhile refuses with the new count. */
  expected: int('Expected count', 0, 1_000_000),
  provider: z.string().min(1).max(200).optional(),
});
export type CancelQueued = z.infer<typeof CancelQueued>;
