import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../integration/export/helpers.js';
import { rm, screenshot, tempDir, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

/**
 * Images are what a person counts, selects and exports: three jobs of two images are "All 6" on the tab and in the
 * matches bar, a card and one picture of another are "3 images selected", and their export holds those three files.
 * New work started under a search that hides it is pinned above the grid with "Not in this view", and its toast's
 * Show clears the search and brings it into the grid.
 */
const PAIRS = ['a lantern study, blue', 'a lantern study, amber', 'a lantern study, green'];
const KITE = 'a red kite over the dunes';
const GULL = 'a gull on a post';

let app: App;
let outside: string;
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
    60_000,
  );
  return job.id;
}

const card = (prompt: string) =>
  app.page.locator('.card').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });
const allTab = () => app.page.getByRole('tab', { name: /^All/ });
const selectionBar = () => app.page.getByRole('toolbar', { name: 'Selected images' });

async function darkTheme(): Promise<void> {
  await apiCall(app.host, 'settings.update', { theme: 'dark' });
  await app.page.reload();
  await app.page.waitForFunction(
    () =>
      (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
        .documentElement.dataset.theme === 'dark',
  );
}

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-counts-files-');
  app = await openApp({
    prefix: 'atelier-e2e-counts-',
    seed: async (host) => {
      for (const prompt of PAIRS) ids[prompt] = await seed(host, prompt, 2);
    },
    browser: { viewport: { width: 1440, height: 900 }, colorScheme: 'light' },
  });
  await expectGrid(app.page, [...PAIRS].reverse());
}, 180_000);

