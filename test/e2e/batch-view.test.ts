import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { screenshot, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor, type ImageLike } from './helpers.js';

/**
 * A batch in view: every picture of a batch inside its card, each with its own marks at rest, each its own target;
 * expanding gives larger pictures; at the smallest size no control reaches over a neighbour.
 */
const FOUR = 'four studies of a kingfisher';
const TWO = 'two pears on linen';
const SIX = 'six moths on a lamp';
const ONE = 'a single plum';
const STOPPED = 'a slow cathedral, stopped';

let app: App;
const ids: Record<string, string> = {};

async function seed(host: Host, prompt: string, count: number): Promise<string> {
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
  return job.id;
}

const imagesOf = async (host: Host, id: string) => (await apiCall(host, 'jobs.get', { id })).images;
const card = (prompt: string) =>
  app.page.locator('.card').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });
const boxOf = async (locator: ReturnType<typeof card>) => (await locator.boundingBox())!;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-batch-view-',
    seed: async (host) => {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: STOPPED,
        width: 2048,
        height: 2048,
        count: 1,
        steps: 150,
      });
      ids[STOPPED] = job.id;
      await apiCall(host, 'jobs.cancel', { id: job.id });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'cancelled',
        'the slow job to be cancelled',
      );
      ids[ONE] = await seed(host, ONE, 1);
      ids[SIX] = await seed(host, SIX, 6);
      ids[TWO] = await seed(host, TWO, 2);
      ids[FOUR] = await seed(host, FOUR, 4);
      const four = await imagesOf(host, ids[FOUR]);
      await apiCall(host, 'images.setRating', { ids: [four[1]!.id], rating: 4 });
      await apiCall(host, 'images.setFavorite', { ids: [four[2]!.id], favorite: true });
      const one = await imagesOf(host, ids[ONE]);
      await apiCall(host, 'images.setRating', { ids: [one[0]!.id], rating: 5 });
      await apiCall(host, 'images.setFavorite', { ids: [one[0]!.id], favorite: true });
    },
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await expectGrid(app.page, [FOUR, TWO, SIX, ONE, STOPPED]);
}, 180_000);

afterAll(() => app?.close());

/** Opacity of an element after its ancestors' (what the eye gets), with the pointer away from every card. */
const shownOpacity = (locator: ReturnType<typeof card>) =>
  locator.evaluate((el) => {
    let o = 1;
    const g = globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } };
    for (let n = el as unknown as { parentElement: unknown } | null; n; n = n.parentElement as typeof n)
      o *= Number(g.getComputedStyle(n).opacity);
    return o;
  });

