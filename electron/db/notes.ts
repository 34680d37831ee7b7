import type { ImageNote } from '../../shared/contract.js';
import type { StoreContext } from './context.js';
import { foldForSearch } from './fold.js';

/** The rows of image_notes (migration 0015): one free-text note per image, with its folded form for note:. */
export function createNotes(ctx: StoreContext) {
  const { sql } = ctx;
  const forJob = sql.prepare<{ image_id: string; text: string; updated_at: number }>(
    'notes.forJob',
    'SELECT image_id, text, updated_at FROM image_notes WHERE job_id = ? ORDER BY image_id',
  );
  const foldedForJob = sql.prepare<{ folded: string }>(
    'notes.foldedForJob',
    'SELECT folded FROM image_notes WHERE job_id = ? ORDER BY image_id',
  );
  const upsert = sql.prepare(
    'notes.upsert',
    `INSERT INTO image_notes (image_id, job_id, text, folded, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (image_id) DO UPDATE SET text = excluded.text, folded = excluded.folded, updated_at = excluded.updated_at`,
  );
  const remove = sql.prepare('notes.remove', 'DELETE FROM image_notes WHERE image_id = ?');
  const one = sql.prepare<{ text: string }>('notes.of', 'SELECT text FROM image_notes WHERE image_id = ?');

  return {
    of: (imageId: string): string | null => one.get(imageId)?.text ?? null,
    forJob(jobId: string): ImageNote[] {
      return forJob.all(jobId).map((r) => ({ imageId: r.image_id, text: r.text, updatedAt: r.updated_at }));
    },
    /** The job's notes as one folded text (its search text's last lines). */
    foldedForJob(jobId: string): string {
      return foldedForJob
        .all(jobId)
        .map((r) => r.folded)
        .join('\n');
    },
    /** Saves the note (empty text removes it); the note as saved, or null once removed. */
    set(imageId: string, jobId: string, text: string): ImageNote | null {
      if (text.length === 0) {
        remove.run(imageId);
        return null;
      }
      const at = ctx.now();
      upsert.run(imageId, jobId, text, foldForSearch(text), at);
      return { imageId, text, updatedAt: at };
    },
  };
}

export type NoteRows = ReturnType<typeof createNotes>;
