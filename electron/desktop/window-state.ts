import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface Bounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Bounds;
  maximized: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_STATE: WindowState = { bounds: { width: 1280, height: 820 }, maximized: false };
export const MIN_SIZE = { width: 720, height: 480 };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A remembered state is used only if it still makes sense: sane numbers, at least the minimum size, and a title bar
 * that lands on one of today's displays (a monitor may have been unplugged). Otherwise the default, centred.
 */
export function sanitizeState(raw: unknown, workAreas: readonly Rect[]): WindowState {
  if (typeof raw !== 'object' || raw === null) return DEFAULT_STATE;
  const { bounds, maximized } = raw as { bounds?: Partial<Bounds>; maximized?: unknown };
  if (bounds === undefined || !finite(bounds.width) || !finite(bounds.height)) return DEFAULT_STATE;
  const width = Math.round(Math.max(MIN_SIZE.width, Math.min(bounds.width, 16_384)));
  const height = Math.round(Math.max(MIN_SIZE.height, Math.min(bounds.height, 16_384)));
  const state: WindowState = { bounds: { width, height }, maximized: maximized === true };
  if (finite(bounds.x) && finite(bounds.y)) {
    const x = Math.round(bounds.x);
    const y = Math.round(bounds.y);
    // The top 40 px strip (the title bar) must overlap a display by at least 100 px so the window can be grabbed.
    const grabbable = workAreas.some(
      (area) =>
        Math.min(x + width, area.x + area.width) - Math.max(x, area.x) >= 100 &&
        y >= area.y &&
        y + 40 <= area.y + area.height,
    );
    if (grabbable) state.bounds = { x, y, width, height };
  }
  return state;
}

export async function loadWindowState(file: string, workAreas: readonly Rect[]): Promise<WindowState> {
  try {
    return sanitizeState(JSON.parse(await readFile(file, 'utf8')), workAreas);
  } catch {
    return DEFAULT_STATE;
  }
}

/** Written to a temp file then renamed, so a crash mid-write leaves the previous state, never half a file. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(state));
  await rename(temp, file);
}
