import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type Host, openApp, type App } from './harness.js';
import { seriousViolations } from './axe.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

/**
 * Compare as a person reaches it: two cards selected, Compare in the selection bar, the two images side by side on dark,
 * one wheel zooms both alike, and the settings diff marks only what differs (the prompt and the steps, not the seed).
 */
const FIRST = 'a copper kettle, morning light';
const SECOND = 'a copper kettle, evening light';

let app: App;

async function seed(host: Host, prompt: string, steps: number): Promise<void> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: 512,
    height: 512,
    count: 1,
    steps,
    seed: 4242,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `job "${prompt}" to finish`,
    90_000,
  );
}

const dialog = () => app.page.getByRole('dialog', { name: 'Compare 2 images' });
const transforms = () =>
  dialog()
    .locator('img.zoom-image')
    .evaluateAll((imgs) => imgs.map((i) => (i as unknown as { style: { transform: string } }).style.transform));

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-compare-',
    seed: async (host) => {
      await seed(host, FIRST, 2);
      await seed(host, SECOND, 3);
    },
    browser: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  });
  await expectGrid(app.page, [SECOND, FIRST]);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

// A failed test must not leave Compare open over the next one.
afterEach(async () => {
  if ((await app.page.locator('dialog.compare-view').count()) > 0) await app.page.keyboard.press('Escape');
});

