/**
 * A sweep as a person runs it: CFG × steps from the composer on a scripted provider, the cell count before anything
 * is sent, the labelled grid filling in live, a cell rated, two compared, the one failed cell re-run, a cell opened in
 * the viewer; screenshots of the composer's section and the grid in light and dark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { defaultProviders } from '../../electron/engine/default-providers.js';
import { createScriptedProvider, scriptedEntry } from '../fakes/scripted-provider.js';
import { seriousViolations } from './axe.js';
import { screenshot, openApp, type App } from './harness.js';
import { waitFor } from './helpers.js';

let app: App;
// The third cell to run fails once; every other attempt (its re-run too) succeeds.
const scripted = createScriptedProvider('scripted', [
  { kind: 'succeed', delayMs: 250 },
  { kind: 'succeed', delayMs: 250 },
  { kind: 'fail', error: new AppError('provider_error', 'The scripted server dropped this one.') },
  { kind: 'succeed', delayMs: 250 },
]);
const base = scripted.capabilities.bind(scripted);
// The scripted provider takes CFG too, so both axes apply.
scripted.capabilities = (config) => ({ ...base(config), guidance: { min: 0, max: 30, default: 7 } });

const grid = () => app.page.locator('dialog.sweep-view');
const cells = () => grid().locator('.sweep-cell');
const states = () =>
  cells().evaluateAll((all) => all.map((c) => (c as unknown as { dataset: { state: string } }).dataset.state));

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-sweeps-',
    host: { engine: { providers: [...defaultProviders(), scriptedEntry(scripted, 1)] } },
    browser: { viewport: { width: 1440, height: 900 }, colorScheme: 'light' },
  });
}, 180_000);

afterAll(() => app?.close());

describe('sweeps', () => {
  it('runs CFG × steps from the composer and reads the answer from a labelled grid', async () => {
    const { page } = app;
    const composer = page.getByRole('form', { name: 'Composer' });
    await composer.getByLabel('Provider').selectOption('scripted');
    await composer.getByLabel('Prompt', { exact: true }).fill('a teapot on a windowsill');

    await composer.locator('summary', { hasText: 'Sweep' }).click();
    await composer.getByLabel('X axis setting').selectOption('guidance');
    await composer.getByLabel('X axis values').fill('3, 5, 7');
    await composer.getByRole('button', { name: '+ Y axis' }).click();
    await composer.getByLabel('Y axis setting').selectOption('steps');
    await composer.getByLabel('Y axis values').fill('4-8 step 4');

    // The values read into chips and the count, before anything is sent.
    await expect
      .poll(() => composer.getByRole('list', { name: 'Y values' }).getByRole('listitem').allTextContents())
      .toEqual(['4', '8']);
    const run = composer.locator('button.generate');
    await composer.getByRole('button', { name: /Run sweep · 6 cells/ }).waitFor();
    expect(await composer.locator('.sweep-tally').textContent()).toBe('3 × 2 = 6 cells · 6 images');

    // A wrong value is named under its axis and the run waits for it.
    await composer.getByLabel('Y axis values').fill('4, many');
    await composer.locator('#sweep-axis-1-error').waitFor();
    expect(await run.isDisabled()).toBe(true);
    await composer.getByLabel('Y axis values').fill('4-8 step 4');
    await expect.poll(() => run.isDisabled()).toBe(false);
    // To the composer's end: the chips and the count sit above the pinned Generate.
    await composer.locator('.sweep-intro').hover();
    await page.mouse.wheel(0, 2000);
    await waitFor(
      async () => (await composer.locator('.sweep-tally').boundingBox())!.y < 780,
      'the composer to scroll',
      5_000,
    );
    await screenshot(page, 'sweeps-composer-section');

    await run.click();
    await grid().waitFor();
    // Headers: CFG across, steps down (drawn once the sweep's detail has arrived, after the grid itself opens).
    await grid().locator('.sweep-label.y').first().waitFor();
    expect(await grid().locator('.sweep-label.x').allTextContents()).toEqual(['3', '5', '7']);
    expect(await grid().locator('.sweep-label.y').allTextContents()).toEqual(['4', '8']);
    expect(await grid().locator('.sweep-corner').textContent()).toContain('CFG');

    // The cells fill in live (jobs.changed): some are still waiting when the grid opens, then every one has ended.
    const seen = new Set<string>();
    await waitFor(
      async () => {
        const now = await states();
        now.forEach((s) => seen.add(s));
        return now.length === 6 && now.every((s) => s === 'done' || s === 'failed');
      },
      'the six cells to end',
      30_000,
    );
    expect([...seen].some((s) => s === 'Queued…' || s === 'Rendering…')).toBe(true);
    expect((await states()).filter((s) => s === 'failed')).toHaveLength(1);
    await grid().getByText('The scripted server dropped this one.').waitFor();
    expect(await grid().locator('.sweep-cell img').count()).toBe(5);
    expect(await seriousViolations(page, 'dialog.sweep-view')).toEqual([]);

    // Rate the first cell: focus it with the keyboard and press 4.
    const first = cells().nth(0);
    await first.focus();
    await page.keyboard.press('4');
    await waitFor(
      async () => ((await first.getAttribute('aria-label')) ?? '').endsWith('rated 4'),
      'cell rated',
      10_000,
    );

    // Compare two cells picked with Ctrl+click: the existing compare, over the grid; Escape closes it alone.
    await cells()
      .nth(0)
      .click({ modifiers: ['Control'] });
    await cells()
      .nth(1)
      .click({ modifiers: ['Control'] });
    await grid().getByRole('button', { name: 'Compare (2)' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare 2 images' });
    await compare.waitFor();
    expect(await compare.locator('.zoom-pane').count()).toBe(2);
    await page.keyboard.press('Escape');
    await compare.waitFor({ state: 'detached' });
    expect(await grid().isVisible()).toBe(true);

    // Re-run the failed cell: it takes its place in the grid and finishes.
    await grid().getByRole('button', { name: 'Re-run failed (1)' }).click();
    await waitFor(async () => (await states()).every((s) => s === 'done'), 'the re-run cell to finish', 30_000);
    expect(await grid().getByRole('button', { name: 'Re-run failed (0)' }).isDisabled()).toBe(true);
    await grid().getByText('6 of 6 done').waitFor();

    await screenshot(page, 'sweeps-grid-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'sweeps-grid-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A plain click opens the cell's image in the viewer; Escape goes back to the grid.
    await cells().nth(4).click();
    const viewer = page.locator('dialog.viewer');
    await viewer.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await grid().isVisible()).toBe(true);

    // Escape closes the grid; the library column now lists the sweep, which opens it again.
    await page.keyboard.press('Escape');
    await grid().waitFor({ state: 'detached' });
    const listed = page.getByRole('region', { name: 'Sweeps' }).getByRole('button', { name: /cells/ });
    await listed.first().click();
    await grid().waitFor();
    await waitFor(async () => (await cells().count()) === 6, 'the grid again', 10_000);

    // Export sheet (PNG): the browser downloads the page as one labelled picture.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      grid().getByRole('button', { name: 'Export sheet (PNG)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.png$/);

    // From a cell's image: Sweep from these settings… fills the composer and opens its Sweep section.
    await cells().nth(2).click();
    await page.locator('dialog.viewer').waitFor();
    await page.getByRole('button', { name: 'Sweep from these settings…' }).click();
    await grid().waitFor({ state: 'detached' });
    expect(await composer.getByLabel('Prompt', { exact: true }).inputValue()).toBe('a teapot on a windowsill');
    expect(await composer.locator('details.sweep-section').getAttribute('open')).not.toBeNull();

    // A sweep's image in the gallery links back to its grid.
    await page.locator('.grid-canvas img.thumb').first().dblclick();
    await page.locator('dialog.viewer').waitFor();
    await page.getByRole('button', { name: 'Open sweep grid' }).click();
    await grid().waitFor();
    expect(await page.locator('dialog.viewer').count()).toBe(0);
  }, 120_000);
});
