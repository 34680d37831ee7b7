import {
  CORRECTABLE_FIELDS,
  type CorrectableField,
  type Corrections,
  type ImageNote,
  type ImportedMetadata,
  type JobDetail,
  type StoredRequest,
} from '../../shared/contract.js';
import { fileSettings } from '../../shared/corrections/effective.js';
import { AppError } from '../../shared/errors.js';
import { createAnnotatedSearch } from './annotated-search.js';
import type { StoreContext } from './context.js';
import { createCorrections } from './corrections.js';
import type { Access } from './guard.js';
import { createNotes } from './notes.js';

/** A job's corrections and its images' notes, as they stand. */
export interface AnnotationReads {
  corrections(jobId: string): Corrections;
  notes(jobId: string): ImageNote[];
  /** One image's note, or null (export's manifest reads it). */
  noteOf(imageId: string): string | null;
  /** The detail with its corrections and notes beside the file's own settings (jobs.get answers this). */
  annotate(detail: JobDetail): JobDetail;
}

/** Corrections and notes changed; each write keeps the job's search columns on its effective settings. */
export interface AnnotationWrites {
  /** Sets the fields given; one equal to what the file says is no correction (it is removed). */
  correct(jobId: string, set: Corrections): Corrections;
  /** Back to the file's value for the fields named, or for every field when none is named. */
  revert(jobId: string, fields?: CorrectableField[]): Corrections;
  /** Saves an image's note (empty text removes it). */
  setNote(imageId: string, text: string): { jobId: string; note: ImageNote | null };
  /**
   * Puts the corrections and notes back into the job's search columns after its request_json, metadata_json and
   * search text were rewritten from the file (a re-read): the corrections themselves never left their own table.
   */
  reindex(jobId: string): void;
}

/** Corrections beside what a file says, and a note per image (annotated-search.ts keeps search on both). */
export type AnnotationStore = AnnotationReads & AnnotationWrites;

export function createAnnotationStore(ctx: StoreContext): Access<AnnotationReads, AnnotationWrites> {
  const { sql, db } = ctx;
  const corrections = createCorrections(ctx);
  const notes = createNotes(ctx);
  const reindex = createAnnotatedSearch(ctx, corrections, notes);
  const jobOf = sql.prepare<{
    source: string;
    request_json: string;
    metadata_json: string | null;
    result: string | null;
  }>('annotations.job', 'SELECT source, request_json, metadata_json, result_json AS result FROM jobs WHERE id = ?');
  const imageJob = sql.prepare<{ job_id: string }>('annotations.imageJob', 'SELECT job_id FROM images WHERE id = ?');
  const touch = sql.prepare('annotations.touch', 'UPDATE jobs SET updated_at = max(updated_at + 1, ?) WHERE id = ?');

  function correctable(jobId: string) {
    const job = jobOf.get(jobId);
    if (job === undefined) throw new AppError('not_found', `There is no job ${jobId}.`, { details: { id: jobId } });
    if (job.source === 'atelier') {
      throw new AppError(
        'invalid_request',
        'Only an imported image can be corrected: an image made here keeps the settings it was made with.',
      );
    }
    return job;
  }

  function annotate(detail: JobDetail): JobDetail {
    const c = corrections.of(detail.id);
    const n = notes.forJob(detail.id);
    return {
      ...detail,
      ...(Object.keys(c).length > 0 && { corrections: c }),
      ...(n.length > 0 && { notes: n }),
    };
  }

  return {
    reads: {
      corrections: (jobId) => corrections.of(jobId),
      notes: (jobId) => notes.forJob(jobId),
      noteOf: (imageId) => notes.of(imageId),
      annotate,
    },
    writes: {
      correct(jobId, set) {
        return db.transaction(() => {
          const job = correctable(jobId);
          const request = JSON.parse(job.request_json) as StoredRequest;
          const metadata = job.metadata_json === null ? null : (JSON.parse(job.metadata_json) as ImportedMetadata);
          const result = job.result === null ? undefined : (JSON.parse(job.result) as { seed?: string | number });
          const file = fileSettings({ request, metadata, seed: result?.seed }) as unknown as Record<string, unknown>;
          for (const field of CORRECTABLE_FIELDS) {
            const value = set[field];
            if (value === undefined) continue;
            // Empty and absent are one negative prompt: correcting to what the file says is no correction.
            if (String(file[field] ?? '') === String(value)) corrections.remove(jobId, field);
            else corrections.set(jobId, field, value);
          }
          reindex(jobId);
          return corrections.of(jobId);
        })();
      },
      revert(jobId, fields) {
        return db.transaction(() => {
          correctable(jobId);
          for (const field of fields ?? CORRECTABLE_FIELDS) corrections.remove(jobId, field);
          reindex(jobId);
          return corrections.of(jobId);
        })();
      },
      setNote(imageId, text) {
        return db.transaction(() => {
          const image = imageJob.get(imageId);
          if (image === undefined)
            throw new AppError('not_found', `There is no image ${imageId}.`, { details: { id: imageId } });
          const note = notes.set(imageId, image.job_id, text);
          reindex(image.job_id);
          // The viewer refetches a job's detail when its updatedAt moves (a note the search text folds the same too).
          touch.run(ctx.now(), image.job_id);
          return { jobId: image.job_id, note };
        })();
      },
      reindex(jobId) {
        db.transaction(() => reindex(jobId))();
      },
    },
  };
}