// A failed test must not leave a dialog over the next one.
afterEach(async () => {
  for (let i = 0; i < 3 && (await app.page.locator('dialog[open]').count()) > 0; i += 1)
    await app.page.keyboard.press('Escape');
});

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('counts, selection and export in one unit', () => {
  it('the tab and the matches bar count six images; a card and one picture of another are three, and export three files', async () => {
    const { page } = app;
    await waitFor(async () => (await allTab().textContent()) === 'All6', 'the All tab to count 6 images');
    await search(page, 'lantern');
    await expectGrid(page, [...PAIRS].reverse());
    const matches = page.getByRole('toolbar', { name: 'All matches' });
    await matches.getByText('matching images').waitFor();
    expect(await matches.locator('span').first().textContent()).toBe('All 6 matching images:');
    expect(await allTab().textContent()).toBe('All6');

    // One card clicked: the bar shows for it, counting its two images, and stands in the matches bar's place.
    await page.getByRole('button', { name: PAIRS[0]!, exact: true }).click();
    await waitFor(
      async () => (await selectionBar().getByTestId('selection-count').textContent()) === '2 images selected',
      'one card to count its two images',
    );
    expect(await matches.count()).toBe(0);
    // Ctrl on the second picture of another card picks that picture alone.
    await card(PAIRS[1]!)
      .locator('[data-tile="1"]')
      .click({ modifiers: ['Control'] });
    await waitFor(
      async () => (await selectionBar().getByTestId('selection-count').textContent()) === '3 images selected',
      'a card and one picture to count three images',
    );
    expect(await card(PAIRS[1]!).locator('.tile.picked').count()).toBe(1);
    await screenshot(page, 'counts-selection-light');

    await selectionBar().getByRole('button', { name: 'Export 3 selected images' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export 3 selected images' });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const link = dialog.getByRole('link', { name: /Download ZIP \(3 images\)/ });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = join(outside, 'three.zip');
    await download.saveAs(saved);
    const entries = readZip(saved);
    const expected = [
      ...(await apiCall(app.host, 'jobs.get', { id: ids[PAIRS[0]!]! })).images.map((i) => i.id),
      (await apiCall(app.host, 'jobs.get', { id: ids[PAIRS[1]!]! })).images[1]!.id,
    ];
    expect(entries.filter((e) => !e.name.startsWith('manifest.'))).toHaveLength(3);
    // The settings list names each image exported: exactly the three counted.
    const rows = entries
      .find((e) => e.name === 'manifest.csv')!
      .data.toString('utf8')
      .trim()
      .split(/\r?\n/)
      .slice(1);
    expect(rows).toHaveLength(3);
    for (const imageId of expected) expect(rows.some((row) => row.includes(imageId))).toBe(true);
    await dialog.getByText('Exported 3 of 3').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    await darkTheme();
    await search(page, 'lantern');
    await expectGrid(page, [...PAIRS].reverse());
    await page.getByRole('button', { name: PAIRS[0]!, exact: true }).click();
    await card(PAIRS[1]!)
      .locator('[data-tile="1"]')
      .click({ modifiers: ['Control'] });
    await waitFor(
      async () => (await selectionBar().getByTestId('selection-count').textContent()) === '3 images selected',
      'the same three images in the dark theme',
    );
    await screenshot(page, 'counts-selection-dark');
    await selectionBar().getByRole('button', { name: 'Clear selection' }).click();
    await apiCall(app.host, 'settings.update', { theme: 'light' });
    await page.reload();
  }, 120_000);

  it('the viewer and Details count the images of a card alike', async () => {
    const { page } = app;
    await expectGrid(page, [...PAIRS].reverse());
    await page.getByRole('button', { name: PAIRS[2]!, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${PAIRS[2]}` });
    await viewer.waitFor();
    await viewer.getByText('Image 1 of 2', { exact: true }).waitFor();
    const details = viewer.getByRole('complementary', { name: 'Details' });
    await waitFor(
      async () =>
        (await details
          .locator('dt', { hasText: /^Image$/ })
          .locator('xpath=following-sibling::dd[1]')
          .textContent()) === '1 of 2',
      'Details to count as the viewer does',
    );
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  }, 60_000);
});

describe('new work always visible', () => {
  it('a job started under a search that hides it is pinned with "Not in this view"; the toast’s Show clears the search and shows it', async () => {
    const { page } = app;
    await search(page, 'lantern');
    await expectGrid(page, [...PAIRS].reverse());
    const { job } = await apiCall(app.host, 'jobs.submit', {
      provider: 'builtin',
      prompt: KITE,
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    const pinned = page.getByRole('region', { name: 'New work not in this view' });
    await pinned.getByText('Not in this view').waitFor();
    await pinned.getByRole('button', { name: KITE, exact: true }).waitFor();
    // The grid is still the search's: the kite is above it, not in it.
    await expectGrid(page, [...PAIRS].reverse());
    const toast = page.getByRole('status').filter({ hasText: `Started “${KITE}”: not in this view` });
    await toast.waitFor();
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: job.id })).status === 'succeeded',
      'the kite to finish',
      60_000,
    );
    await pinned.locator('img.thumb').first().waitFor();
    await screenshot(page, 'new-work-pinned-light');

    await toast.getByRole('button', { name: 'Show' }).click();
    await waitFor(
      async () => (await page.getByRole('searchbox', { name: 'Search' }).inputValue()) === '',
      'the search to be cleared',
    );
    await expectGrid(page, [KITE, ...[...PAIRS].reverse()]);
    expect(await pinned.count()).toBe(0);
    await waitFor(
      async () => (await card(KITE).locator('.card-open').getAttribute('tabindex')) === '0',
      'the kite to hold the focus in the grid',
    );
  }, 120_000);

  it('in the dark theme too; it stays until dismissed', async () => {
    const { page } = app;
    await darkTheme();
    await search(page, 'lantern');
    await expectGrid(page, [...PAIRS].reverse());
    await apiCall(app.host, 'jobs.submit', {
      provider: 'builtin',
      prompt: GULL,
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
    });
    const pinned = page.getByRole('region', { name: 'New work not in this view' });
    await pinned.getByRole('button', { name: GULL, exact: true }).waitFor();
    await pinned.locator('img.thumb').first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'new-work-pinned-dark');
    await pinned.getByRole('button', { name: `Dismiss: ${GULL}` }).click();
    await pinned.waitFor({ state: 'detached' });
    await expectGrid(page, [...PAIRS].reverse());
    await apiCall(app.host, 'settings.update', { theme: 'light' });
  }, 120_000);
});
