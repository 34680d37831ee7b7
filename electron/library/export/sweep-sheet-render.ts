/** A sweep's page as one labelled PNG: each cell's picture fitted into its box, headers drawn, settings embedded. */
import sharp, { type OverlayOptions } from 'sharp';
import type { ImageSummary, JobSummary, SweepDetail, SweepField } from '../../../shared/contract.js';
import { axisLabel } from '../../../shared/sweep/labels.js';
import { layoutSheet, TITLE_SCALE, type Rect, type SheetLayout } from './sweep-sheet-layout.js';
import { emptyCellSvg, labelsSvg, SHEET_COLOURS, textEm, type Label } from './sweep-sheet-labels.js';
import {
  embedSheetMetadata,
  sheetParameters,
  SWEEP_SHEET_FORMAT,
  type SheetCellRecord,
} from './sweep-sheet-metadata.js';

export interface SheetRenderDeps {
  /** An image's original bytes; null when it is gone or its read was refused (drawn as missing). */
  readImage(imageId: string): Promise<Uint8Array | null>;
  appVersion: string;
}

export interface RenderedSheet {
  png: Uint8Array;
  width: number;
  height: number;
  /** Where each part was drawn. */
  layout: SheetLayout;
}

/** How many pages (Z values) a sweep's sheet has. */
export function sheetPages(sweep: Pick<SweepDetail, 'axes'>): number {
  return Math.max(1, sweep.axes[2]?.values.length ?? 1);
}

const FAILED: ReadonlySet<string> = new Set(['failed', 'cancelled', 'interrupted']);

/** The picture a cell shows (its first image still out of the trash), or why it shows none. */
export function cellPicture(
  job: JobSummary | null,
): { shown: 'image'; image: ImageSummary } | { shown: 'failed' | 'missing' | 'pending' } {
  if (job === null) return { shown: 'missing' };
  if (FAILED.has(job.status)) return { shown: 'failed' };
  if (job.status === 'queued' || job.status === 'running') return { shown: 'pending' };
  const image = [...job.images].sort((a, b) => a.index - b.index).find((i) => i.trashed !== true);
  return image === undefined ? { shown: 'missing' } : { shown: 'image', image };
}

/** The base settings on one line, as a person reads them; a setting an axis varies is left to its header. */
export function baseSettingsLine(base: SweepDetail['base'], axes: SweepDetail['axes'] = []): string {
  const varied = new Set(axes.map((a) => a.field));
  const unless = (field: SweepField, text: string | undefined): string | undefined =>
    varied.has(field) ? undefined : text;
  const parts = [
    base.prompt,
    unless('model', base.model),
    unless('steps', base.steps === undefined ? undefined : `${base.steps} steps`),
    unless('guidance', base.guidance === undefined ? undefined : `CFG ${base.guidance}`),
    unless('sampler', base.sampler),
    unless('seed', base.seed === undefined ? undefined : `seed ${base.seed}`),
    unless('size', `${base.width}×${base.height}`),
    ...(varied.has('lora') ? [] : (base.loras ?? [])).map((l) =>
      axes.some((a) => a.field === 'loraWeight' && a.lora === l.name) ? `LoRA ${l.name}` : `LoRA ${l.name} ${l.weight}`,
    ),
    unless('provider', base.provider),
  ];
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' · ');
}

const yFieldLabel = (axis: SweepDetail['axes'][number]): string => `${axisLabel(axis)} ↓`;

async function fitted(bytes: Uint8Array, rect: Rect): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { failOn: 'none' })
      .rotate()
      .resize(rect.width, rect.height, { fit: 'contain', background: SHEET_COLOURS.letterbox })
      .flatten({ background: SHEET_COLOURS.letterbox })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    // An original sharp cannot decode is drawn like a missing one: the sheet still comes out.
    return null;
  }
}

