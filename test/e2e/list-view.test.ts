import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { seriousViolations } from './axe.js';
import { rm, screenshot, tempDir, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, openFilters, waitFor } from './helpers.js';

/**
 * The compact list view, as a person uses it: switched on beside the thumbnail size, a row per job with its text,
 * the grid's keys, curation shared with the grid, remembered across a reload, and accessible in both themes.
 */
const WIDE = 'a red kite over the dunes';
const TALL = 'a lighthouse keeper at the window';
const BATCH = 'three pears on linen';
const STOPPED = 'a cathedral that never finished';
const MODEL = 'atelier-builtin-1';

let app: App;
let outside: string;
let imported: string[];
let wideId: string;

async function seed(host: Host, prompt: string, width: number, height: number, count = 1): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    model: MODEL,
    prompt,
    width,
    height,
    count,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `job "${prompt}" to finish`,
    60_000,
  );
  return job.id;
}

const row = (prompt: string) =>
  app.page.locator('.list-row').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });
const layoutButton = (name: 'Grid' | 'List') =>
  app.page.getByRole('group', { name: 'Layout' }).getByRole('button', { name });
const focusedCard = () =>
  app.page.evaluate(
    () =>
      (
        globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
      ).document.activeElement?.getAttribute('aria-label') ?? null,
  );
const listPrompts = () =>
  app.page
    .locator('.list-canvas .list-open')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));

