/** Per-image curation: ratings, favourites, trash, tags and boards, for a selection or a whole query. */
import { z } from 'zod';
import { CONTROL_CHARS, Id, int } from './common.js';
import { ListQuery } from './jobs.js';

export const ImageIds = z.array(Id).min(1, 'Select at least one image.').max(10_000, 'At most 10,000 images at once.');

/** Which history a bulk action covers: the list's filters and search, without its page. */
export const MatchQuery = ListQuery.pick({
  view: true,
  status: true,
  favorite: true,
  provider: true,
  source: true,
  search: true,
});
export type MatchQuery = z.infer<typeof MatchQuery>;

/** Images picked one by one, or every image matching a query ("tag all 12,408 results"). */
const targetShape = { ids: ImageIds.optional(), query: MatchQuery.optional() };
const oneTarget = (value: { ids?: unknown; query?: unknown }) =>
  (value.ids === undefined) !== (value.query === undefined);
const TARGET_MESSAGE = 'Send either ids (the selected images) or query (every image it matches), not both.';

function targeted<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...targetShape, ...shape }).refine(oneTarget, { message: TARGET_MESSAGE, path: ['ids'] });
}

const label = (what: string) =>
  z
    .string()
    .transform((s) => s.trim().replace(/\s+/gu, ' '))
    .pipe(
      z
        .string()
        .min(1, `A ${what} name cannot be empty.`)
        .max(64, `A ${what} name is at most 64 characters.`)
        .refine((s) => !CONTROL_CHARS.test(s), `A ${what} name cannot contain control characters.`),
    );
export const TagName = label('tag');
export const BoardName = label('board');

export const SetRating = targeted({ rating: int('Rating', 0, 5) });
export const SetImageFavorite = targeted({ favorite: z.boolean() });
export const SetImageRejected = targeted({ rejected: z.boolean() });
export const ImageTarget = targeted({});
export const TagImages = targeted({
  add: z.array(TagName).max(32, 'At most 32 tags at once.').optional(),
  remove: z.array(TagName).max(32, 'At most 32 tags at once.').optional(),
}).refine((v) => (v.add?.length ?? 0) + (v.remove?.length ?? 0) > 0, {
  message: 'Name a tag to add or remove.',
  path: ['add'],
});

/** What a curation action changed, and the token that undoes it (null when it changed nothing). */
export const CurationResult = z.object({ updated: z.number().int(), undoId: z.string().nullable() });
export type CurationResult = z.infer<typeof CurationResult>;
export const UndoRequest = z.strictObject({ undoId: z.string().min(1).max(64) });

export const TagCount = z.object({ name: z.string(), count: z.number().int() });
export type TagCount = z.infer<typeof TagCount>;
export const RenameTag = z.strictObject({ from: TagName, to: TagName });
export const RenamedTag = z.object({ updated: z.number().int(), merged: z.boolean() });

export const Board = z.object({
  id: Id,
  name: z.string(),
  /** A smart board's saved query: its images are whatever matches now. */
  query: z.string().optional(),
  /** Images on the board (a smart board: images matching its query now, outside the trash). */
  count: z.number().int(),
  createdAt: z.number().int(),
});
export type Board = z.infer<typeof Board>;
export const CreateBoard = z.strictObject({
  name: BoardName,
  query: z
    .string()
    .min(1, 'A smart board needs a query.')
    .max(1_000, 'A search is at most 1,000 characters.')
    .optional(),
});
export const RenameBoard = z.strictObject({ id: Id, name: BoardName });
export const BoardImages = z
  .strictObject({ boardId: Id, ...targetShape })
  .refine(oneTarget, { message: TARGET_MESSAGE, path: ['ids'] });

/** Counts that follow the current query: the tabs and filters show how many match now. */
export const CountQuery = MatchQuery.omit({ view: true });
export type CountQuery = z.infer<typeof CountQuery>;
export const MatchCounts = z.object({
  /** Images outside the trash that match (a job counts as its images, as the tabs, the selection and export count). */
  active: z.number().int(),
  /** Favourite images outside the trash that match. */
  favorites: z.number().int(),
  /** Images in the trash that match: a job trashed whole with all its images, and single images trashed alone. */
  trash: z.number().int(),
  /** Images that match, outside the trash: what a bulk action on "all matches" covers (the same as `active`). */
  images: z.number().int(),
  /** Counts that stopped at COUNT_CAP (shown as "25,000+"): counting every match of a broad query would hold the engine. */
  capped: z.array(z.enum(['active', 'favorites', 'trash', 'images'])),
});
export const COUNT_CAP = 25_000;
export type MatchCounts = z.infer<typeof MatchCounts>;
