import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../../shared/errors.js';
import type { Db } from '../connection.js';
import { LATEST_VERSION, MIGRATIONS } from './index.js';
import type { Migration } from './types.js';

export interface MigrationOutcome {
  /** Schema version found on open (0 for a new database). */
  from: number;
  to: number;
  /** Copy taken before migrating an existing database, relative to the data dir. */
  backupPath: string | null;
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** The schema version on disk: the higher of user_version and the recorded migrations (either may be ahead). */
export function schemaVersion(db: Db): number {
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  if (!hasTable(db, 'schema_migrations')) return userVersion;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return Math.max(userVersion, row.v ?? 0);
}

function isEmpty(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' LIMIT 1").get() === undefined;
}

function backupName(version: number, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `atelier-v${version}-${stamp}.db`;
}

/**
 * Brings the schema to LATEST_VERSION: refuses a newer database, copies an existing one to backups/ first, then
 * applies every pending migration in one transaction and records each (version, name, applied_at).
 */
export function migrate(
  db: Db,
  dataDir: string,
  now: () => number,
  migrations: readonly Migration[] = MIGRATIONS,
): MigrationOutcome {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
  const from = schemaVersion(db);
  if (from > latest) {
    throw new AppError(
      'storage',
      `This library was written by a newer version of Atelier (schema version ${from}; this version knows up to ` +
        `${latest}). Update Atelier to open it; nothing was changed.`,
      { details: { schemaVersion: from, supportedVersion: latest, reason: 'newer_schema' } },
    );
  }
  const pending = migrations.filter((m) => m.version > from);
  if (pending.length === 0) return { from, to: from, backupPath: null };

  let backupPath: string | null = null;
  if (!isEmpty(db)) {
    mkdirSync(join(dataDir, 'backups'), { recursive: true });
    backupPath = join('backups', backupName(from, now()));
    // VACUUM INTO writes a consistent, compact copy synchronously (db.backup is async in better-sqlite3).
    db.prepare('VACUUM INTO ?').run(join(dataDir, backupPath));
  }

  const apply = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of pending) {
      migration.up(db);
      record.run(migration.version, migration.name, now());
    }
    db.pragma(`user_version = ${pending[pending.length - 1]!.version}`);
  });
  try {
    apply.immediate();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'storage',
      `Atelier could not upgrade its library (from schema version ${from}); nothing was changed` +
        (backupPath === null ? '.' : ` and a copy is in ${backupPath}.`),
      { cause: error, details: { schemaVersion: from } },
    );
  }
  return { from, to: pending[pending.length - 1]!.version, backupPath };
}

export { LATEST_VERSION };
