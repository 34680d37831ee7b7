import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupDatabase, newestBackup } from '../../../electron/db/backups.js';
import { tempDir } from './helpers.js';

function bigDatabase(dir: string): Database.Database {
  const db = new Database(join(dir, 'atelier.db'));
  db.exec('CREATE TABLE t (x BLOB)');
  const insert = db.prepare('INSERT INTO t VALUES (randomblob(4000))');
  db.transaction(() => {
    for (let i = 0; i < 2_000; i += 1) insert.run();
  })();
  return db;
}

describe('backups', () => {
  it('a backup that overruns its time is abandoned: no partial file, the earlier copies stay', async () => {
    const dir = tempDir();
    const db = bigDatabase(dir);
    try {
      const first = await backupDatabase(db, dir, Date.UTC(2026, 0, 1));
      // No time at all: the copy stops after its first step instead of holding the quit.
      await expect(backupDatabase(db, dir, Date.UTC(2026, 0, 2), -1)).rejects.toThrow(/longer than/);
      expect(readdirSync(join(dir, 'backups'))).toEqual([first.split('/')[1]]);
      expect(newestBackup(dir)?.path).toBe(first);
    } finally {
      db.close();
    }
  });
});
