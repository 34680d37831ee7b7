import type { StoreContext } from './context.js';
import type { Access } from './guard.js';

/** The notes read back: every entry's note by its key (the library shows each beside its entry). */
export interface ModelNoteReads {
  /** Every note, by entry key. */
  notes(): Map<string, string>;
}

export interface ModelNoteWrites {
  /** Saves the note of one entry; empty text removes it. The note as kept ('' once removed). */
  setNote(key: string, note: string): string;
}

/** A person's free note per model library entry (model_notes, migration 0025). */
export function createModelNotes(ctx: StoreContext): Access<ModelNoteReads, ModelNoteWrites> {
  const { sql } = ctx;
  const all = sql.prepare<{ key: string; note: string }>('modelNotes.all', 'SELECT key, note FROM model_notes');
  const upsert = sql.prepare(
    'modelNotes.upsert',
    `INSERT INTO model_notes (key, note, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET note = excluded.note, updated_at = excluded.updated_at`,
  );
  const remove = sql.prepare('modelNotes.remove', 'DELETE FROM model_notes WHERE key = ?');
  return {
    reads: {
      notes: () => new Map(all.all().map((r) => [r.key, r.note])),
    },
    writes: {
      setNote(key, note) {
        const text = note.trim();
        if (text.length === 0) {
          remove.run(key);
          return '';
        }
        upsert.run(key, text, ctx.now());
        return text;
      },
    },
  };
}
