import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN_CLOSE_FILE, takeCleanClose } from '../../electron/db/clean-close.js';
import { DATABASE_FILE } from '../../electron/db/store.js';
import { DATA_SUBDIR } from '../../electron/host/data-dir.js';
import { launchApp, seedImage, tempProfile, type RunningApp } from './app.js';

/** Quitting closes the library properly: the clean-close marker is written, and the next start takes it. */
let profile: string;
let running: RunningApp | undefined;
const marker = () => join(profile, DATA_SUBDIR, CLEAN_CLOSE_FILE);
const database = () => join(profile, DATA_SUBDIR, DATABASE_FILE);

/** Quits as a person does (app.quit(): main's before-quit closes the engine first); resolves with the exit code. */
async function quit(app: RunningApp): Promise<number | null> {
  const child = app.app.process();
  const exited =
    child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await app.app.close();
  await exited;
  return child.exitCode;
}

beforeAll(async () => {
  profile = await tempProfile();
});

afterAll(async () => {
  await running?.close();
  await rm(profile, { recursive: true, force: true });
});

describe('quit', () => {
  it('writes the clean-close marker on quit; the next start takes it and keeps the library; its quit writes it again', async () => {
    running = await launchApp({ userDataDir: profile });
    await seedImage(running.window, 'a quiet room before quitting');
    expect(await quit(running)).toBe(0);
    expect(existsSync(marker())).toBe(true);

    running = await launchApp({ userDataDir: profile });
    // Taken on open: a crash from now on must leave no marker behind.
    expect(existsSync(marker())).toBe(false);
    await running.window.getByRole('button', { name: 'a quiet room before quitting', exact: true }).waitFor();
    expect(await quit(running)).toBe(0);
    // The marker matches the database as it was closed: the next open would trust it and skip the full check.
    expect(takeCleanClose(marker(), database())).toBe(true);
  });
});
