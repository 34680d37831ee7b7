import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_CLOSE_FILE, takeCleanClose } from '../../electron/db/clean-close.js';
import { DATABASE_FILE } from '../../electron/db/store.js';
import { launchApp, seedImage, type RunningApp } from './app.js';

/** Quitting closes the library properly: the clean-close marker is written and matches the database file. */
let running: RunningApp;

beforeAll(async () => {
  running = await launchApp();
  await seedImage(running.window, 'a quiet room before quitting');
});

afterAll(() => running?.close());

describe('quit', () => {
  it('closes the database cleanly: the marker is there and the next open would trust it', async () => {
    const marker = join(running.dataDir, CLEAN_CLOSE_FILE);
    const database = join(running.dataDir, DATABASE_FILE);
    // While the app runs the library is open: the marker was taken on open.
    expect(existsSync(marker)).toBe(false);
    const exited = new Promise<void>((resolve) => running.app.process().once('exit', () => resolve()));
    // Playwright's close is app.quit(): main's before-quit closes the engine, then lets the app exit.
    await running.app.close();
    await exited;
    expect(running.app.process().exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(takeCleanClose(marker, database)).toBe(true);
  });
});
