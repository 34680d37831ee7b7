import Database from 'better-sqlite3';
import { AppError } from '../../../shared/errors.js';

export const DATABASE_FILE = 'atelier.db';

type Open = (path: string, readonly: boolean) => Database.Database;

export const openerFor =
  (nativeBinding?: string): Open =>
  (path, readonly) =>
    new Database(path, { readonly, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });

/** A consistent copy of the (closed) database through SQLite's backup API, which reads through the WAL. */
export async function copyDatabase(
  source: string,
  target: string,
  open: Open,
  onPages?: (done: number, total: number) => void,
): Promise<void> {
  const db = open(source, true);
  try {
    await db.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        onPages?.(totalPages - remainingPages, totalPages);
        return 256;
      },
    });
  } finally {
    db.close();
  }
}

/** Every table's row count and the schema version: equal on both sides, or the copy is not the library. */
function fingerprint(db: Database.Database): Record<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    .pluck()
    .all() as string[];
  const counts: Record<string, number> = { user_version: db.pragma('user_version', { simple: true }) as number };
  for (const name of tables)
    counts[name] = db
      .prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`)
      .pluck()
      .get() as number;
  return counts;
}

/** `PRAGMA integrity_check` on the copy, and the same rows per table as the source. */
export function verifyDatabase(source: string, target: string, open: Open): void {
  const copy = open(target, true);
  let copied: Record<string, number>;
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') {
      throw new AppError('storage', `The copied database failed its integrity check (${String(result)}).`, {
        details: { reason: 'verify_database' },
      });
    }
    copied = fingerprint(copy);
  } finally {
    copy.close();
  }
  const original = open(source, true);
  let expected: Record<string, number>;
  try {
    expected = fingerprint(original);
  } finally {
    original.close();
  }
  const differs = Object.keys({ ...expected, ...copied }).filter((key) => expected[key] !== copied[key]);
  if (differs.length > 0) {
    throw new AppError(
      'storage',
      `The copied database differs from the library's (${differs.slice(0, 3).join(', ')}).`,
      {
        details: { reason: 'verify_database', tables: differs },
      },
    );
  }
}
