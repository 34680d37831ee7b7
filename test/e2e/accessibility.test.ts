import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { openApp, type App } from './harness.js';
import { apiCall, expectGrid, seedJob, waitFor } from './helpers.js';

/** axe-core over what a person sees most: no serious or critical violations, in both themes. */
const PROMPT = 'a heron at dusk';

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-axe-',
    seed: (host) => seedJob(host, PROMPT),
    browser: { viewport: { width: 1440, height: 900 } },
    // No transitions half-way through a colour while axe measures contrast.
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await expectGrid(app.page, [PROMPT]);
}, 120_000);

afterAll(() => app?.close());

describe('accessibility (axe-core)', () => {
  it('the main view', async () => {
    expect(await seriousViolations(app.page)).toEqual([]);
  });

  it('settings', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('import', async () => {
    const { page } = app;
    await page.getByRole('banner').getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the queue panel', async () => {
    const { page } = app;
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Queue/ })
      .click();
    await page.getByRole('complementary', { name: 'Queue' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close the queue' }).click();
  });

  it('the viewer', async () => {
    const { page } = app;
    await page.getByRole('button', { name: PROMPT, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${PROMPT}` });
    await viewer.waitFor();
    // Once the job's details are in (Reuse settings waits for them), so axe sees the settled panel.
    await waitFor(
      async () => viewer.getByRole('button', { name: 'Reuse settings' }).isEnabled(),
      'the details to load',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('the main view and settings in the dark theme', async () => {
    const { page } = app;
    await apiCall(app.host, 'settings.update', { theme: 'dark' });
    await page.reload();
    await expectGrid(page, [PROMPT]);
    // The theme lands with the settings, after the first page: measure once it is on and painted.
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
          .documentElement.dataset.theme === 'dark',
    );
    await page.evaluate(() => {
      const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame;
      return new Promise<void>((resolve) => raf(() => raf(resolve)));
    });
    // The page's text has turned light (a loaded machine paints the background first) and every button has taken it:
    // the theme is on where axe looks.
    await waitFor(
      async () =>
        (await page.evaluate(`(() => {
          const text = getComputedStyle(document.body).color;
          const [r, g, b] = (text.match(/\\d+(\\.\\d+)?/g) ?? []).map(Number);
          if (r + g + b < 384) return false;
          return [...document.querySelectorAll('button.chip')].every((b) => getComputedStyle(b).color === text);
        })()`)) as boolean,
      'the dark theme on every chip',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
  });
});
