/**
 * Plain values the store's functions take and return. Imports nothing from db/, so any module of the store can use
 * them without going through types.ts (which imports every sub-store for JobStore).
 */
import type { JobDetail, JobStatus, GenerateRequest } from '../../shared/contract.js';
import type { Seed } from '../../shared/seed.js';

export interface NewImage {
  id: string;
  index: number;
  /** Relative to the data dir, e.g. library/ab/cdef….png */
  path: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
  mime: string;
  /** Relative to the data dir, or null when no thumbnail could be made. */
  thumbPath: string | null;
  /** The seed this image was rendered with, when the provider said. */
  seed?: Seed | undefined;
  /** Its position in a batch drawn from one shared seed (ComfyUI), when that is how it was made. */
  batchIndex?: number | undefined;
  /** 64-bit perceptual hash, 16 hex digits (made with the thumbnail); absent when it could not be made yet. */
  phash?: string | undefined;
}

export interface StoredImage extends NewImage {
  jobId: string;
  /** An imported original outside the data dir: `path` is absolute and the file is never Atelier's to touch. */
  linked: boolean;
}

export interface QueuedJob {
  id: string;
  provider: string;
  createdAt: number;
  request: GenerateRequest;
  /** Work a provider accepted before Atelier stopped: the job collects it there instead of sending it again. */
  remote?: StoredRemote;
}

/** A provider's handle for accepted work (electron/providers/types.ts RemoteTask) and the instance that took it. */
export interface StoredRemote {
  instance: string;
  id: string;
  data?: Record<string, string>;
}

export interface RemovedFiles {
  removed: number;
  /** Ids of the deleted jobs (the engine announces them in `jobs.removed`). */
  ids: string[];
  bytesFreed: number;
  /** Relative paths no other image references any more: the caller deletes them after the commit. */
  files: string[];
  /** Jobs that stay but lost images trashed one by one (announced in `jobs.changed`). */
  changed?: string[];
}

/** Jobs retention moves (or would move) to the trash, with their images and image bytes. */
export interface RetentionMove {
  ids: string[];
  jobs: number;
  images: number;
  bytes: number;
}

export interface TrashSummary {
  jobs: number;
  images: number;
  /** Trashed images of jobs outside the trash (trashed one by one): the trash view shows them as cards too. */
  looseImages: number;
  bytes: number;
  /** Favorites among the trashed jobs: Empty trash removes them too, the auto-empty keeps them. */
  favorites: number;
}

export interface PruneLimits {
  maxAgeMs?: number | null;
  maxJobs?: number | null;
  maxBytes?: number | null;
}

export interface StoreStats {
  byStatus: Record<JobStatus, number>;
  total: number;
  trashed: number;
  favorites: number;
  images: number;
  databaseBytes: number;
  /** Sum of image bytes recorded in the store. */
  imageBytes: number;
}

export interface StoreLimits {
  /** Queued + running jobs allowed at once; more is `overloaded`. */
  maxPendingJobs: number;
  /** Logical bytes of request/result/error JSON across the store; more is `overloaded`. */
  maxLogicalBytes: number;
  /** Result or error JSON above this is truncated to a bounded summary, not stored whole. */
  maxResultBytes: number;
}

export type SubmitOutcome = { ok: true; value: { job: JobDetail; created: boolean } } | { ok: false; error: unknown };
