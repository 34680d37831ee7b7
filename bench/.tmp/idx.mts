import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../electron/db/store.js';
import { gramsOf } from '../../electron/db/grams.js';
import { searchTextOf } from '../../electron/db/fold.js';
import { uuidv7 } from '../../shared/ids.js';
import { libraryPrompt } from '../../test/fixtures/large-library.js';
const dir = mkdtempSync('/tmp/i12b-rows-');
openStore({ dataDir: dir }).close();
const db = new Database(join(dir, 'atelier.db'));
db.pragma('journal_mode = WAL'); db.pragma('synchronous = OFF'); db.pragma('cache_size = -262144');
const N = Number(process.argv[2]); const mode = process.argv[3];
const job = db.prepare(`INSERT INTO jobs (id, status, created_at, updated_at, started_at, completed_at, provider, prompt, width, height, count, request_json, search_text, logical_bytes, favorite, progress_stage, partial_images) VALUES (?, 'succeeded', ?, ?, ?, ?, 'builtin', ?, 512, 512, 1, '{}', ?, 100, 0, 'done', 0)`);
const grams = db.prepare('INSERT INTO jobs_grams (rowid, grams) VALUES (?, ?)');
const image = db.prepare(`INSERT INTO images (id, job_id, idx, path, sha256, bytes, width, height, mime, thumb_path) VALUES (?, ?, 0, ?, ?, 1, 512, 512, 'image/png', ?)`);
const keep = new Set(['jobs_created']);
const idx = mode === 'drop' ? (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('jobs','images') AND sql IS NOT NULL").all() as Array<{name: string; sql: string}>).filter((i) => !keep.has(i.name)) : [];
let t = Date.now();
for (const i of idx) db.exec(`DROP INDEX ${i.name}`);
db.prepare('UPDATE store_totals SET grams_from_app = 1').run();
for (let c0 = 0; c0 < N; c0 += 50000) db.transaction(() => {
  for (let i = c0; i < Math.min(N, c0 + 50000); i++) {
    const c = 1e12 + i * 1000; const id = uuidv7(c); const s = searchTextOf(libraryPrompt(i), null);
    const r = job.run(id, c, c, c, c, libraryPrompt(i), s);
    grams.run(r.lastInsertRowid, gramsOf(s));
    const h = (i % 300).toString(16).padStart(64, 'a');
    image.run(uuidv7(c), id, `library/${h}.png`, h, `thumbs/${h}.webp`);
  }
})();
db.prepare('UPDATE store_totals SET grams_from_app = 0').run();
console.log(mode, 'rows', Date.now() - t); t = Date.now();
for (const i of idx) db.exec(i.sql);
console.log('reindex', idx.length, Date.now() - t);
rmSync(dir, { recursive: true, force: true });
