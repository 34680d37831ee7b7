import { GenerateRequest, type Handlers, type JobDetail, type SweepAxisView } from '../../shared/contract.js';
import { AppError } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import { cellRequest, expandSweep, planSweep, type PlannedAxis, type SweepBase } from '../../shared/sweep/expand.js';
import { SWEEP_AXIS_FIELDS, type SweepAxisField } from '../../shared/sweep/limits.js';
import { defaultSweepName } from '../../shared/sweep/labels.js';
import type { JobStore } from '../db/types.js';
import type { CellLink, SweepRecord } from '../db/sweeps.js';

export type SweepChannels = 'sweeps.start' | 'sweeps.list' | 'sweeps.get' | 'sweeps.rerun';

export interface SweepHandlerDeps {
  store: Pick<JobStore, 'sweeps'>;
  /** jobs.submit's checks for one request, nothing stored (electron/engine/handlers.ts); throws its AppError. */
  check(request: GenerateRequest): Promise<void>;
  /** jobs.submit's path for one cell: stored, announced and scheduled as one job, never split across servers. */
  submit(request: GenerateRequest): Promise<{ job: JobDetail; created: boolean }>;
  /** Announces jobs as they are now (jobs.changed): a cell's job again once it names its cell. */
  announce(ids: string[]): void;
  now(): number;
}

/** Sweeps listed at once (newest first). */
const LIST_LIMIT = 200;
const RERUN_STATUSES: ReadonlySet<string> = new Set(['failed', 'cancelled', 'interrupted']);

/** The sweep field a request field belongs to, for pointing a cell's refusal at its axis. */
function sweepFieldOf(requestField: string): SweepAxisField | null {
  const head = requestField.split('.')[0]!;
  if (head === 'width' || head === 'height') return 'size';
  if (head === 'loras') return 'lora';
  if (head === 'inputImage' && requestField.endsWith('strength')) return 'strength';
  // The other axes are named as the request field they set (size, strength and the LoRA ones were mapped above).
  return (SWEEP_AXIS_FIELDS as readonly string[]).includes(head) ? (head as SweepAxisField) : null;
}

/** `axes.<i>.values` for the axis that set the refused field; else a provider or model axis (what cannot take it); else the base. */
function axisFieldFor(requestField: string | undefined, axes: readonly PlannedAxis[]): string {
  const field = requestField === undefined ? null : sweepFieldOf(requestField);
  const matches = (a: PlannedAxis): boolean => a.field === field || (field === 'lora' && a.field === 'loraWeight');
  let at = axes.findIndex(matches);
  if (at < 0) at = axes.findIndex((a) => a.field === 'provider');
  if (at < 0) at = axes.findIndex((a) => a.field === 'model');
  if (at >= 0) return `axes.${at}.values`;
  return requestField === undefined ? 'base' : `base.${requestField}`;
}

function refusedField(error: AppError): string | undefined {
  const details = error.details ?? {};
  if (typeof details['field'] === 'string') return details['field'];
  const fields = details['fields'];
  if (fields !== null && typeof fields === 'object') return Object.keys(fields)[0];
  return undefined;
}

const cellLabel = (axes: readonly PlannedAxis[], pos: readonly number[]): string =>
  axes.map((a, i) => `${a.field} = ${a.labels[pos[i]!] || '""'}`).join(', ');

/** What the grid records of an axis: its field, LoRA and the values it took, as labels. */
const axisView = (a: PlannedAxis): SweepAxisView => ({
  field: a.field,
  ...(a.lora !== undefined && { lora: a.lora }),
  values: a.labels,
});

/** Reads a recorded sweep's axes again from what was typed, exactly as its start read them. */
function replan(record: SweepRecord): PlannedAxis[] {
  const read = planSweep({ base: record.base as SweepBase, axes: record.typed });
  if (!read.ok) throw new AppError('internal', `This sweep's axes no longer read: ${read.message}`);
  return read.axes;
}