describe('compare', () => {
  it('shows two selected images side by side, zooms and pans them together, diffs only what differs, and Escape closes', async () => {
    const page = app.page;
    await page.getByRole('button', { name: FIRST, exact: true }).click();
    await page.getByRole('button', { name: SECOND, exact: true }).click({ modifiers: ['Control'] });
    await page
      .getByRole('toolbar', { name: 'Selected images' })
      .getByRole('button', { name: 'Compare 2 selected images' })
      .click();

    await dialog().waitFor();
    const panes = dialog().locator('.zoom-pane');
    expect(await panes.count()).toBe(2);
    const before = await transforms();
    expect(before[0]).toBe(before[1]);

    // A wheel over the first pane zooms it around the pointer; the second follows with the same transform.
    const box = (await panes.nth(0).boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
    await page.mouse.wheel(0, -600);
    await waitFor(async () => (await transforms())[0] !== before[0], 'the first pane to zoom', 5_000);
    await waitFor(async () => new Set(await transforms()).size === 1, 'the second pane to follow', 5_000);
    expect(Number(await panes.nth(1).getAttribute('data-zoom'))).toBeGreaterThan(
      Number(before[0]!.match(/scale\(([\d.]+)\)/)![1]) * 100,
    );

    // A drag on the second pane pans the first the same way.
    const zoomed = (await transforms())[0];
    const box2 = (await panes.nth(1).boundingBox())!;
    await page.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
    await page.mouse.down();
    await page.mouse.move(box2.x + box2.width / 2 + 60, box2.y + box2.height / 2 + 40, { steps: 4 });
    await page.mouse.up();
    await waitFor(async () => (await transforms())[0] !== zoomed, 'the first pane to pan', 5_000);
    await waitFor(async () => new Set(await transforms()).size === 1, 'both panes at one pan', 5_000);

    const table = dialog().getByRole('table', { name: 'Settings compared' });
    await waitFor(
      async () => (await table.getByRole('row', { name: /^Steps/ }).textContent())?.includes('3') === true,
      'the steps to load',
      10_000,
    );
    const highlighted = await table
      .locator('tr')
      .evaluateAll((rows) =>
        rows
          .filter((r) => r.querySelector('td[data-differs="true"]') !== null)
          .map((r) => r.querySelector('th')!.textContent),
      );
    expect(highlighted).toEqual(['Prompt', 'Steps']);
    expect(await table.locator('td[data-differs="true"]').count()).toBe(4);

    // The keys zoom every pane alike too: + steps in, Ctrl+0 fits them all again.
    const panned = (await transforms())[0];
    await page.keyboard.press('+');
    await waitFor(
      async () => (await transforms())[0] !== panned && new Set(await transforms()).size === 1,
      'both panes a step further in',
      15_000,
    );
    await page.keyboard.press('Control+0');
    await waitFor(
      async () => (await transforms())[0] === before[0] && new Set(await transforms()).size === 1,
      'both panes fitted again',
      15_000,
    );

    expect(await seriousViolations(page)).toEqual([]);
    await page.mouse.move(0, 0);
    const shot = await screenshot(page, 'compare');
    expect(shot.endsWith('compare.png')).toBe(true);

    await page.keyboard.press('Escape');
    await waitFor(async () => (await dialog().count()) === 0, 'compare to close', 5_000);
  }, 120_000);

  it('lays two images one over the other, split by a slider, at one zoom', async () => {
    const page = app.page;
    await page.getByRole('button', { name: FIRST, exact: true }).click();
    await page.getByRole('button', { name: SECOND, exact: true }).click({ modifiers: ['Control'] });
    await page
      .getByRole('toolbar', { name: 'Selected images' })
      .getByRole('button', { name: 'Compare 2 selected images' })
      .click();
    await dialog().getByRole('button', { name: 'Split' }).click();
    const figures = dialog().locator('figure.compare-pane');
    const clip = () => figures.nth(1).evaluate((f) => (f as unknown as { style: { clipPath: string } }).style.clipPath);
    expect(await clip()).toBe('inset(0px 0px 0px 50%)');
    // Both figures fill one box: the same place on the page.
    expect(await figures.nth(0).boundingBox()).toEqual(await figures.nth(1).boundingBox());

    await dialog().getByRole('slider', { name: 'Split position' }).fill('30');
    await waitFor(async () => (await clip()) === 'inset(0px 0px 0px 30%)', 'the split to move to 30%', 5_000);

    // Left of the split the first image takes the wheel; the second, drawn over it, follows.
    const before = await transforms();
    const box = (await figures.nth(0).boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.5);
    await page.mouse.wheel(0, -500);
    await waitFor(async () => (await transforms())[0] !== before[0], 'the first image to zoom', 5_000);
    await waitFor(async () => new Set(await transforms()).size === 1, 'the second to follow', 5_000);
    // The handle on the split line drags it.
    const handle = (await dialog().locator('.compare-split-handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, handle.y + handle.height / 2, { steps: 5 });
    await page.mouse.up();
    await waitFor(
      async () => Math.abs(Number((await clip()).match(/([\d.]+)%/)![1]) - 70) < 1,
      'the split dragged to 70%',
      15_000,
    );
    await page.mouse.move(0, 0);
    await screenshot(page, 'compare-split');

    await dialog().getByRole('button', { name: 'Split' }).click();
    expect(await dialog().locator('.compare-split').count()).toBe(0);
    await page.keyboard.press('Escape');
    await waitFor(async () => (await dialog().count()) === 0, 'compare to close', 5_000);
  }, 120_000);

  it('offers Compare for two to four selected images only', async () => {
    const page = app.page;
    const more = ['a pewter jug', 'a brass bell', 'a tin cup'];
    for (const prompt of more) {
      const { job } = await apiCall(app.host, 'jobs.submit', {
        provider: 'builtin',
        prompt,
        width: 64,
        height: 64,
        count: 1,
        steps: 1,
      });
      await waitFor(
        async () => (await apiCall(app.host, 'jobs.get', { id: job.id })).status === 'succeeded',
        `job "${prompt}" to finish`,
        60_000,
      );
    }
    const all = [FIRST, SECOND, ...more];
    for (const prompt of all) await page.getByRole('button', { name: prompt, exact: true }).waitFor();
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    await page.getByRole('button', { name: all[0]!, exact: true }).click();
    for (const prompt of all.slice(1))
      await page.getByRole('button', { name: prompt, exact: true }).click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Favorite 5 selected images' }).waitFor();
    expect(await bar.getByRole('button', { name: /^Compare/ }).count()).toBe(0);

    await page.getByRole('button', { name: all[4]!, exact: true }).click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Compare 4 selected images' }).click();
    const four = page.getByRole('dialog', { name: 'Compare 4 images' });
    await four.waitFor();
    expect(await four.locator('.zoom-pane').count()).toBe(4);
    // Split is for two only.
    expect(await four.getByRole('button', { name: 'Split' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await waitFor(async () => (await four.count()) === 0, 'compare to close', 5_000);
  }, 120_000);
});
