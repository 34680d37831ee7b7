import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor, type FocusDoc, type ImageLike } from './helpers.js';

const MANY = 'three studies of a heron at dawn';
const ONE = 'a single lemon on a blue plate';

let app: App;

async function seed(host: Host, prompt: string, count: number): Promise<void> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: 64,
    height: 64,
    count,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `job "${prompt}" to finish`,
  );
}

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-expand-',
    seed: async (host) => {
      await seed(host, MANY, 3);
      await seed(host, ONE, 1);
    },
  });
  await expectGrid(app.page, [MANY, ONE]);
}, 120_000);

afterAll(() => app?.close());

describe('one card per job, expandable to its images', () => {
  it('a card with several images shows their count and expands, by keyboard, to a strip of them that opens the viewer', async () => {
    const { page } = app;
    // Only the card with more than one image offers the control.
    expect(await page.getByRole('button', { name: `Show 1 images: ${ONE}` }).count()).toBe(0);
    const toggle = page.getByRole('button', { name: `Show 3 images: ${MANY}` });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('group', { name: `Images of: ${MANY}` }).count()).toBe(0);

    await toggle.focus();
    await page.keyboard.press('Enter');
    const strip = page.getByRole('group', { name: `Images of: ${MANY}` });
    await strip.waitFor();
    expect(await page.getByRole('button', { name: `Hide 3 images: ${MANY}` }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    const images = strip.getByRole('button');
    expect(await images.count()).toBe(3);
    await waitFor(
      async () =>
        await strip
          .locator('img')
          .evaluateAll((nodes) =>
            nodes.every((n) => (n as unknown as ImageLike).complete && (n as unknown as ImageLike).naturalWidth > 0),
          ),
      'the strip thumbnails to load',
    );
    // Enter expanded the card; it did not open the viewer.
    expect(await page.getByRole('dialog').count()).toBe(0);

    // The second image opens the viewer on that image.
    await page.getByRole('button', { name: `Image 2 of 3: ${MANY}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByText('Image 2 of 3', { exact: true }).waitFor();
    expect(
      await page.getByRole('dialog').getByRole('button', { name: 'Image 2', exact: true }).getAttribute('aria-current'),
    ).toBe('true');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');

    // Collapsing removes the strip and the grid is as before.
    await page.getByRole('button', { name: `Hide 3 images: ${MANY}` }).click();
    await waitFor(async () => (await strip.count()) === 0, 'the strip to go');
    await expectGrid(page, [MANY, ONE]);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as FocusDoc).document.activeElement?.getAttribute('aria-expanded'),
      ),
    ).toBe('false');
  });

  it('a tab stop on the newest card follows a new arrival to the top while the person is elsewhere', async () => {
    const { page } = app;
    const tabStop = () => page.locator('.grid-canvas .card-open[tabindex="0"]').getAttribute('aria-label');
    // The viewer left the tab stop on the older card; Home puts it on the newest.
    expect(await tabStop()).toBe(MANY);
    await page.locator('.grid-canvas .card-open[tabindex="0"]').focus();
    await page.keyboard.press('Home');
    await waitFor(async () => (await tabStop()) === ONE, 'Home to move the tab stop to the newest card');
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    const NEW = 'a kite over the dunes, just arrived';
    await seed(app.host, NEW, 1);
    await expectGrid(page, [NEW, MANY, ONE]);
    await waitFor(async () => (await tabStop()) === NEW, 'the tab stop to move to the new card');
  });

  it('a batch of ten wraps in its strip: every image is on screen at once, none cut off', async () => {
    const { page } = app;
    const TEN = 'ten paper lanterns on a river';
    await seed(app.host, TEN, 10);
    await page.getByRole('button', { name: `Show 10 images: ${TEN}` }).click();
    const strip = page.getByRole('group', { name: `Images of: ${TEN}` });
    await strip.waitFor();
    const box = (await strip.boundingBox())!;
    const images = strip.getByRole('button');
    expect(await images.count()).toBe(10);
    for (const image of await images.all()) {
      const b = (await image.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(box.x);
      expect(b.y).toBeGreaterThanOrEqual(box.y);
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
      expect(b.y + b.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
    }
    await screenshot(page, 'batch-of-ten');
    await page.getByRole('button', { name: `Hide 10 images: ${TEN}` }).click();
  });
});
