import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App, type Host } from './harness.js';
import { apiCall, gridPrompts, waitFor } from './helpers.js';

/**
 * Pictures first: the composer and the boards column fold away (their buttons, C and B, or Tab on a picture for all),
 * stay folded across a reload, the toolbar is one row with the filters in a popover, and with the panels folded the
 * grid runs edge to edge and starts near the top, at 1440×900 and 1024×700, in both themes.
 */
const SHAPES: [number, number][] = [
  [256, 256],
  [256, 384],
  [384, 256],
  [320, 256],
  [256, 320],
  [256, 256],
  [384, 256],
  [256, 384],
  [256, 256],
  [320, 256],
];
const PROMPTS = SHAPES.map((_, i) => `a study of light number ${i + 1}`);

async function seed(host: Host): Promise<void> {
  const ids: string[] = [];
  for (const [i, [width, height]] of SHAPES.entries()) {
    const { job } = await apiCall(host, 'jobs.submit', {
      provider: 'builtin',
      prompt: PROMPTS[i]!,
      width,
      height,
      count: 1,
      steps: 2,
    });
    ids.push(job.id);
  }
  await waitFor(
    async () =>
      (await Promise.all(ids.map((id) => apiCall(host, 'jobs.get', { id })))).every((j) => j.status === 'succeeded'),
    'the seeded jobs to finish',
    60_000,
  );
}

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-pictures-first-',
    seed,
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await waitFor(async () => (await gridPrompts(app.page)).length === PROMPTS.length, 'every card in the grid');
}, 120_000);

afterAll(() => app?.close());

const composer = (page: Page) => page.getByRole('form', { name: 'Composer' });
const library = (page: Page) => page.getByRole('complementary', { name: 'Library' });
const toggle = (page: Page, name: 'Show composer' | 'Show boards and tags') =>
  page.getByRole('banner').getByRole('button', { name, exact: true });
const pressed = async (page: Page, name: 'Show composer' | 'Show boards and tags') =>
  (await toggle(page, name).getAttribute('aria-pressed')) === 'true';

/** Rectangles of what the assertions measure, in CSS pixels of the viewport. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          querySelector(s: string): { getBoundingClientRect(): { top: number; height: number; width: number } } | null;
        };
      }
    ).document;
    const rect = (s: string) => doc.querySelector(s)?.getBoundingClientRect() ?? null;
    return {
      toolbar: rect('header.topbar')!.height,
      firstCardTop: rect('.grid-canvas .card')!.top,
      gridWidth: rect('.grid-canvas')!.width,
    };
  });

const focusPicture = async (page: Page) => {
  await page.locator('.grid-canvas [data-card][tabindex="0"]').focus();
};
const focusOnPicture = (page: Page) =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
      ).document.activeElement?.getAttribute('data-card') != null,
  );

/** Once the settings' theme is on the page and painted, so a screenshot shows it. */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await apiCall(app.host, 'settings.update', { theme });
  await page.reload();
  await page.waitForFunction(
    (want) =>
      (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
        .documentElement.dataset.theme === want,
    theme,
  );
  await waitFor(async () => (await gridPrompts(page)).length === PROMPTS.length, 'the grid after the reload');
  await page.locator('.grid-canvas img.thumb').first().waitFor();
}