export async function renderSweepSheet(sweep: SweepDetail, z: number, deps: SheetRenderDeps): Promise<RenderedSheet> {
  const [xAxis, yAxis, zAxis] = sweep.axes;
  const columns = Math.max(1, xAxis?.values.length ?? 1);
  const rows = Math.max(1, yAxis?.values.length ?? 1);
  const byPlace = new Map<string, SweepDetail['cells'][number]>();
  for (const cell of sweep.cells) if (cell.z === z) byPlace.set(`${cell.x},${cell.y}`, cell);

  const records: SheetCellRecord[] = [];
  const pictures: Array<ReturnType<typeof cellPicture>> = [];
  for (let y = 0; y < rows; y += 1)
    for (let x = 0; x < columns; x += 1) {
      const job = byPlace.get(`${x},${y}`)?.job ?? null;
      const picture = cellPicture(job);
      pictures.push(picture);
      records.push({
        x,
        y,
        z,
        jobId: job?.id ?? null,
        imageId: picture.shown === 'image' ? picture.image.id : null,
        shown: picture.shown,
      });
    }
  const images = pictures.flatMap((p) => (p.shown === 'image' ? [p.image] : []));
  const first = images[0];
  const layout = layoutSheet({
    columns,
    rows,
    aspect: first === undefined ? 1 : first.width / first.height,
    ...(images.length === 0 ? {} : { longestSide: Math.max(...images.map((i) => Math.max(i.width, i.height))) }),
    yAxis: yAxis !== undefined,
    ...(yAxis === undefined
      ? {}
      : { yLabelEm: Math.max(textEm(yFieldLabel(yAxis), true), ...yAxis.values.map((v) => textEm(v))) }),
  });
  const { font } = layout;

  // Two cells at a time (a PNG decodes on one thread): only the small fitted copies are held, never every original.
  const drawn: OverlayOptions[] = new Array<OverlayOptions>(pictures.length);
  let next = 0;
  const work = async (): Promise<void> => {
    for (let i = next++; i < pictures.length; i = next++) {
      const picture = pictures[i]!;
      const record = records[i]!;
      const rect = layout.cells[record.y]![record.x]!;
      if (picture.shown === 'image') {
        const bytes = await deps.readImage(picture.image.id);
        const cell = bytes === null ? null : await fitted(bytes, rect);
        if (cell !== null) {
          drawn[i] = { input: cell, left: rect.left, top: rect.top };
          continue;
        }
        record.shown = 'missing';
        record.imageId = null;
      }
      const svg = emptyCellSvg(rect, record.shown, font, record.shown === 'failed');
      drawn[i] = { input: Buffer.from(svg), left: rect.left, top: rect.top };
    }
  };
  await Promise.all([work(), work()]);
  const overlays: OverlayOptions[] = [...drawn];

  const pages = zAxis === undefined ? 1 : zAxis.values.length;
  const name = sweep.name.trim() === '' ? 'Sweep' : sweep.name;
  const page =
    zAxis === undefined ? '' : ` — ${axisLabel(zAxis)}: ${zAxis.values[z] ?? '?'} (page ${z + 1} of ${pages})`;
  const header: Label[] = [
    { text: `${name}${page}`, rect: layout.title, bold: true, scale: TITLE_SCALE },
    { text: baseSettingsLine(sweep.base, sweep.axes), rect: layout.settings, muted: true },
  ];
  if (xAxis !== undefined) {
    header.push({ text: axisLabel(xAxis), rect: layout.xField, align: 'middle', bold: true });
    xAxis.values.forEach((value, x) => header.push({ text: value, rect: layout.xHeaders[x]!, align: 'middle' }));
  }
  if (yAxis !== undefined) header.push({ text: yFieldLabel(yAxis), rect: layout.yField, bold: true });
  const headerBand: Rect = { left: 0, top: 0, width: layout.width, height: layout.cells[0]![0]!.top };
  overlays.push({ input: Buffer.from(labelsSvg(headerBand, header, font)), left: 0, top: 0 });
  if (yAxis !== undefined && layout.yField.width > 0) {
    const top = layout.yHeaders[0]!.top;
    const last = layout.yHeaders[layout.yHeaders.length - 1]!;
    const band: Rect = {
      left: layout.yField.left,
      top,
      width: layout.yField.width,
      height: last.top + last.height - top,
    };
    // A row is as tall as its cells: a long value wraps over a few lines there instead of losing its end.
    const lines = Math.max(1, Math.min(6, Math.floor(layout.yHeaders[0]!.height / (font * 1.3))));
    const labels = yAxis.values.map((value, y): Label => ({ text: value, rect: layout.yHeaders[y]!, lines }));
    overlays.push({ input: Buffer.from(labelsSvg(band, labels, font)), left: band.left, top: band.top });
  }

  const png = await sharp({
    create: { width: layout.width, height: layout.height, channels: 3, background: SHEET_COLOURS.background },
  })
    .composite(overlays)
    .png({ compressionLevel: 6 })
    .toBuffer();
  const embedded = embedSheetMetadata(png, sheetParameters(sweep, deps.appVersion), {
    format: SWEEP_SHEET_FORMAT,
    app: 'Atelier',
    version: deps.appVersion,
    sweep: { id: sweep.id, name: sweep.name, createdAt: sweep.createdAt },
    z,
    pages,
    axes: sweep.axes,
    base: sweep.base,
    cells: records,
  });
  return { png: embedded, width: layout.width, height: layout.height, layout };
}
