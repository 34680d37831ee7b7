import { planSweep } from '../../../shared/sweep/expand';
import { readAxisValues } from '../../../shared/sweep/values';
import { formatCount, formatNumber } from '../common/format';
import { axesForRequest, type SweepAxisDraft } from './sweep-axes';

/** One axis as the composer shows it: its values read into chips, or why they cannot be. */
export type AxisReading = { labels: string[]; message: null } | { labels: []; message: string | null };

export interface SweepView {
  /** Some axis has values: Generate runs the sweep. */
  active: boolean;
  ok: boolean;
  cells: number;
  images: number;
  /** Why Run sweep is disabled (an axis's values, the cap), shown beside it. */
  reason: string | null;
  axes: AxisReading[];
  /** "Run sweep · 12 cells" or "Generate". */
  label: string;
}

/** What the axes make over the composer's request, read as the person types (shared/sweep/ does the reading). */
export function sweepView(
  axes: readonly SweepAxisDraft[],
  base: { prompt: string; count: number; inputImage?: unknown },
): SweepView {
  const readings: AxisReading[] = axes.map((axis) => {
    if (axis.values.trim() === '') return { labels: [], message: null };
    const read = readAxisValues(axis.field, axis.values, base.prompt);
    return read.ok ? { labels: read.labels, message: null } : { labels: [], message: read.message };
  });
  const filled = axes.filter((axis) => axis.values.trim() !== '');
  if (filled.length === 0)
    return { active: false, ok: false, cells: 0, images: 0, reason: null, axes: readings, label: 'Generate' };
  const plan = planSweep({
    base: base as Parameters<typeof planSweep>[0]['base'],
    axes: axesForRequest(filled),
  });
  const cells = readings.reduce((n, r, i) => (axes[i]!.values.trim() === '' ? n : n * r.labels.length), 1);
  // An axis that does not read has no count yet: the button says only what it does.
  const unread = readings.some((r) => r.message !== null);
  const label = unread ? 'Run sweep' : `Run sweep · ${formatCount(cells, 'cell')}`;
  if (!plan.ok) {
    const at = /^axes\.(\d+)/.exec(plan.field);
    // planSweep numbers the filled axes: its pointer is turned back into the composer's own axis.
    const axisIndex = at === null ? null : axes.indexOf(filled[Number(at[1])]!);
    if (axisIndex !== null && axisIndex >= 0 && readings[axisIndex]!.message === null)
      readings[axisIndex] = { labels: [], message: plan.message };
    return { active: true, ok: false, cells, images: cells * base.count, reason: plan.message, axes: readings, label };
  }
  return { active: true, ok: true, cells: plan.cells, images: plan.images, reason: null, axes: readings, label };
}

/** "4 × 3 = 12 cells · 24 images". */
export function sweepTally(view: SweepView, axes: readonly SweepAxisDraft[]): string {
  const sizes = view.axes.flatMap((r, i) => (axes[i]!.values.trim() === '' ? [] : [r.labels.length]));
  const product = sizes.length > 1 ? `${sizes.join(' × ')} = ` : '';
  return `${product}${formatCount(view.cells, 'cell')} · ${formatNumber(view.images)} ${view.images === 1 ? 'image' : 'images'}`;
}
