import type { ImportProgressEvent, ImportStatus, ImportSummary } from '../../../../shared/contract';

/** What the renderer knows of one import: its live counts, and the rest of its summary once fetched. */
export type ImportRow = ImportProgressEvent & Partial<Omit<ImportSummary, keyof ImportProgressEvent>>;

export interface ImportsData {
  byId: Record<string, ImportRow>;
  /** Newest first. */
  order: string[];
}

export const EMPTY_IMPORTS: ImportsData = { byId: {}, order: [] };

const TERMINAL: ReadonlySet<ImportStatus> = new Set(['completed', 'cancelled', 'failed']);

export function isFinished(status: ImportStatus): boolean {
  return TERMINAL.has(status);
}

/** Files the import has dealt with, whatever became of them. */
export function processed(row: Pick<ImportProgressEvent, 'imported' | 'duplicates' | 'skipped' | 'failed'>): number {
  return row.imported + row.duplicates + row.skipped + row.failed;
}

function progressOf(event: ImportProgressEvent): ImportProgressEvent {
  const { id, status, scanning, found, imported, duplicates, skipped, failed, ratePerSecond, etaMs } = event;
  const out: ImportProgressEvent = { id, status, scanning, found, imported, duplicates, skipped, failed };
  if (ratePerSecond !== undefined) out.ratePerSecond = ratePerSecond;
  if (etaMs !== undefined) out.etaMs = etaMs;
  return out;
}

/** An event is the newest word on an import (events arrive in order): its counts and status replace what was held. */
export function applyImportProgress(data: ImportsData, event: ImportProgressEvent): ImportsData {
  const held = data.byId[event.id];
  const row: ImportRow = { ...held, ...progressOf(event) };
  // A finished import has no rate or time left, whatever an earlier event said.
  if (event.ratePerSecond === undefined) delete row.ratePerSecond;
  if (event.etaMs === undefined) delete row.etaMs;
  return {
    byId: { ...data.byId, [event.id]: row },
    order: held === undefined ? [event.id, ...data.order] : data.order,
  };
}

/**
 * A fetched list. Its counts may be older than an event that landed while it was in flight: they replace the held
 * ones only when they are at least as far along; paths, mode and problems always come from the list.
 */
export function applyImportList(data: ImportsData, items: readonly ImportSummary[]): ImportsData {
  const byId = { ...data.byId };
  for (const item of items) {
    const held = byId[item.id];
    const stale =
      held !== undefined &&
      (processed(held) > processed(item) || (isFinished(held.status) && !isFinished(item.status)));
    byId[item.id] = stale ? { ...item, ...progressOf(held) } : { ...item };
  }
  const listed = [...items].sort((a, b) => b.createdAt - a.createdAt).map((i) => i.id);
  const onlyHeld = data.order.filter((id) => !listed.includes(id));
  return { byId, order: [...onlyHeld, ...listed] };
}

/** "12 files/s"; below one a second, one decimal. */
export function formatRate(perSecond: number | undefined): string | null {
  if (perSecond === undefined || !Number.isFinite(perSecond) || perSecond <= 0) return null;
  return `${perSecond < 10 ? perSecond.toFixed(1).replace(/\.0$/, '') : Math.round(perSecond)} files/s`;
}

/** The paths typed in the dialog: one a line, trimmed, blanks and repeats dropped. */
export function parsePaths(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const path = line.trim();
    if (path !== '') seen.add(path);
  }
  return [...seen];
}

/** A path the engine will take: absolute on POSIX or Windows (the contract's rule, said before the round trip). */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** One line a person reads at a glance: what the import is doing now. */
export function describeImport(row: ImportRow): string {
  const done = processed(row);
  switch (row.status) {
    case 'running':
      if (row.scanning) return `Looking for images… ${row.found} found`;
      return `Importing: ${done} of ${row.found}`;
    case 'paused':
      if (row.found === 0) return 'Paused';
      if (row.scanning) return `Paused while looking: ${row.found} found`;
      return `Paused at ${done} of ${row.found}`;
    case 'completed':
      return `Done: ${row.imported} imported`;
    case 'cancelled':
      return `Cancelled at ${done} of ${row.found}`;
    case 'failed':
      return 'Stopped by an error';
  }
}

/** The share of found files dealt with, while the count of found files is final. */
export function importFraction(row: ImportRow): number | undefined {
  if (row.scanning || row.found === 0) return undefined;
  return Math.min(1, processed(row) / row.found);
}

/**
 * The imports the panel shows: every one still running or paused, and those that ended since this window opened
 * (so the person sees how theirs went) until dismissed. Older history stays out of the way.
 */
export function visibleImportIds(
  data: ImportsData,
  dismissed: Readonly<Record<string, true>>,
  openedAt: number,
): string[] {
  return data.order.filter((id) => {
    const row = data.byId[id]!;
    if (!isFinished(row.status)) return true;
    if (dismissed[id] === true) return false;
    return row.finishedAt === undefined || row.finishedAt >= openedAt;
  });
}

/** The search that shows exactly the images one import added (the engine's `import:` key). */
export function importQuery(id: string): string {
  return `import:${id}`;
}

/** "Show 12 imported": the action that takes the person to what an import added. */
export function showImportedLabel(imported: number): string {
  return `Show ${imported.toLocaleString('en-US')} imported`;
}

/** The folder (or file) name an import is known by, from its first path. */
export function importName(row: Pick<ImportRow, 'paths'>): string {
  const first = row.paths?.[0];
  return first === undefined ? 'Import' : (first.split(/[\\/]/).filter(Boolean).pop() ?? first);
}

/** What the toast says when an import ends: what came in, and what was left out (skipped is no failure). */
export function importEndMessage(row: ImportRow): string {
  const name = importName(row);
  const images = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'image' : 'images'}`;
  const head =
    row.status === 'cancelled'
      ? `Import of ${name} cancelled: ${images(row.imported)} came in`
      : row.status === 'failed'
        ? `Import of ${name} stopped: ${images(row.imported)} came in`
        : row.imported === 0
          ? `${name}: nothing new`
          : `Imported ${images(row.imported)} from ${name}`;
  const rest = [
    row.duplicates > 0 ? `${row.duplicates.toLocaleString('en-US')} already in the library` : null,
    row.skipped > 0 ? `${row.skipped.toLocaleString('en-US')} skipped` : null,
    row.failed > 0 ? `${row.failed.toLocaleString('en-US')} failed` : null,
  ].filter((part) => part !== null);
  return rest.length === 0 ? `${head}.` : `${head} (${rest.join(', ')}).`;
}

/**
 * The finished import's way to its images: "Show N imported" (the gallery narrowed to them), or, while they are
 * what the gallery shows, "Show all images" back; none when the import added nothing or still runs.
 */
export function showAction(row: ImportRow, search: string): { label: string; narrows: boolean } | null {
  if (!isFinished(row.status) || row.imported === 0) return null;
  return search === importQuery(row.id)
    ? { label: 'Show all images', narrows: false }
    : { label: showImportedLabel(row.imported), narrows: true };
}
