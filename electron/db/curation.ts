import { TERMINAL_STATUSES, type MatchQuery } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { StoreContext } from './context.js';
import type { CompiledQuery } from './query/compile.js';
import { matchWhere } from './query/match.js';
import type { Tags } from './tags.js';

/** The images an action covers: picked by id, or every image a query matches now. */
export type ImageTarget = { ids: string[] } | { query: MatchQuery };

export interface Curated {
  updated: number;
  undoId: string | null;
  /** Jobs whose images changed (the engine announces them). */
  jobs: string[];
  /** The images it changed (their XMP sidecars follow). */
  images: string[];
}

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
const IDS = 'SELECT value FROM json_each(?)';
/** Undo is for the last few actions of this session: an undo from yesterday would surprise more than help. */
const UNDO_KEPT = 50;

/**
 * Per-image curation in one transaction each, with one undo per action (the exact previous values of every image it
 * changed, so undoing "rate 12,408 results 5" puts back each image's own rating).
 */
export function createCuration(
  ctx: StoreContext,
  tags: Tags,
  compile: (search: string | undefined) => CompiledQuery | undefined,
) {
  const { sql, db } = ctx;
  const undos = new Map<string, { undo: () => void; jobs: string[]; images: string[] }>();

  const existing = sql.prepare<{ id: string; job_id: string }>(
    'curation.existing',
    `SELECT id, job_id FROM images WHERE id IN (${IDS})`,
  );
  const jobsOf = sql.prepare<{ job_id: string }>(
    'curation.jobsOf',
    `SELECT DISTINCT job_id FROM images WHERE id IN (${IDS})`,
  );
  const ratings = sql.prepare<{ id: string; rating: number }>(
    'curation.ratings',
    `SELECT id, rating FROM images WHERE id IN (${IDS}) AND rating <> ?`,
  );
  const setRating = sql.prepare('curation.setRating', `UPDATE images SET rating = ? WHERE id IN (${IDS})`);
  const favorites = sql.prepare<{ id: string }>(
    'curation.favorites',
    `SELECT id FROM images WHERE id IN (${IDS}) AND favorite <> ?`,
  );
  const setFavorite = sql.prepare('curation.setFavorite', `UPDATE images SET favorite = ? WHERE id IN (${IDS})`);
  const rejects = sql.prepare<{ id: string }>(
    'curation.rejects',
    `SELECT id FROM images WHERE id IN (${IDS}) AND rejected <> ?`,
  );
  const setRejected = sql.prepare('curation.setRejected', `UPDATE images SET rejected = ? WHERE id IN (${IDS})`);
  const trashable = sql.prepare<{ id: string }>(
    'curation.trashable',
    `SELECT i.id FROM images AS i JOIN jobs AS j ON j.id = i.job_id WHERE i.id IN (${IDS}) AND i.trashed_at IS NULL AND j.trashed_at IS NULL`,
  );
  const setTrashed = sql.prepare('curation.setTrashed', `UPDATE images SET trashed_at = ? WHERE id IN (${IDS})`);
  // A job whose every image is now in the trash goes there too, so the job-level views and Empty trash agree.
  const trashEmptiedJobs = sql.prepare<{ id: string }>(
    'curation.trashEmptiedJobs',
    `UPDATE jobs SET trashed_at = ?, updated_at = ? WHERE id IN (SELECT DISTINCT job_id FROM images WHERE id IN (${IDS}))
       AND trashed_at IS NULL AND status IN (${TERMINAL_SQL})
       AND NOT EXISTS (SELECT 1 FROM images AS x WHERE x.job_id = jobs.id AND x.trashed_at IS NULL) RETURNING id`,
  );
  const setJobTrashed = sql.prepare(
    'curation.setJobTrashed',
    `UPDATE jobs SET trashed_at = ?, updated_at = ? WHERE id IN (${IDS})`,
  );
  const restorable = sql.prepare<{
    id: string;
    trashed_at: number | null;
    job_id: string;
    job_trashed_at: number | null;
  }>(
    'curation.restorable',
    `SELECT i.id, i.trashed_at, i.job_id, j.trashed_at AS job_trashed_at FROM images AS i JOIN jobs AS j ON j.id = i.job_id
     WHERE i.id IN (${IDS}) AND (i.trashed_at IS NOT NULL OR j.trashed_at IS NOT NULL)`,
  );
  // Restoring one image of a job trashed whole: its siblings stay in the trash, each on its own.
  const siblingsToKeep = sql.prepare<{ id: string }>(
    'curation.siblings',
    `UPDATE images SET trashed_at = ? WHERE job_id = ? AND trashed_at IS NULL AND id NOT IN (${IDS}) RETURNING id`,
  );
  const restoreOne = sql.prepare('curation.restoreOne', 'UPDATE images SET trashed_at = ? WHERE id = ?');
  const jobTrashedOne = sql.prepare(
    'curation.jobTrashedOne',
    'UPDATE jobs SET trashed_at = ?, updated_at = ? WHERE id = ?',
  );
  const addTag = sql.prepare<{ image_id: string }>(
    'curation.addTag',
    `INSERT OR IGNORE INTO image_tags (tag_id, image_id) SELECT ?, value FROM json_each(?) RETURNING image_id`,
  );
  const removeTag = sql.prepare<{ image_id: string }>(
    'curation.removeTag',
    `DELETE FROM image_tags WHERE tag_id = ? AND image_id IN (${IDS}) RETURNING image_id`,
  );
  const addBoard = sql.prepare<{ image_id: string }>(
    'curation.addBoard',
    `INSERT OR IGNORE INTO board_images (board_id, image_id, added_at) SELECT ?, value, ? FROM json_each(?) RETURNING image_id`,
  );
  const removeBoard = sql.prepare<{ image_id: string }>(
    'curation.removeBoard',
    `DELETE FROM board_images WHERE board_id = ? AND image_id IN (${IDS}) RETURNING image_id`,
  );

  // A curated job is a changed job: clients that keep the newest summary by updatedAt take the new one.
  const touchJobs = sql.prepare(
    'curation.touchJobs',
    `UPDATE jobs SET updated_at = max(updated_at + 1, ?) WHERE id IN (${IDS})`,
  );

  /** Image ids the target covers now (ids that no longer exist are left out). */
  function resolve(target: ImageTarget): string[] {
    if ('ids' in target) return existing.all(JSON.stringify([...new Set(target.ids)])).map((r) => r.id);
    const { where, params } = matchWhere(target.query, compile(target.query.search), 'images');
    const text = `SELECT i.id FROM jobs AS j JOIN images AS i ON i.job_id = j.id ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
    return sql
      .cached<{ id: string }>('curation.resolve', `resolve|${text}`, () => text)
      .all(...params)
      .map((r) => r.id);
  }

  const jobsFor = (ids: string[]): string[] =>
    ids.length === 0 ? [] : jobsOf.all(JSON.stringify(ids)).map((r) => r.job_id);

  function remember(entry: { undo: () => void; jobs: string[]; images: string[] }): string {
    const id = uuidv7(ctx.now());
    if (undos.size >= UNDO_KEPT) undos.delete(undos.keys().next().value!);
    undos.set(id, entry);
    return id;
  }

  /** Runs one action in a transaction; `act` returns the images it changed and how to put them back. */
  function run(
    name: string,
    target: ImageTarget,
    act: (ids: string[]) => { changed: string[]; undo: () => void },
  ): Curated {
    return sql.time(`curation.${name}`, () =>
      db
        .transaction((): Curated => {
          const ids = resolve(target);
          if (ids.length === 0) return { updated: 0, undoId: null, jobs: [], images: [] };
          const { changed, undo } = act(ids);
          if (changed.length === 0) return { updated: 0, undoId: null, jobs: [], images: [] };
          const jobs = jobsFor(changed);
          touchJobs.run(ctx.now(), JSON.stringify(jobs));
          const undoId = remember({ undo, jobs, images: changed });
          return { updated: changed.length, undoId, jobs, images: changed };
        })
        .immediate(),
    );
  }

  /** Same-valued rows in one UPDATE each: a bulk undo is a handful of statements, not one per image. */
  function restoreValues<V>(rows: Array<{ id: string; value: V }>, apply: (value: V, idsJson: string) => void): void {
    const byValue = new Map<V, string[]>();
    for (const { id, value } of rows) {
      const list = byValue.get(value);
      if (list === undefined) byValue.set(value, [id]);
      else list.push(id);
    }
    for (const [value, ids] of byValue) apply(value, JSON.stringify(ids));
  }

  return {
    resolve,
    setRating(target: ImageTarget, rating: number): Curated {
      return run('setRating', target, (ids) => {
        const before = ratings.all(JSON.stringify(ids), rating);
        const changed = before.map((r) => r.id);
        setRating.run(rating, JSON.stringify(changed));
        return {
          changed,
          undo: () =>
            restoreValues(
              before.map((r) => ({ id: r.id, value: r.rating })),
              (v, json) => setRating.run(v, json),
            ),
        };
      });
    },
    setFavorite(target: ImageTarget, favorite: boolean): Curated {
      return run('setFavorite', target, (ids) => {
        const changed = favorites.all(JSON.stringify(ids), favorite ? 1 : 0).map((r) => r.id);
        const json = JSON.stringify(changed);
        setFavorite.run(favorite ? 1 : 0, json);
        return { changed, undo: () => setFavorite.run(favorite ? 0 : 1, json) };
      });
    },
    setRejected(target: ImageTarget, rejected: boolean): Curated {
      return run('setRejected', target, (ids) => {
        const changed = rejects.all(JSON.stringify(ids), rejected ? 1 : 0).map((r) => r.id);
        const json = JSON.stringify(changed);
        setRejected.run(rejected ? 1 : 0, json);
        return { changed, undo: () => setRejected.run(rejected ? 0 : 1, json) };
      });
    },
    trash(target: ImageTarget): Curated {
      return run('trash', target, (ids) => {
        const now = ctx.now();
        const changed = trashable.all(JSON.stringify(ids)).map((r) => r.id);
        const json = JSON.stringify(changed);
        setTrashed.run(now, json);
        const jobs = trashEmptiedJobs.all(now, now, json).map((r) => r.id);
        return {
          changed,
          undo: () => {
            setJobTrashed.run(null, ctx.now(), JSON.stringify(jobs));
            setTrashed.run(null, json);
          },
        };
      });
    },
    restore(target: ImageTarget): Curated {
      return run('restore', target, (ids) => {
        const rows = restorable.all(JSON.stringify(ids));
        const idsJson = JSON.stringify(rows.map((r) => r.id));
        const reopened = new Map<string, number>();
        const kept: string[] = [];
        for (const row of rows) {
          if (row.job_trashed_at === null || reopened.has(row.job_id)) continue;
          reopened.set(row.job_id, row.job_trashed_at);
          kept.push(...siblingsToKeep.all(row.job_trashed_at, row.job_id, idsJson).map((r) => r.id));
          jobTrashedOne.run(null, ctx.now(), row.job_id);
        }
        setTrashed.run(null, idsJson);
        return {
          changed: rows.map((r) => r.id),
          undo: () => {
            for (const row of rows) restoreOne.run(row.trashed_at, row.id);
            setTrashed.run(null, JSON.stringify(kept));
            for (const [job, at] of reopened) jobTrashedOne.run(at, ctx.now(), job);
          },
        };
      });
    },
    tag(target: ImageTarget, add: string[], remove: string[]): Curated {
      return run('tag', target, (ids) => {
        const json = JSON.stringify(ids);
        const added: Array<[number, string[]]> = [];
        const removed: Array<[number, string[]]> = [];
        for (const name of add) {
          const tag = tags.ensure(name);
          added.push([tag, addTag.all(tag, json).map((r) => r.image_id)]);
        }
        for (const name of remove) {
          const tag = tags.find(name);
          if (tag !== null) removed.push([tag, removeTag.all(tag, json).map((r) => r.image_id)]);
        }
        const changed = [...new Set([...added, ...removed].flatMap(([, images]) => images))];
        return {
          changed,
          undo: () => {
            for (const [tag, images] of added) removeTag.all(tag, JSON.stringify(images));
            for (const [tag, images] of removed) addTag.all(tag, JSON.stringify(images));
          },
        };
      });
    },
    boardAdd(boardId: string, target: ImageTarget): Curated {
      return run('boardAdd', target, (ids) => {
        const changed = addBoard.all(boardId, ctx.now(), JSON.stringify(ids)).map((r) => r.image_id);
        return { changed, undo: () => removeBoard.all(boardId, JSON.stringify(changed)) };
      });
    },
    boardRemove(boardId: string, target: ImageTarget): Curated {
      return run('boardRemove', target, (ids) => {
        const changed = removeBoard.all(boardId, JSON.stringify(ids)).map((r) => r.image_id);
        return { changed, undo: () => addBoard.all(boardId, ctx.now(), JSON.stringify(changed)) };
      });
    },
    /** Puts back what one action changed, once. */
    undo(undoId: string): { updated: number; jobs: string[]; images: string[] } {
      const entry = undos.get(undoId);
      if (entry === undefined)
        throw new AppError(
          'not_found',
          'That action can no longer be undone (it was undone already, or too long ago).',
        );
      undos.delete(undoId);
      sql.time('curation.undo', () =>
        db
          .transaction(() => {
            entry.undo();
            touchJobs.run(ctx.now(), JSON.stringify(entry.jobs));
          })
          .immediate(),
      );
      return { updated: entry.images.length, jobs: entry.jobs, images: entry.images };
    },
  };
}

export type Curation = ReturnType<typeof createCuration>;
