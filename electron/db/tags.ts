import type { TagCount } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import type { StoreContext } from './context.js';
import { foldForSearch } from './fold.js';

/** A tag's identity: its folded name, so `Cat`, `cat` and `ćat` are one tag (shown as first written). */
export const tagKey = (name: string): string => foldForSearch(name).trim();

export function createTags(ctx: StoreContext) {
  const { sql } = ctx;
  const byKey = sql.prepare<{ id: number; name: string }>('tags.byKey', 'SELECT id, name FROM tags WHERE key = ?');
  const insert = sql.prepare<{ id: number }>(
    'tags.insert',
    'INSERT INTO tags (name, key, created_at) VALUES (?, ?, ?) RETURNING id',
  );
  const list = sql.prepare<TagCount>(
    'tags.list',
    'SELECT name, images AS count FROM tags WHERE images > 0 ORDER BY key',
  );
  const rename = sql.prepare('tags.renameRow', 'UPDATE tags SET name = ?, key = ? WHERE id = ?');
  const move = sql.prepare<{ image_id: string }>(
    'tags.merge',
    'INSERT OR IGNORE INTO image_tags (tag_id, image_id) SELECT ?, image_id FROM image_tags WHERE tag_id = ? RETURNING image_id',
  );
  const countOf = sql.prepare<{ images: number }>('tags.count', 'SELECT images FROM tags WHERE id = ?');
  const drop = sql.prepare('tags.delete', 'DELETE FROM tags WHERE id = ?');

  return {
    /** The tag's id, made on first use. */
    ensure(name: string): number {
      const key = tagKey(name);
      return byKey.get(key)?.id ?? insert.get(name, key, ctx.now())!.id;
    },
    find(name: string): number | null {
      return byKey.get(tagKey(name))?.id ?? null;
    },
    list(): TagCount[] {
      return list.all();
    },
    /** Renames a tag; onto another tag's name it merges the two (each image keeps one of them). */
    rename: ctx.db.transaction((from: string, to: string): { updated: number; merged: boolean } => {
      const source = byKey.get(tagKey(from));
      if (source === undefined) throw new AppError('not_found', `There is no tag "${from}".`);
      const target = byKey.get(tagKey(to));
      const images = countOf.get(source.id)!.images;
      if (target === undefined || target.id === source.id) {
        rename.run(to, tagKey(to), source.id);
        return { updated: images, merged: false };
      }
      move.all(target.id, source.id);
      drop.run(source.id);
      return { updated: images, merged: true };
    }),
  };
}

export type Tags = ReturnType<typeof createTags>;
