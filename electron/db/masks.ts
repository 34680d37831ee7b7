/** Masks painted in the viewer (migration 13): Atelier's own small PNGs under masks/, one row each. */
import type { StoreContext } from './context.js';
import type { Access } from './guard.js';

export interface MaskRow {
  id: string;
  imageId: string;
  /** Relative to the data dir: masks/ab/<id>.png */
  path: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: number;
}

/** A mask as painted. */
export interface MaskReads {
  get(id: string): MaskRow | null;
}

/** A mask recorded (guarded as a write). */
export interface MaskWrites {
  insert(mask: MaskRow): void;
}

export type MaskStore = MaskReads & MaskWrites;

interface Row {
  id: string;
  image_id: string;
  path: string;
  width: number;
  height: number;
  bytes: number;
  created_at: number;
}

export function createMasks(ctx: StoreContext): Access<MaskReads, MaskWrites> {
  const insert = ctx.sql.prepare(
    'masks.insert',
    'INSERT INTO masks (id, image_id, path, width, height, bytes, created_at) VALUES (@id, @imageId, @path, @width, @height, @bytes, @createdAt)',
  );
  const byId = ctx.sql.prepare<Row>('masks.get', 'SELECT * FROM masks WHERE id = ?');
  return {
    reads: {
      get: (id) => {
        const row = byId.get(id);
        if (row === undefined) return null;
        return {
          id: row.id,
          imageId: row.image_id,
          path: row.path,
          width: row.width,
          height: row.height,
          bytes: row.bytes,
          createdAt: row.created_at,
        };
      },
    },
    writes: {
      insert: (mask) => {
        insert.run(mask);
      },
    },
  };
}
