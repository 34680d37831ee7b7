import type { JobDetail, JobSummary } from '../../../shared/contract';
import { describeSeed, seedOfImage } from './image-seed';
import { clampView, fitScale, fitView, type Size, type View } from './zoom';

/** How many images Compare shows side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export const COMPARE_SETTINGS = [
  ['prompt', 'Prompt'],
  ['negative', 'Negative'],
  ['model', 'Model'],
  ['seed', 'Seed'],
  ['steps', 'Steps'],
  ['guidance', 'Guidance'],
  ['sampler', 'Sampler'],
  ['size', 'Size'],
  ['provider', 'Provider'],
] as const;
export type CompareSetting = (typeof COMPARE_SETTINGS)[number][0];
export type CompareSettings = Record<CompareSetting, string | undefined>;

export interface DiffRow {
  key: CompareSetting;
  label: string;
  values: (string | undefined)[];
  /** Per cell: whether it is one that differs (and so is highlighted). */
  differs: boolean[];
}

/** The settings of one image as the diff reads them: text, so "7" and 7 compare alike and absent is absent. */
export function settingsOf(job: JobSummary, detail: JobDetail | null, imageId: string | undefined): CompareSettings {
  const request = detail?.request;
  const text = (v: string | number | undefined | null) =>
    v === undefined || v === null || v === '' ? undefined : String(v);
  const image = job.images.find((i) => i.id === imageId);
  return {
    prompt: text(job.prompt),
    negative: text(job.negativePrompt),
    model: text(job.model ?? request?.model ?? detail?.metadata?.model),
    seed: describeSeed(seedOfImage({ images: job.images, request, result: detail?.result }, imageId), job.count),
    steps: text(request?.steps),
    guidance: text(request?.guidance),
    sampler: text(request?.sampler ?? detail?.metadata?.sampler),
    size: `${image?.width ?? job.width} × ${image?.height ?? job.height}`,
    provider: text(job.source === 'atelier' ? job.provider : job.source),
  };
}

/**
 * One row per setting. A row whose values are all equal highlights nothing; otherwise the cells off the most common
 * value are highlighted, and where no value is most common (A | B) every cell is.
 */
export function diffSettings(columns: readonly CompareSettings[]): DiffRow[] {
  return COMPARE_SETTINGS.map(([key, label]) => {
    const values = columns.map((c) => c[key]);
    const counts = new Map<string | undefined, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    const top = Math.max(0, ...counts.values());
    const leaders = [...counts.entries()].filter(([, n]) => n === top);
    const common = leaders.length === 1 ? leaders[0]![0] : Symbol('none');
    const differs = counts.size <= 1 ? values.map(() => false) : values.map((v) => v !== common);
    return { key, label, values, differs };
  });
}

/**
 * The one zoom and pan all panes share, independent of each image's pixel size: the scale relative to fit and the
 * image point (as a fraction of its width and height) at the pane's middle. Images of one size get the same transform.
 */
export interface SharedView {
  zoom: number;
  u: number;
  v: number;
  fitted: boolean;
}

export const FITTED: SharedView = { zoom: 1, u: 0.5, v: 0.5, fitted: true };

export function toShared(view: View, fitted: boolean, image: Size, pane: Size): SharedView {
  if (fitted || image.width <= 0 || image.height <= 0) return FITTED;
  return {
    zoom: view.scale / fitScale(image, pane),
    u: (pane.width / 2 - view.x) / view.scale / image.width,
    v: (pane.height / 2 - view.y) / view.scale / image.height,
    fitted: false,
  };
}

export function fromShared(shared: SharedView, image: Size, pane: Size): View {
  if (shared.fitted) return fitView(image, pane);
  const scale = shared.zoom * fitScale(image, pane);
  return clampView(
    { scale, x: pane.width / 2 - shared.u * image.width * scale, y: pane.height / 2 - shared.v * image.height * scale },
    image,
    pane,
  );
}

/** The rows worth a line: a setting no image has (every cell "—") only pushes the images up. */
export function rowsWorthShowing(rows: readonly DiffRow[]): DiffRow[] {
  return rows.filter((row) => row.values.some((v) => v !== undefined));
}

/**
 * Columns for the panes: the layout (one row, or rows of ⌈n/2⌉) at which the smallest image is drawn largest when
 * fitted. Four landscapes in a wide window go 2 × 2; four portraits stay in one row.
 */
export function compareColumns(images: readonly Size[], area: Size): number {
  const n = images.length;
  if (n <= 2) return Math.max(1, n);
  const scaleAt = (cols: number) => {
    const cell = { width: area.width / cols, height: area.height / Math.ceil(n / cols) };
    return Math.min(...images.map((image) => fitScale(image, cell)));
  };
  const half = Math.ceil(n / 2);
  return scaleAt(half) > scaleAt(n) ? half : n;
}
