import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/db/store.js';
import { recordProgressValues, type ImageLike } from '../e2e/helpers.js';
import { ROOT, launchApp, waitUntil, type RunningApp } from './app.js';

/** The real app in real Electron: its one window, a generation watched to the end, media over atelier-media://. */
let running: RunningApp;

beforeAll(async () => {
  running = await launchApp();
});

afterAll(() => running?.close());

describe('the desktop window', () => {
  it('opens one window on the app scheme with the gallery, the composer and the preload bridge', async () => {
    const { app, window } = running;
    expect(window.url()).toBe('atelier://app/index.html');
    expect(await window.title()).toBe('Atelier');
    await window.getByRole('form', { name: 'Composer' }).waitFor();
    expect(await window.evaluate(() => typeof (globalThis as unknown as { atelier?: unknown }).atelier)).toBe('object');
    // The sandboxed page has no Node.
    expect(await window.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe(
      'undefined',
    );
    const windows = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((w) => ({ visible: w.isVisible(), title: w.getTitle() })),
    );
    expect(windows).toEqual([{ visible: true, title: 'Atelier' }]);
    // Its library is the temporary profile's (ATELIER_USER_DATA_DIR), never the person's own.
    expect(existsSync(join(running.dataDir, DATABASE_FILE))).toBe(true);
    const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
    // Compared as real paths: a temp folder may be spelt through a symlink (macOS) or a short name (Windows).
    expect(realpathSync.native(userData)).toBe(realpathSync.native(running.userDataDir));
  });

  it('generates with the built-in provider: progress moves, then the image lands in the gallery', async () => {
    const { window } = running;
    const prompt = 'a lighthouse over a winter sea';
    await window.getByLabel('Prompt', { exact: true }).fill(prompt);
    // Large enough that the render lasts several progress ticks. Steps wait under Advanced, closed for a new person.
    await window.getByLabel('Width', { exact: true }).fill('2048');
    await window.getByLabel('Height', { exact: true }).fill('2048');
    const advanced = window.locator('details.advanced');
    if (!(await advanced.evaluate((details) => (details as unknown as { open: boolean }).open)))
      await advanced.locator('summary').click();
    await window.getByLabel('Steps').fill('150');
    const progressSeen = await recordProgressValues(window);
    await window
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();

    const queued = window.getByRole('listitem', { name: new RegExp(prompt) });
    await queued.waitFor();
    await waitUntil(async () => (await queued.count()) === 0, 'the job to leave the queue', 90_000);
    const values = await progressSeen();
    expect(values.length, `progress values seen: ${values.join(', ')}`).toBeGreaterThan(2);

    const thumb = window.getByRole('button', { name: prompt, exact: true }).locator('img');
    await waitUntil(
      () =>
        thumb.evaluate(
          (img) => (img as unknown as ImageLike).complete && (img as unknown as ImageLike).naturalWidth > 0,
        ),
      'the thumbnail to load',
    );
    expect(await thumb.getAttribute('src')).toMatch(/^atelier-media:\/\/thumb\//);
    // The real window as CI saw it (uploaded with test-results/ when a run fails).
    await window.screenshot({
      path: join(ROOT, 'test-results', 'screenshots', `electron-gallery-${process.platform}.png`),
    });
  }, 120_000);

  it('the viewer shows the original through atelier-media://, and an unknown id loads nothing', async () => {
    const { window } = running;
    await window.getByRole('button', { name: 'a lighthouse over a winter sea', exact: true }).dblclick();
    const viewer = window.getByRole('dialog', { name: 'Viewer: a lighthouse over a winter sea' });
    await viewer.waitFor();
    const image = viewer.locator('img.zoom-image');
    await waitUntil(
      () =>
        image.evaluate(
          (img) => (img as unknown as ImageLike).complete && (img as unknown as ImageLike).naturalWidth > 0,
        ),
      'the original to load',
    );
    expect(await image.getAttribute('src')).toMatch(/^atelier-media:\/\/(image|preview)\//);
    expect(await image.evaluate((img) => (img as unknown as ImageLike).naturalWidth)).toBeGreaterThan(0);
    // The page may load images only (CSP connect-src is 'self'): an unknown id errors like a 404 would.
    const unknown = await window.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const g = globalThis as unknown as {
            Image: new () => { src: string; onload: () => void; onerror: () => void };
          };
          const probe = new g.Image();
          probe.onload = () => resolve('loaded');
          probe.onerror = () => resolve('error');
          probe.src = 'atelier-media://image/no-such-image';
        }),
    );
    expect(unknown).toBe('error');
    await window.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });
});
