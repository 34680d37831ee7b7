/** Where the library lives, and moving it to another folder or drive: the host answers these, not the engine. */
import { z } from 'zod';
import { AbsolutePath } from './imports.js';

const count = z.number().int().min(0);

export const MOVE_STATES = ['copying', 'verifying', 'switching', 'done', 'failed', 'cancelled'] as const;

/** One move: what it copies, how far it is, and how it ended. */
export const MoveStatus = z.object({
  id: z.string(),
  state: z.enum(MOVE_STATES),
  from: z.string(),
  to: z.string(),
  filesDone: count,
  filesTotal: count,
  bytesDone: count,
  bytesTotal: count,
  /** Why it failed, in words (the old library stays in use). */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Headless host started with --data-dir: the path to give it next time (it is not remembered for you). */
  nextStart: z.string().optional(),
});
export type MoveStatus = z.infer<typeof MoveStatus>;

/** The copy left behind after a move: only its verified files are offered for deletion, and by count. */
export const OldCopy = z.object({ path: z.string(), files: count, bytes: count });
export type OldCopy = z.infer<typeof OldCopy>;

export const LibraryLocation = z.object({
  /** ready: the library is open; moving: closed while it is copied; unavailable: the remembered folder is not there. */
  state: z.enum(['ready', 'moving', 'unavailable']),
  /** The folder in use, or the one that is missing while unavailable. */
  dataDir: z.string(),
  /** Where a new library would start (the default folder on this computer). */
  defaultDir: z.string(),
  /** Where the choice is remembered (null: the headless host was given --data-dir, so nothing is remembered). */
  pointerFile: z.string().nullable(),
  move: MoveStatus.nullable(),
  oldCopy: OldCopy.nullable(),
});
export type LibraryLocation = z.infer<typeof LibraryLocation>;

export const StartMove = z.strictObject({ target: AbsolutePath });

/** The counts the person confirmed: they must equal the old copy's, so nothing is deleted on a stale number. */
export const DeleteOldCopy = z.strictObject({ files: count, bytes: count });
export const DeletedOldCopy = z.object({ deletedFiles: count, deletedBytes: count, keptFiles: count });

/** Pick another folder that holds a library (open), or start a new one in the default folder (new). */
export const UseLocation = z.strictObject({ mode: z.enum(['open', 'new']), path: AbsolutePath.optional() });
