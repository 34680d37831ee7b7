import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { expectGrid, seedJob, waitFor } from './helpers.js';

/** The keyboard's ways to the images: a skip link as the first Tab stop, and ↓ from the search box into the results. */
const FIRST = 'a lantern on a jetty';
const SECOND = 'a jetty in fog';

let app: App;
/** The job of the first result: the newest, SECOND, leads the grid. */
let firstCard: string;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-keys-',
    seed: async (host) => {
      await seedJob(host, FIRST);
      firstCard = await seedJob(host, SECOND);
    },
    browser: { viewport: { width: 1280, height: 800 } },
  });
  await expectGrid(app.page, [SECOND, FIRST]);
}, 120_000);

afterAll(() => app?.close());

const focused = () =>
  app.page.evaluate(() => {
    const el = (
      globalThis as unknown as {
        document: { activeElement: { textContent: string | null; getAttribute(n: string): string | null } | null };
      }
    ).document.activeElement;
    return { text: el?.textContent?.trim() ?? '', card: el?.getAttribute('data-card') ?? null };
  });

describe('keyboard paths to the images', () => {
  it('the first Tab reaches "Skip to images", which puts the keyboard on the first card of the grid', async () => {
    const { page } = app;
    await page.reload();
    await expectGrid(page, [SECOND, FIRST]);
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Skip to images');
    await screenshot(page, 'skip-link');
    await page.keyboard.press('Enter');
    expect((await focused()).card).toBe(firstCard);
  });

  it('↓ in the search box moves onto the first result (with suggestions open it walks them: search.test.ts)', async () => {
    const { page } = app;
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.click();
    await page.keyboard.press('ArrowDown');
    expect((await focused()).card).toBe(firstCard);
  });

  it('a composer field out of range is said inline, next to the field, never as a browser bubble', async () => {
    const { page } = app;
    const composer = page.getByRole('form', { name: 'Composer' });
    await composer.getByLabel('Prompt', { exact: true }).fill('a jetty at noon');
    await composer.getByLabel('Width', { exact: true }).fill('99999');
    await composer.getByRole('button', { name: /^Generate/ }).click();
    const error = composer.locator('.field-error[role="alert"]');
    await error.first().waitFor();
    expect(await error.allInnerTexts()).toEqual([expect.stringMatching(/width/i)]);
    expect(await composer.getByLabel('Width', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await composer.getByLabel('Width', { exact: true }).fill('512');
  });

  it('a selected card shows a check badge and a tint over its picture', async () => {
    const { page } = app;
    const card = page.locator('.card').filter({ has: page.getByRole('button', { name: FIRST, exact: true }) });
    expect(await card.locator('.select-check').count()).toBe(0);
    await card.getByRole('button', { name: FIRST, exact: true }).click();
    await card.locator('.select-check').waitFor();
    const tint = await card
      .locator('.card-open')
      .evaluate(
        (el) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown, p: string): { backgroundColor: string } }
          ).getComputedStyle(el, '::after').backgroundColor,
      );
    expect(tint).not.toMatch(/^(rgba\(0, 0, 0, 0\)|transparent)$/);
    await screenshot(page, 'card-selected');
    await page.keyboard.press('Escape');
  });

  it('the size control takes thumbnails from dense to large, is remembered, and Ctrl − / Ctrl + step it', async () => {
    const { page } = app;
    const cardWidth = async () => (await page.locator('.card-open').first().boundingBox())!.width;
    const before = await cardWidth();
    const slider = page.getByRole('slider', { name: 'Thumbnails' });
    await slider.focus();
    await page.keyboard.press('End');
    await waitFor(async () => (await cardWidth()) > before * 1.5, 'larger thumbnails');
    const large = await cardWidth();
    await page.reload();
    await expectGrid(page, [SECOND, FIRST]);
    expect(await cardWidth()).toBe(large);
    // From a card (not a text field): Ctrl − makes them smaller, Ctrl + larger again.
    await page.locator('.card-open').first().focus();
    // Each press is 40 px of the smallest width; a card fills its column, so a few presses show.
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Control+Minus');
    await waitFor(async () => (await cardWidth()) < large, 'smaller thumbnails');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Control+Equal');
    await waitFor(async () => (await cardWidth()) === large, 'the large size again');
    await slider.focus();
    await page.keyboard.press('Home');
    await waitFor(async () => (await cardWidth()) < before, 'dense thumbnails');
    await screenshot(page, 'thumbs-dense');
    await slider.fill('180');
  });
});
