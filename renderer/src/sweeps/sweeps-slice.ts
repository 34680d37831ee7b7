import { AppError } from '../../../shared/errors';
import type { JobSummary, SweepDetail } from '../../../shared/contract';
import { keyForAttempt, type PendingSubmit } from '../composer/composer';
import type { SliceCreator } from '../store/deps';
import type { SweepsSlice } from '../store/types';
import { errorMessage } from '../store/ui-slice';
import { axesForRequest, axisOfField, NEW_AXIS } from './sweep-axes';

/** The sweep a job is a cell of, where the engine says so (JobSummary.sweep). */
export function sweepOf(job: JobSummary): { id: string; x: number; y: number; z: number } | undefined {
  return (job as { sweep?: { id: string; x: number; y: number; z: number } }).sweep;
}

/** The sweep with a cell's newest job put in its place (a re-run): an older job never replaces a newer one. */
export function withCellJob(detail: SweepDetail, job: JobSummary): SweepDetail {
  const at = sweepOf(job);
  if (at === undefined || at.id !== detail.id) return detail;
  const index = detail.cells.findIndex((c) => c.x === at.x && c.y === at.y && c.z === at.z);
  const held = index === -1 ? null : detail.cells[index]!.job;
  if (held !== null && (held.id === job.id || held.createdAt > job.createdAt)) return detail;
  const cell = { x: at.x, y: at.y, z: at.z, job };
  const cells = index === -1 ? [...detail.cells, cell] : detail.cells.map((c, i) => (i === index ? cell : c));
  return { ...detail, cells };
}

export const createSweepsSlice: SliceCreator<SweepsSlice> = ({ api, makeKey }) => {
  // The open grid's listener for jobs.changed: a re-run's new job takes its cell (the rest update through jobs.byId).
  let stopListening: (() => void) | null = null;
  let pending: PendingSubmit | null = null;
  let starting = false;
  return (set, get) => {
    const readSweep = async (id: string) => {
      try {
        const detail = await api.call('sweeps.get', { id });
        // The cells' jobs join the app's jobs: the grid, the viewer and curation read them from there.
        get().applyJobsChanged(detail.cells.flatMap((c) => (c.job === null ? [] : [c.job])));
        set((s) => (s.sweepView?.id === id ? { sweepView: { ...s.sweepView, detail, error: null } } : {}));
      } catch (error) {
        set((s) => (s.sweepView?.id === id ? { sweepView: { ...s.sweepView, error: errorMessage(error) } } : {}));
      }
    };
    return {
      sweeps: null,
      sweepView: null,
      sweepSectionOpen: false,
      sweepAxes: [{ ...NEW_AXIS }],
      sweepErrors: {},
      sweepStarting: false,

      async loadSweeps() {
        try {
          set({ sweeps: (await api.call('sweeps.list', {})).items });
        } catch (error) {
          get().reportError(error);
        }
      },

      async openSweep(id) {
        stopListening?.();
        stopListening = api.on('jobs.changed', ({ job }) => {
          const view = get().sweepView;
          if (view?.detail == null || sweepOf(job)?.id !== view.id) return;
          const detail = withCellJob(view.detail, job);
          if (detail !== view.detail) set({ sweepView: { ...view, detail } });
        });
        set({ sweepView: { id, detail: null, page: 0, error: null } });
        await readSweep(id);
      },

      closeSweep() {
        stopListening?.();
        stopListening = null;
        set({ sweepView: null });
        void get().loadSweeps();
      },

      setSweepPage: (page) => set((s) => (s.sweepView === null ? {} : { sweepView: { ...s.sweepView, page } })),

      async rerunSweep(cells) {
        const view = get().sweepView;
        if (view === null) return;
        try {
          const { submitted } = await api.call(
            'sweeps.rerun',
            cells === undefined ? { id: view.id } : { id: view.id, cells },
          );
          get().toast({
            kind: 'info',
            message:
              submitted === 0 ? 'Nothing to re-run.' : `Re-running ${submitted} ${submitted === 1 ? 'cell' : 'cells'}.`,
          });
          await readSweep(view.id);
        } catch (error) {
          get().reportError(error);
        }
      },

      setSweepSectionOpen: (open) => set({ sweepSectionOpen: open }),
      setSweepAxes: (axes) => set({ sweepAxes: axes, sweepErrors: {} }),

      async startSweep(base) {
        // Set and read in the press's own tick: a second press while the first is on its way does nothing.
        if (starting) return false;
        starting = true;
        const axes = axesForRequest(get().sweepAxes);
        // One key per composed sweep until it starts: a double click or a retry after a dropped answer makes it once.
        const attempt = keyForAttempt(
          pending,
          { ...base, prompt: `${base.prompt}\u0000${JSON.stringify(axes)}` },
          makeKey,
        );
        pending = attempt;
        set({ sweepStarting: true, sweepErrors: {} });
        try {
          const { sweep } = await api.call('sweeps.start', { base, axes, idempotencyKey: attempt.key });
          pending = null;
          set((s) => ({ sweeps: [sweep, ...(s.sweeps ?? []).filter((each) => each.id !== sweep.id)] }));
          await get().openSweep(sweep.id);
          return true;
        } catch (error) {
          const axis = error instanceof AppError ? axisOfField(error.details?.field) : null;
          if (axis !== null) set({ sweepErrors: { [axis]: error instanceof Error ? error.message : String(error) } });
          else get().reportError(error);
          return false;
        } finally {
          starting = false;
          set({ sweepStarting: false });
        }
      },
    };
  };
};
