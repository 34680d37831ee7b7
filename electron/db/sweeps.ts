/** Sweeps (migration 0024_sweeps.ts): the recorded set, and which jobs each cell ran. */
import type {
  JobStatus,
  JobSummary,
  StoredRequest,
  SweepAxis,
  SweepAxisView,
  SweepCell,
  SweepSummary,
} from '../../shared/contract.js';
import { toSummary } from './codec.js';
import { SUMMARY_COLUMNS, summaryRowFrom, type StoreContext } from './context.js';
import type { Access } from './guard.js';
import type { createImages } from './images.js';

export interface SweepRecord {
  id: string;
  name: string;
  createdAt: number;
  axes: SweepAxisView[];
  /** The axes as typed: a re-run reads its cells' values from these, exactly as the start did. */
  typed: SweepAxis[];
  base: StoredRequest;
  cellCount: number;
}

export interface CellLink {
  x: number;
  y: number;
  z: number;
  jobId: string;
}

export interface SweepReads {
  /** The sweep, or null when there is none by that id. */
  sweep(id: string): SweepRecord | null;
  sweepByKey(idempotencyKey: string): SweepRecord | null;
  /** Every cell of the grid, Z then Y then X, each with its newest job (null: none yet, or purged). */
  sweepCells(id: string): SweepCell[];
  /** Newest first, with the counts of each one's newest jobs. */
  sweepList(limit: number): SweepSummary[];
  summarizeSweep(record: SweepRecord): SweepSummary;
}

export interface SweepWrites {
  /** Records a sweep; false when its idempotency key already made one (that one is answered). */
  createSweep(record: SweepRecord, idempotencyKey?: string): { sweep: SweepRecord; created: boolean };
  /** Links jobs to their cells (a re-run's job becomes its cell's newest). */
  linkCells(sweepId: string, links: readonly CellLink[]): void;
}

export type SweepStore = SweepReads & SweepWrites;

interface SweepRow {
  id: string;
  name: string;
  created_at: number;
  axes_json: string;
  base_json: string;
  cell_count: number;
}

const FAILED: ReadonlySet<string> = new Set<JobStatus>(['failed', 'cancelled', 'interrupted']);
const PENDING: ReadonlySet<string> = new Set<JobStatus>(['queued', 'running']);

/** axes_json: each axis's view (field, lora, labels) with what was typed beside it. */
type StoredAxis = SweepAxisView & { typed: string };

const toRecord = (row: SweepRow): SweepRecord => {
  const stored = JSON.parse(row.axes_json) as StoredAxis[];
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    axes: stored.map(({ typed: _typed, ...view }) => view),
    typed: stored.map((a) => ({ field: a.field, values: a.typed, ...(a.lora !== undefined && { lora: a.lora }) })),
    base: JSON.parse(row.base_json) as StoredRequest,
    cellCount: row.cell_count,
  };
};

const axesJson = (record: SweepRecord): string =>
  JSON.stringify(record.axes.map((view, i): StoredAxis => ({ ...view, typed: record.typed[i]?.values ?? '' })));

/** The grid's dimensions from its axes: X, Y and Z lengths (an absent axis is 1). */
export function gridSize(axes: readonly SweepAxisView[]): [number, number, number] {
  return [axes[0]?.values.length ?? 1, axes[1]?.values.length ?? 1, axes[2]?.values.length ?? 1];
}

