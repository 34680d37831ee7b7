import type { Board } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { StoreContext } from './context.js';
import { foldForSearch } from './fold.js';

interface BoardRow {
  id: string;
  name: string;
  query: string | null;
  images: number;
  created_at: number;
}

export const boardKey = (name: string): string => foldForSearch(name).trim();

/**
 * Boards: named sets of images (many per image), or saved queries whose images are whatever matches now. `check`
 * compiles a smart board's query and a search naming it as the library stands (throws invalid_request when it
 * cannot be read, names itself, nests too deep or fills in too large).
 */
export function createBoards(
  ctx: StoreContext,
  countQuery: (query: string) => number,
  check: (query: string, name: string) => void,
) {
  const { sql } = ctx;
  const all = sql.prepare<BoardRow>(
    'boards.list',
    'SELECT id, name, query, images, created_at FROM boards ORDER BY key',
  );
  const byId = sql.prepare<BoardRow>(
    'boards.get',
    'SELECT id, name, query, images, created_at FROM boards WHERE id = ?',
  );
  const byKey = sql.prepare<{ id: string }>('boards.byKey', 'SELECT id FROM boards WHERE key = ?');
  const insert = sql.prepare(
    'boards.insert',
    'INSERT INTO boards (id, name, key, query, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const rename = sql.prepare('boards.rename', 'UPDATE boards SET name = ?, key = ? WHERE id = ?');
  const drop = sql.prepare('boards.delete', 'DELETE FROM boards WHERE id = ?');
  const smart = sql.prepare<{ id: string; name: string; query: string }>(
    'boards.smart',
    'SELECT id, name, query FROM boards WHERE query IS NOT NULL',
  );

  const toBoard = (row: BoardRow): Board => ({
    id: row.id,
    name: row.name,
    ...(row.query !== null && { query: row.query }),
    count: row.query === null ? row.images : countQuery(row.query),
    createdAt: row.created_at,
  });
  const taken = (name: string, except?: string) => {
    const other = byKey.get(boardKey(name));
    if (other !== undefined && other.id !== except)
      throw new AppError('conflict', `There is already a board called "${name}".`);
  };
  /** Smart boards whose saved query cannot be compiled now (stored before these checks): a change is not blamed for them. */
  const failing = (): Set<string> => {
    const out = new Set<string>();
    for (const row of smart.all()) {
      try {
        check(row.query, row.name);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
        out.add(row.id);
      }
    }
    return out;
  };
  /** Makes a change only if every smart board that could be shown before still can (none newly names itself, nests or fills in too far). */
  const keepingEveryBoard = (id: string, change: () => void): void => {
    const before = failing();
    ctx.db.transaction(() => {
      change();
      // The board changed first, so the refusal speaks of it when it is the one at fault.
      const changed = get(id);
      check(changed.query!, changed.name);
      for (const other of smart.all()) if (other.id !== id && !before.has(other.id)) check(other.query, other.name);
    })();
  };
  const get = (id: string): BoardRow => {
    const row = byId.get(id);
    if (row === undefined) throw new AppError('not_found', 'There is no board with that id.');
    return row;
  };

  return {
    list: (): Board[] => all.all().map(toBoard),
    get: (id: string): BoardRow => get(id),
    create(name: string, query: string | undefined): Board {
      taken(name);
      const id = uuidv7(ctx.now());
      // Checked with the board in place: only then does a query that names the board itself fill it in, and boards
      // that already name it fill it in too.
      const add = () => insert.run(id, name, boardKey(name), query ?? null, ctx.now());
      if (query === undefined) add();
      else keepingEveryBoard(id, add);
      return toBoard(get(id));
    },
    rename(id: string, name: string): Board {
      const row = get(id);
      taken(name, id);
      if (row.query === null) {
        rename.run(name, boardKey(name), id);
        return toBoard(get(id));
      }
      // A smart board under a new name fills in wherever that name is named.
      keepingEveryBoard(id, () => rename.run(name, boardKey(name), id));
      return toBoard(get(id));
    },
    /** Deletes the board, never its images. */
    delete(id: string): number {
      get(id);
      return drop.run(id).changes;
    },
  };
}

export type Boards = ReturnType<typeof createBoards>;