export function createSweepHandlers(deps: SweepHandlerDeps): Pick<Handlers, SweepChannels> {
  const sweeps = deps.store.sweeps;

  /** Every cell checked the way jobs.submit checks a request, before anything is stored. */
  async function checkCells(
    cells: ReadonlyArray<{ x: number; y: number; z: number; request: SweepBase }>,
    axes: readonly PlannedAxis[],
  ): Promise<void> {
    for (const cell of cells) {
      const pos = [cell.x, cell.y, cell.z];
      const parsed = GenerateRequest.safeParse(cell.request);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = axisFieldFor(issue.path.join('.'), axes);
        throw new AppError('invalid_request', `The cell at ${cellLabel(axes, pos)}: ${issue.message}`, {
          details: { field, fields: { [field]: issue.message } },
        });
      }
      try {
        await deps.check(parsed.data);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
        const field = axisFieldFor(refusedField(error), axes);
        throw new AppError('invalid_request', `The cell at ${cellLabel(axes, pos)}: ${error.message}`, {
          details: { ...error.details, field, fields: { [field]: error.message } },
        });
      }
    }
  }

  /** Submits cells as jobs and links each to its cell; cells whose submit failed stay empty (re-run finds them). */
  async function runCells(
    sweepId: string,
    cells: ReadonlyArray<{ x: number; y: number; z: number; request: SweepBase }>,
    attempt: string,
  ): Promise<number> {
    let linked = 0;
    const outcomes = await Promise.allSettled(
      cells.map(async (c) => {
        const { job, created } = await deps.submit({
          ...c.request,
          idempotencyKey: `sweep:${sweepId}:${c.x},${c.y},${c.z}:${attempt}`,
        } as GenerateRequest);
        if (!created) return;
        // Linked as soon as it is stored, and announced again so the grid hears of it with its cell.
        const link: CellLink = { x: c.x, y: c.y, z: c.z, jobId: job.id };
        sweeps.linkCells(sweepId, [link]);
        deps.announce([job.id]);
        linked += 1;
      }),
    );
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (linked === 0 && refused !== undefined) throw refused.reason;
    return linked;
  }

  return {
    'sweeps.start': async (start) => {
      const key = start.idempotencyKey;
      if (key !== undefined) {
        const known = sweeps.sweepByKey(key);
        if (known !== null) return { sweep: sweeps.summarizeSweep(known) };
      }
      const expanded = expandSweep(start);
      if (!expanded.ok)
        throw new AppError('invalid_request', expanded.message, {
          details: { field: expanded.field, fields: { [expanded.field]: expanded.message } },
        });
      await checkCells(expanded.cells, expanded.axes);
      const now = deps.now();
      const record: SweepRecord = {
        id: uuidv7(now),
        name: start.name?.trim() || defaultSweepName(expanded.axes.map(axisView)),
        createdAt: now,
        axes: expanded.axes.map(axisView),
        typed: start.axes,
        base: start.base,
        cellCount: expanded.cells.length,
      };
      const made = sweeps.createSweep(record, key);
      if (made.created) await runCells(record.id, expanded.cells, '1');
      return { sweep: sweeps.summarizeSweep(made.sweep) };
    },
    'sweeps.list': async () => ({ items: sweeps.sweepList(LIST_LIMIT) }),
    'sweeps.get': async ({ id }) => {
      const record = sweeps.sweep(id);
      if (record === null)
        throw new AppError('not_found', 'There is no sweep with that id (it may have been removed).');
      return { ...sweeps.summarizeSweep(record), base: record.base, cells: sweeps.sweepCells(id) };
    },
    'sweeps.rerun': async ({ id, cells }) => {
      const record = sweeps.sweep(id);
      if (record === null)
        throw new AppError('not_found', 'There is no sweep with that id (it may have been removed).');
      const grid = sweeps.sweepCells(id);
      const inGrid = new Set(grid.map((c) => `${c.x},${c.y},${c.z}`));
      const wanted =
        cells ??
        grid.filter((c) => c.job === null || RERUN_STATUSES.has(c.job.status)).map(({ x, y, z }) => ({ x, y, z }));
      for (const c of wanted)
        if (!inGrid.has(`${c.x},${c.y},${c.z}`))
          throw new AppError('invalid_request', `This sweep has no cell at x ${c.x}, y ${c.y}, z ${c.z}.`, {
            details: { field: 'cells' },
          });
      if (wanted.length === 0) return { submitted: 0 };
      const axes = replan(record);
      const requests = wanted.map((c) => ({ ...c, request: cellRequest(record.base as SweepBase, axes, c) }));
      await checkCells(requests, axes);
      // A fresh key per re-run: the same cell may be run again, and again.
      return { submitted: await runCells(id, requests, `r${uuidv7(deps.now())}`) };
    },
  };
}