describe('a batch in view', () => {
  it('a batch of four shows its four pictures two by two at rest, each with its own rating and heart', async () => {
    const { page } = app;
    await page.mouse.move(1, 1);
    const four = card(FOUR);
    const imgs = four.locator('.batch-mosaic img');
    expect(await imgs.count()).toBe(4);
    await waitFor(
      async () =>
        await imgs.evaluateAll((nodes) =>
          nodes.every((n) => (n as unknown as ImageLike).complete && (n as unknown as ImageLike).naturalWidth > 0),
        ),
      'the four pictures to load',
    );
    // Two by two, inside the card.
    const outer = await boxOf(four);
    const boxes = await Promise.all((await imgs.all()).map((i) => i.boundingBox()));
    const xs = new Set(boxes.map((b) => Math.round(b!.x)));
    const ys = new Set(boxes.map((b) => Math.round(b!.y)));
    expect([xs.size, ys.size]).toEqual([2, 2]);
    for (const b of boxes) {
      expect(b!.x).toBeGreaterThanOrEqual(outer.x - 0.5);
      expect(b!.y).toBeGreaterThanOrEqual(outer.y - 0.5);
      expect(b!.x + b!.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
      expect(b!.y + b!.height).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
    }
    // At rest (no hover, no focus inside): the caption is hidden, the marks are not.
    expect(await shownOpacity(four.locator('.card-meta'))).toBe(0);
    const tiles = four.locator('.batch-mosaic .tile');
    const second = tiles.nth(1).locator('.curation-badges');
    const third = tiles.nth(2).locator('.curation-badges');
    expect(await second.locator('.stars').textContent()).toBe('★★★★');
    expect(await third.locator('.heart').textContent()).toBe('♥');
    expect(await shownOpacity(second)).toBe(1);
    expect(await shownOpacity(third)).toBe(1);
    expect(await tiles.nth(0).locator('.curation-badges').count()).toBe(0);
    expect(await tiles.nth(3).locator('.curation-badges').count()).toBe(0);
    // A single picture's marks show at rest too.
    const plum = card(ONE).locator('.card-open > .curation-badges');
    expect(await plum.locator('.stars').textContent()).toBe('★★★★★');
    expect(await shownOpacity(plum)).toBe(1);
  });

  it('two share a row in a card two pictures wide; beyond four, three pictures and "+N"', async () => {
    const two = card(TWO);
    const [a, b] = await Promise.all((await two.locator('.batch-mosaic img').all()).map((i) => i.boundingBox()));
    expect(Math.round(a!.y)).toBe(Math.round(b!.y));
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 0.5);
    const outer = await boxOf(two);
    expect(outer.width / outer.height).toBeGreaterThan(1.9);

    const six = card(SIX);
    expect(await six.locator('.batch-mosaic .tile').count()).toBe(4);
    const more = six.locator('.batch-mosaic .tile.more');
    expect(await more.getAttribute('data-more')).toBe('+3');
    expect(
      await more.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown, p: string): { content: string } }).getComputedStyle(
            el,
            '::after',
          ).content,
      ),
    ).toBe('"+3"');
  });

  it('each picture is its own target: a click puts the focus on it, a double click opens the viewer there', async () => {
    const { page } = app;
    const tiles = card(FOUR).locator('.batch-mosaic .tile');
    await tiles.nth(2).click();
    await waitFor(
      async () => (await tiles.nth(2).getAttribute('class'))?.includes('focused') === true,
      'tile 3 in focus',
    );
    expect(await card(FOUR).locator('.count-badge').textContent()).toBe('3/4');
    // Culling from the keyboard, the pointer away: every picture keeps its marks, the caption stays out of the way.
    await page.mouse.move(1, 1);
    // The marks fade back in (a short transition) once the pointer has left.
    await expect.poll(() => shownOpacity(tiles.nth(2).locator('.curation-badges'))).toBe(1);
    await expect.poll(() => shownOpacity(card(FOUR).locator('.card-meta'))).toBe(0);
    // The keyboard goes on from that picture.
    await page.keyboard.press('ArrowRight');
    await waitFor(
      async () => (await tiles.nth(3).getAttribute('class'))?.includes('focused') === true,
      'tile 4 in focus',
    );
    await tiles.nth(1).dblclick();
    await page.getByRole('dialog').getByText('Image 2 of 4', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    // Enter opens the picture in focus.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByText('Image 3 of 4', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
  });

  it('screenshots, light and dark', async () => {
    const { page } = app;
    await page.mouse.move(1, 1);
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await screenshot(page, 'batch-view-light');
    await apiCall(app.host, 'settings.update', { theme: 'dark' });
    // The theme lands with the settings on the next load.
    await page.reload();
    await expectGrid(page, [FOUR, TWO, SIX, ONE, STOPPED]);
    await page.mouse.move(1, 1);
    await waitFor(
      () =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
              .documentElement.dataset.theme === 'dark',
        ),
      'the dark theme',
    );
    await screenshot(page, 'batch-view-dark');
    await apiCall(app.host, 'settings.update', { theme: 'light' });
    await page.reload();
    await expectGrid(page, [FOUR, TWO, SIX, ONE, STOPPED]);
  });

  it('expanding a batch gives pictures larger than its card', async () => {
    const { page } = app;
    const cardHeight = (await boxOf(card(FOUR))).height;
    await page.getByRole('button', { name: `Show 4 images: ${FOUR}` }).click();
    const strip = page.getByRole('group', { name: `Images of: ${FOUR}` });
    await strip.waitFor();
    const pictures = strip.getByRole('button');
    expect(await pictures.count()).toBe(4);
    for (const picture of await pictures.all())
      expect((await picture.boundingBox())!.height).toBeGreaterThan(cardHeight);
    await screenshot(page, 'batch-view-expanded');
    await page.getByRole('button', { name: `Hide 4 images: ${FOUR}` }).click();
    await waitFor(async () => (await strip.count()) === 0, 'the strip to go');
  });

  it('at the smallest thumbnails every card keeps its controls inside itself, on hover too', async () => {
    const { page } = app;
    const slider = page.getByRole('slider', { name: 'Thumbnails' });
    await slider.focus();
    await page.keyboard.press('Home');
    await waitFor(async () => (await boxOf(card(ONE))).height < 130, 'the smallest thumbnails');
    for (const prompt of [FOUR, TWO, SIX, ONE, STOPPED]) {
      const c = card(prompt);
      await c.hover();
      const outer = await boxOf(c);
      const controls = c.locator('.card-actions > *');
      for (const control of await controls.all()) {
        const b = await control.boundingBox();
        if (b === null) continue;
        expect(b.x, `${prompt}: a control's left edge`).toBeGreaterThanOrEqual(outer.x - 0.5);
        expect(b.x + b.width, `${prompt}: a control's right edge`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
      }
    }
    await card(ONE).hover();
    await screenshot(page, 'batch-view-smallest');
    await slider.fill('180');
  });

  it('a cancelled card is named by what it shows (axe: label-content-name-mismatch)', async () => {
    const { page } = app;
    await card(STOPPED).locator('.tile-status', { hasText: 'Cancelled' }).waitFor();
    // Retried, and the retry cancelled too: both cards carry a link to the other.
    const { job } = await apiCall(app.host, 'jobs.retry', { id: ids[STOPPED]! });
    await apiCall(app.host, 'jobs.cancel', { id: job.id });
    await page.getByRole('button', { name: `Retried as new job: show the retry of ${STOPPED}` }).waitFor();
    await page.getByRole('button', { name: `Retry of earlier job: show the job this retried of ${STOPPED}` }).waitFor();
    await waitFor(
      async () => (await page.locator('.card.compact .tile-status', { hasText: 'Cancelled' }).count()) === 2,
      'both cards cancelled',
    );
    const found = await seriousViolations(page, '.grid-canvas');
    expect(found.filter((v) => v.id === 'label-content-name-mismatch')).toEqual([]);
    expect(found).toEqual([]);
    // The status a sighted person reads is what a screen reader hears with the card.
    const described = await card(STOPPED)
      .first()
      .locator('.card-open')
      .evaluate((el) => {
        const id = el.getAttribute('aria-describedby');
        const doc = (
          globalThis as unknown as { document: { getElementById(i: string): { textContent: string } | null } }
        ).document;
        return id === null ? '' : (doc.getElementById(id)?.textContent ?? '');
      });
    expect(described).toContain('Cancelled');
  });
});