describe('pictures first at 1440×900', () => {
  it('an empty library has no boards column; the toolbar is one row; the composer shows by default', async () => {
    const { page } = app;
    await setTheme(page, 'light');
    expect(await library(page).isVisible()).toBe(false);
    expect(await pressed(page, 'Show boards and tags')).toBe(false);
    expect(await composer(page).isVisible()).toBe(true);
    expect(await pressed(page, 'Show composer')).toBe(true);
    const { toolbar } = await measure(page);
    expect(toolbar).toBeLessThan(60);
    await screenshot(page, 'pictures-first-1440-panels-light');
  });

  it('Tab on a picture folds every panel, the grid runs edge to edge, a reload keeps it, and Tab brings them back', async () => {
    const { page } = app;
    await focusPicture(page);
    await page.keyboard.press('Tab');
    await composer(page).waitFor({ state: 'hidden' });
    expect(await pressed(page, 'Show composer')).toBe(false);
    // Tab folded the panels instead of moving on: the keyboard is still on the picture.
    expect(await focusOnPicture(page)).toBe(true);
    const { gridWidth, toolbar } = await measure(page);
    expect(gridWidth).toBeGreaterThanOrEqual(0.95 * 1440);
    expect(toolbar).toBeLessThan(60);
    await screenshot(page, 'pictures-first-1440-hidden-light');

    await page.reload();
    await waitFor(async () => (await gridPrompts(page)).length === PROMPTS.length, 'the grid after the reload');
    expect(await composer(page).isVisible()).toBe(false);
    await focusPicture(page);
    await page.keyboard.press('Tab');
    await composer(page).waitFor();
    expect(await pressed(page, 'Show composer')).toBe(true);
  });

  it('Tab in the search box and Shift+Tab on a picture move the focus and fold nothing', async () => {
    const { page } = app;
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.focus();
    await page.keyboard.press('Tab');
    expect(await box.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).toBe(
      false,
    );
    await focusPicture(page);
    await page.keyboard.press('Shift+Tab');
    expect(await focusOnPicture(page)).toBe(false);
    expect(await composer(page).isVisible()).toBe(true);
  });

  it('the buttons and C fold the composer; an empty boards column opens by hand for a first board, then stays', async () => {
    const { page } = app;
    await toggle(page, 'Show composer').click();
    await composer(page).waitFor({ state: 'hidden' });
    await page.keyboard.press('c');
    await composer(page).waitFor();
    // N on a folded composer brings it back with the prompt ready for typing.
    await page.keyboard.press('c');
    await composer(page).waitFor({ state: 'hidden' });
    await page.locator('body').press('n');
    await composer(page).waitFor();
    await waitFor(
      () =>
        composer(page)
          .getByLabel('Prompt', { exact: true })
          .evaluate((el) => el === el.ownerDocument.activeElement),
      'the prompt to take the keyboard',
    );
    await page.keyboard.press('Escape');

    await toggle(page, 'Show boards and tags').click();
    await library(page).waitFor();
    await library(page).getByRole('button', { name: 'New board' }).click();
    const name = page.getByRole('textbox', { name: 'Board name' });
    await name.fill('Picks');
    await name.press('Enter');
    await library(page)
      .getByRole('button', { name: /^Board Picks/ })
      .waitFor();
    // Holding a board, the column stands by itself in the next session.
    await page.reload();
    await library(page)
      .getByRole('button', { name: /^Board Picks/ })
      .waitFor();
    expect(await pressed(page, 'Show boards and tags')).toBe(true);
    await page.locator('body').press('b');
    await library(page).waitFor({ state: 'hidden' });
    await page.reload();
    await waitFor(async () => (await gridPrompts(page)).length === PROMPTS.length, 'the grid after the reload');
    expect(await library(page).isVisible()).toBe(false);
    await page.locator('body').press('b');
    await library(page).waitFor();
  });

  it('Filters opens a popover of the drop-downs, its badge counts what narrows, Escape closes it', async () => {
    const { page } = app;
    const filters = page.getByRole('banner').getByRole('button', { name: /^Filters/ });
    expect(await filters.getAttribute('aria-label')).toBe('Filters');
    await filters.click();
    const popover = page.getByRole('group', { name: 'Filter and sort' });
    await popover.getByLabel('Status filter').selectOption('failed');
    await waitFor(async () => (await filters.getAttribute('aria-label')) === 'Filters, 1 on', 'the badge to count 1');
    await popover.getByLabel('Status filter').selectOption('');
    await waitFor(async () => (await gridPrompts(page)).length === PROMPTS.length, 'the grid back');
    await screenshot(page, 'pictures-first-1440-filters-light');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await filters.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).toBe(
      true,
    );
    expect(await filters.getAttribute('aria-label')).toBe('Filters');
    // A click outside closes it too.
    await filters.click();
    await popover.waitFor();
    await page.locator('.grid-scroll').click({ position: { x: 5, y: 400 } });
    await popover.waitFor({ state: 'detached' });
    // And Escape with the keyboard elsewhere (here on a picture).
    await filters.click();
    await popover.waitFor();
    await focusPicture(page);
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
  });

  it('dark: panels shown and folded', async () => {
    const { page } = app;
    await setTheme(page, 'dark');
    await composer(page).waitFor();
    await screenshot(page, 'pictures-first-1440-panels-dark');
    await focusPicture(page);
    await page.keyboard.press('Tab');
    await composer(page).waitFor({ state: 'hidden' });
    expect((await measure(page)).gridWidth).toBeGreaterThanOrEqual(0.95 * 1440);
    await screenshot(page, 'pictures-first-1440-hidden-dark');
  });
});

describe('pictures first at 1024×700', () => {
  it('with the panels folded, one toolbar row and the first picture near the top, in both themes', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1024, height: 700 });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      // Still folded from the test above: remembered across the reloads.
      expect(await library(page).isVisible()).toBe(false);
      const { toolbar, firstCardTop, gridWidth } = await measure(page);
      expect(toolbar).toBeLessThan(60);
      expect(firstCardTop).toBeLessThan(120);
      expect(gridWidth).toBeGreaterThanOrEqual(0.95 * 1024);
      await screenshot(page, `pictures-first-1024-hidden-${theme}`);
    }
  });
});
