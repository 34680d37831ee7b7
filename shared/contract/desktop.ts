/** Desktop-only touches beyond one image: a folder picked for an export, a drag-out of several files. */
import { z } from 'zod';
import { Id } from './common.js';
import { AbsolutePath } from './imports.js';

/** Most files one drag-out carries: the OS builds a list of them all at once; Export takes any number. */
export const MAX_DRAG_FILES = 500;

/** One image (the viewer) or several (a selection in the grid), each dragged as its stored original. */
export const StartDrag = z
  .strictObject({
    imageId: Id.optional(),
    imageIds: z
      .array(Id)
      .min(1, 'Drag at least one image.')
      .max(MAX_DRAG_FILES, `Drag at most ${MAX_DRAG_FILES} images at once; export more.`)
      .optional(),
  })
  .refine((v) => (v.imageId === undefined) !== (v.imageIds === undefined), {
    message: 'Drag either imageId or imageIds, not both.',
    path: ['imageIds'],
  });
export type StartDrag = z.infer<typeof StartDrag>;

/** Files carried by the drag: originals still missing from disk are left out of it. */
export const StartedDrag = z.object({ files: z.number().int().min(1), skipped: z.number().int().min(0) });

/** The chosen folder, or null when the person closed the picker. */
export const PickedFolder = z.object({ path: AbsolutePath.nullable() });

/** Paths a drop in the window carries; main matches them against its own last drag-out, never against the disk. */
export const DroppedPaths = z.strictObject({
  paths: z
    .array(z.string().max(4_096, 'A path is at most 4,096 characters.'))
    .max(MAX_DRAG_FILES, `At most ${MAX_DRAG_FILES} dropped files are matched at once.`),
});

/** The dropped paths that are originals this window dragged out, with their image ids. */
export const DroppedImages = z.object({ images: z.array(z.object({ path: z.string(), imageId: Id })) });