export function createSweeps(
  ctx: StoreContext,
  images: Pick<ReturnType<typeof createImages>, 'summariesFor'>,
): Access<SweepReads, SweepWrites> {
  const { sql, db } = ctx;
  const byId = sql.prepare<SweepRow>('sweeps.get', 'SELECT * FROM sweeps WHERE id = ?');
  const byKey = sql.prepare<SweepRow>('sweeps.byKey', 'SELECT * FROM sweeps WHERE idempotency_key = ?');
  const newest = sql.prepare<SweepRow>(
    'sweeps.list',
    'SELECT * FROM sweeps INDEXED BY sweeps_created ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const insert = sql.prepare(
    'sweeps.insert',
    `INSERT INTO sweeps (id, name, created_at, axes_json, base_json, cell_count, idempotency_key)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const link = sql.prepare('sweeps.link', 'INSERT INTO sweep_jobs (sweep_id, x, y, z, job_id) VALUES (?, ?, ?, ?, ?)');
  // One covering-index read: MAX(rowid) picks each cell's newest link and SQLite returns that row's job_id with it.
  const cellJobs = sql.prepare<{ x: number; y: number; z: number; job_id: string }>(
    'sweeps.cellJobs',
    `SELECT x, y, z, job_id, MAX(rowid) AS newest FROM sweep_jobs INDEXED BY sweep_jobs_cell
     WHERE sweep_id = ? GROUP BY z, y, x`,
  );
  const summaries = sql.cached<unknown[]>(
    'sweeps.summaries',
    'sweeps.summaries',
    () => `SELECT ${SUMMARY_COLUMNS} FROM json_each(?) AS r JOIN jobs AS j ON j.id = r.value`,
    { raw: true },
  );
  const statusOf = sql.prepare<{ status: string; n: number }>(
    'sweeps.statusCounts',
    `SELECT j.status, COUNT(*) AS n FROM (
       SELECT job_id, MAX(rowid) FROM sweep_jobs INDEXED BY sweep_jobs_cell WHERE sweep_id = ? GROUP BY z, y, x
     ) AS c JOIN jobs AS j ON j.id = c.job_id GROUP BY j.status`,
  );
  const cover = sql.prepare<{ image_id: string; job_id: string }>(
    'sweeps.cover',
    `SELECT i.id AS image_id, i.job_id FROM (
       SELECT z, y, x, job_id, MAX(rowid) FROM sweep_jobs INDEXED BY sweep_jobs_cell WHERE sweep_id = ? GROUP BY z, y, x
     ) AS c JOIN images AS i ON i.job_id = c.job_id
     WHERE i.trashed_at IS NULL ORDER BY c.z, c.y, c.x, i.idx LIMIT 1`,
  );

  function jobSummaries(ids: readonly string[]): Map<string, JobSummary> {
    const out = new Map<string, JobSummary>();
    if (ids.length === 0) return out;
    const rows = summaries.all(JSON.stringify(ids)).map(summaryRowFrom);
    const imagesByJob = images.summariesFor(rows.map((r) => r.id));
    for (const row of rows) out.set(row.id, toSummary(row, imagesByJob.get(row.id) ?? []));
    return out;
  }

  function summarize(record: SweepRecord): SweepSummary {
    let succeeded = 0;
    let failed = 0;
    let pending = 0;
    for (const { status, n } of statusOf.all(record.id)) {
      if (status === 'succeeded') succeeded += n;
      else if (FAILED.has(status)) failed += n;
      else if (PENDING.has(status)) pending += n;
    }
    const first = cover.get(record.id);
    return {
      id: record.id,
      name: record.name,
      createdAt: record.createdAt,
      axes: record.axes,
      cellCount: record.cellCount,
      succeeded,
      failed,
      pending,
      ...(first !== undefined && { cover: { imageId: first.image_id, jobId: first.job_id } }),
    };
  }

  const linkAll = db.transaction((sweepId: string, links: readonly CellLink[]) => {
    for (const l of links) link.run(sweepId, l.x, l.y, l.z, l.jobId);
  });

  const create = db.transaction((record: SweepRecord, key: string | undefined) => {
    if (key !== undefined) {
      const existing = byKey.get(key);
      if (existing !== undefined) return { sweep: toRecord(existing), created: false };
    }
    insert.run(
      record.id,
      record.name,
      record.createdAt,
      axesJson(record),
      JSON.stringify(record.base),
      record.cellCount,
      key ?? null,
    );
    return { sweep: record, created: true };
  });

  return {
    reads: {
      sweep(id) {
        const row = byId.get(id);
        return row === undefined ? null : toRecord(row);
      },
      sweepByKey(key) {
        const row = byKey.get(key);
        return row === undefined ? null : toRecord(row);
      },
      sweepCells(id) {
        const row = byId.get(id);
        if (row === undefined) return [];
        const [nx, ny, nz] = gridSize(toRecord(row).axes);
        const links = cellJobs.all(id);
        const jobs = jobSummaries(links.map((l) => l.job_id));
        const at = new Map(links.map((l) => [`${l.x},${l.y},${l.z}`, jobs.get(l.job_id) ?? null]));
        const cells: SweepCell[] = [];
        for (let z = 0; z < nz; z += 1)
          for (let y = 0; y < ny; y += 1)
            for (let x = 0; x < nx; x += 1) cells.push({ x, y, z, job: at.get(`${x},${y},${z}`) ?? null });
        return cells;
      },
      sweepList: (limit) => newest.all(limit).map((row) => summarize(toRecord(row))),
      summarizeSweep: summarize,
    },
    writes: {
      createSweep: (record, key) => create(record, key),
      linkCells: (sweepId, links) => linkAll(sweepId, links),
    },
  };
}
