import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appEnv, electronBinary, launchApp, plainArgs, waitUntil, type RunningApp } from './app.js';

/** A second start on the same library hands over to the first: it focuses that window and exits itself. */
let running: RunningApp;

beforeAll(async () => {
  running = await launchApp();
  // Count focus calls on the window main.ts keeps (the same BrowserWindow object its handler focuses).
  await running.app.evaluate(({ BrowserWindow }) => {
    const g = globalThis as unknown as { focusCalls: number };
    g.focusCalls = 0;
    const win = BrowserWindow.getAllWindows()[0]!;
    const focus = win.focus.bind(win);
    win.focus = () => {
      g.focusCalls += 1;
      focus();
    };
  });
});

afterAll(() => running?.close());

describe('single instance', () => {
  it('a second launch focuses the first window and exits, and no second window opens', async () => {
    const second = spawn(electronBinary(), plainArgs(), { env: appEnv(running.userDataDir), stdio: 'ignore' });
    const exit = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the second instance did not exit')), 60_000);
      second.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(exit).toBe(0);
    const focusCalls = (): Promise<number> =>
      running.app.evaluate(() => (globalThis as unknown as { focusCalls: number }).focusCalls);
    await waitUntil(async () => (await focusCalls()) > 0, 'the first window to be focused', 10_000);
    expect(await running.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    // The first app is still the one serving the library.
    expect(await running.window.evaluate(() => typeof (globalThis as unknown as { atelier?: unknown }).atelier)).toBe(
      'object',
    );
  });
});