async function showList(): Promise<void> {
  await layoutButton('List').click();
  await app.page.locator('.list-canvas').waitFor();
}

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-list-files-');
  // Two imported files from months ago: another date section, and a source that is not Atelier.
  const folder = join(outside, 'old');
  await mkdir(folder, { recursive: true });
  const files = (await toolFiles('lv')).slice(0, 2);
  const now = new Date();
  // Mid-month, a day apart: one month's header over both.
  const then = new Date(now.getFullYear(), now.getMonth() - 3, 15, 12);
  for (const [i, f] of files.entries()) {
    const at = new Date(then.getTime() - i * 86_400_000);
    await writeFile(join(folder, f.name), f.bytes);
    await utimes(join(folder, f.name), at, at);
  }
  imported = files.map((f) => f.prompt);
  app = await openApp({
    prefix: 'atelier-e2e-list-',
    seed: async (host) => {
      const { import: started } = await apiCall(host, 'library.import', { paths: [folder], mode: 'link' });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
        'the import to finish',
        60_000,
      );
      // A slow job cancelled at once: a job that ended without its image.
      const { job: stopped } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: STOPPED,
        width: 2048,
        height: 2048,
        count: 1,
        steps: 150,
      });
      await apiCall(host, 'jobs.cancel', { id: stopped.id });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: stopped.id })).status === 'cancelled',
        'the job to be cancelled',
      );
      wideId = await seed(host, WIDE, 96, 64);
      await seed(host, TALL, 64, 96);
      await seed(host, BATCH, 64, 64, 3);
    },
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: async (page) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      // A step that cannot happen fails with its own message, well inside the test's time.
      page.setDefaultTimeout(8_000);
    },
  });
  await expectGrid(app.page, [BATCH, TALL, WIDE, STOPPED, ...imported]);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('the compact list view', () => {
  it('List beside the thumbnail size shows a row per job: prompt, model, size, source, status and count', async () => {
    const { page } = app;
    expect(await layoutButton('Grid').getAttribute('aria-pressed')).toBe('true');
    await showList();
    expect(await layoutButton('List').getAttribute('aria-pressed')).toBe('true');
    expect(await layoutButton('Grid').getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('.grid-canvas').count()).toBe(0);
    // The size is the grid's: it stays in place, switched off.
    expect(await page.getByRole('slider', { name: 'Thumbnails' }).isDisabled()).toBe(true);
    await waitFor(async () => (await listPrompts()).length === 6, 'a row for each of the six jobs');
    expect(await listPrompts()).toEqual([BATCH, TALL, WIDE, STOPPED, ...imported]);

    const wide = row(WIDE);
    expect(await wide.locator('.list-model').textContent()).toBe(MODEL);
    expect(await wide.locator('.list-size').textContent()).toBe('96 × 64');
    expect(await wide.locator('.list-origin').textContent()).toBe('Built-in (offline)');
    expect(await row(TALL).locator('.list-size').textContent()).toBe('64 × 96');
    // The thumbnail keeps the picture's own shape inside its box.
    const img = async (prompt: string) =>
      row(prompt)
        .locator('.list-thumb img')
        .evaluate((el) => ({
          w: (el as unknown as { width: number }).width,
          h: (el as unknown as { height: number }).height,
        }));
    await row(WIDE).locator('.list-thumb img').waitFor();
    expect(await img(WIDE)).toEqual({ w: 44, h: 29 });
    expect(await img(TALL)).toEqual({ w: 29, h: 44 });

    expect(await row(BATCH).locator('.list-status').textContent()).toContain('3 images');
    expect(await row(STOPPED).locator('.list-status .badge').textContent()).toBe('Cancelled');
    expect((await row(STOPPED).locator('.list-message').textContent())?.length).toBeGreaterThan(5);
    expect(await row(imported[0]!).locator('.list-origin').getAttribute('title')).toMatch(/^Imported from /);
    // Sorted by date: a header over today's jobs and one over the month of the imports.
    expect(await page.locator('.list-header h2').allTextContents()).toEqual([
      'Today',
      expect.stringMatching(/^[A-Z][a-z]+ \d{4}$/),
    ]);
    await (await openFilters(page)).getByLabel('Sort').selectOption('rating');
    await waitFor(async () => (await page.locator('.list-header').count()) === 0, 'the headers to go in rating order');
    await (await openFilters(page)).getByLabel('Sort').selectOption('newest');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.locator('.list-header').count()) === 2, 'the headers to come back');
  });

  it('↑ and ↓ move the one tab stop, Enter opens the viewer, Escape gives the keyboard back to the row', async () => {
    const { page } = app;
    await page.locator('.list-open[tabindex="0"]').focus();
    expect(await focusedCard()).toBe(BATCH);
    expect(await page.locator('.list-open[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect(await focusedCard()).toBe(TALL);
    await page.keyboard.press('ArrowDown');
    expect(await focusedCard()).toBe(WIDE);
    await page.keyboard.press('ArrowUp');
    expect(await focusedCard()).toBe(TALL);
    expect(await page.locator('.list-open[tabindex="0"]').getAttribute('aria-label')).toBe(TALL);
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: `Viewer: ${TALL}` });
    await viewer.waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await waitFor(async () => (await focusedCard()) === TALL, 'the row to take the keyboard back');
  });

  it("Space, Ctrl-click and Shift-click select; the selection is the grid's, with its bar", async () => {
    const { page } = app;
    await page.locator('.list-open[tabindex="0"]').focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: WIDE, exact: true }).click({ modifiers: ['Control'] });
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    await bar.waitFor();
    expect(await bar.textContent()).toContain('2 images selected');
    expect(
      await page
        .locator('.list-row.selected .list-open')
        .evaluateAll((n) => n.map((e) => e.getAttribute('aria-label'))),
    ).toEqual([TALL, WIDE]);
    // Shift-click: the range from the last click (WIDE) up to here.
    await page.getByRole('button', { name: BATCH, exact: true }).click({ modifiers: ['Shift'] });
    // Three rows, five images: the batch of three counts as its pictures.
    expect(await bar.textContent()).toContain('5 images selected');
    await layoutButton('Grid').click();
    await expectGrid(page, [BATCH, TALL, WIDE, STOPPED, ...imported]);
    expect(
      await page.locator('.card.selected .card-open').evaluateAll((n) => n.map((e) => e.getAttribute('aria-label'))),
    ).toEqual([BATCH, TALL, WIDE]);
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.waitFor({ state: 'detached' });
    await showList();
  });

  it('a favourite and a rating given in the list show in the grid, and F works on the focused row', async () => {
    const { page } = app;
    await row(WIDE)
      .getByRole('button', { name: `Favorite: ${WIDE}` })
      .click();
    await row(WIDE)
      .getByRole('button', { name: `Unfavorite: ${WIDE}` })
      .waitFor();
    await row(WIDE)
      .getByRole('group', { name: `Rating: ${WIDE}` })
      .getByRole('button', { name: '4 stars' })
      .click();
    await waitFor(async () => (await row(WIDE).locator('.list-star.on').count()) === 4, 'four stars on the row');
    await page.getByRole('button', { name: TALL, exact: true }).focus();
    await page.keyboard.press('f');
    await row(TALL)
      .getByRole('button', { name: `Unfavorite: ${TALL}` })
      .waitFor();

    await layoutButton('Grid').click();
    await expectGrid(page, [BATCH, TALL, WIDE, STOPPED, ...imported]);
    await page.getByRole('button', { name: `Unfavorite: ${WIDE}` }).waitFor();
    await page.getByRole('button', { name: `Unfavorite: ${TALL}` }).waitFor();
    const card = page.locator('.card').filter({ has: page.getByRole('button', { name: WIDE, exact: true }) });
    expect(await card.getByRole('img', { name: /Rated 4 of 5/ }).count()).toBe(1);
    expect((await apiCall(app.host, 'jobs.get', { id: wideId })).images[0]).toMatchObject({
      favorite: true,
      rating: 4,
    });
    await showList();
  });

  it('the choice survives a reload, and so does a return to the grid', async () => {
    const { page } = app;
    await page.reload();
    await page.locator('.list-canvas').waitFor();
    await waitFor(async () => (await listPrompts()).length === 6, 'the list after a reload');
    expect(await layoutButton('List').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.grid-canvas').count()).toBe(0);
    await layoutButton('Grid').click();
    await page.reload();
    await expectGrid(page, [BATCH, TALL, WIDE, STOPPED, ...imported]);
    expect(await page.locator('.list-canvas').count()).toBe(0);
    await showList();
  });

  it('the first Tab ("Skip to images") and ↓ from the search box reach the list row', async () => {
    const { page } = app;
    await page.reload();
    await page.locator('.list-canvas').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await focusedCard()).toBe(BATCH);
    await page.getByRole('searchbox', { name: 'Search' }).click();
    await page.keyboard.press('ArrowDown');
    expect(await focusedCard()).toBe(BATCH);
  });

  it('has no serious or critical axe violations, light and dark (screenshots of both)', async () => {
    const { page } = app;
    await row(BATCH).locator('.list-thumb img').waitFor();
    await page.getByRole('button', { name: TALL, exact: true }).click();
    await page.getByRole('button', { name: BATCH, exact: true }).click({ modifiers: ['Control'] });
    await page.mouse.move(0, 0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'list-view-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => {
      const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame;
      return new Promise<void>((resolve) => raf(() => raf(resolve)));
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'list-view-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
