import type { StoreContext } from './context.js';

export interface SidecarTarget {
  /** Where the linked original is now (its first location still found). */
  original: string;
  rating: number;
  tags: string[];
  /** The person's note on the image; empty when none. */
  note: string;
}

/** What the XMP sidecar writer reads and records: linked images' curation, and the sidecars Atelier wrote. */
export function createXmpSidecars(ctx: StoreContext) {
  const { sql } = ctx;
  const image = sql.prepare<{ rating: number; path: string; note: string | null }>(
    'xmp.target',
    `SELECT i.rating, l.path, (SELECT n.text FROM image_notes AS n WHERE n.image_id = i.id) AS note
     FROM images AS i JOIN image_locations AS l ON l.image_id = i.id
     WHERE i.id = ? AND i.linked = 1 ORDER BY l.missing_at IS NOT NULL, l.path LIMIT 1`,
  );
  const tags = sql.prepare<{ name: string }>(
    'xmp.tags',
    'SELECT t.name FROM image_tags AS it JOIN tags AS t ON t.id = it.tag_id WHERE it.image_id = ? ORDER BY t.key',
  );
  const written = sql.prepare<{ sha256: string }>('xmp.written', 'SELECT sha256 FROM xmp_sidecars WHERE path = ?');
  const record = sql.prepare(
    'xmp.record',
    `INSERT INTO xmp_sidecars (path, image_id, sha256, written_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET image_id = excluded.image_id, sha256 = excluded.sha256, written_at = excluded.written_at`,
  );
  return {
    reads: {
      target(imageId: string): SidecarTarget | null {
        const row = image.get(imageId);
        if (row === undefined) return null;
        return {
          original: row.path,
          rating: row.rating,
          tags: tags.all(imageId).map((t) => t.name),
          note: row.note ?? '',
        };
      },
      written: (path: string): string | null => written.get(path)?.sha256 ?? null,
    },
    writes: {
      record(path: string, imageId: string, sha256: string): void {
        record.run(path, imageId, sha256, ctx.now());
      },
    },
  };
}

export type XmpSidecarReads = ReturnType<typeof createXmpSidecars>['reads'];
export type XmpSidecarWrites = ReturnType<typeof createXmpSidecars>['writes'];
export type XmpSidecarStore = XmpSidecarReads & XmpSidecarWrites;
