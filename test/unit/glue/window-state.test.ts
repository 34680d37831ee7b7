import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_STATE,
  MIN_SIZE,
  loadWindowState,
  sanitizeState,
  saveWindowState,
} from '../../../electron/desktop/window-state.js';

const screen = [{ x: 0, y: 0, width: 1920, height: 1040 }];

describe('window state', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'atelier-window-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('round-trips through an atomically written file', async () => {
    const file = join(dir, 'window-state.json');
    const state = { bounds: { x: 100, y: 50, width: 1000, height: 700 }, maximized: true };
    await saveWindowState(file, state);
    expect(await loadWindowState(file, screen)).toEqual(state);
    expect(await readdir(dir)).toEqual(['window-state.json']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(state);
  });

  it('falls back to the default for a missing or corrupt file', async () => {
    expect(await loadWindowState(join(dir, 'none.json'), screen)).toEqual(DEFAULT_STATE);
    await writeFile(join(dir, 'bad.json'), '{"bounds":');
    expect(await loadWindowState(join(dir, 'bad.json'), screen)).toEqual(DEFAULT_STATE);
    expect(sanitizeState({ bounds: { width: 'x', height: 1 } }, screen)).toEqual(DEFAULT_STATE);
  });

  it('drops a position that is no longer on any display, keeping the size', () => {
    const state = sanitizeState({ bounds: { x: 3000, y: 100, width: 900, height: 600 } }, screen);
    expect(state.bounds).toEqual({ width: 900, height: 600 });
    const secondScreen = [...screen, { x: 1920, y: 0, width: 1920, height: 1080 }];
    expect(sanitizeState({ bounds: { x: 3000, y: 100, width: 900, height: 600 } }, secondScreen).bounds.x).toBe(3000);
  });

  it('keeps sizes between the minimum and a sane maximum', () => {
    const tiny = sanitizeState({ bounds: { width: 10, height: 10 } }, screen);
    expect(tiny.bounds).toEqual(MIN_SIZE);
    const huge = sanitizeState({ bounds: { width: 1e9, height: Infinity } }, screen);
    expect(huge).toEqual(DEFAULT_STATE);
    expect(sanitizeState({ bounds: { width: 1e9, height: 900 } }, screen).bounds.width).toBe(16_384);
  });
});
