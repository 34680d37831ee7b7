import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { rm, screenshot, tempDir, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, openFilters, search, waitFor } from './helpers.js';

/**
 * Per-image curation through the headless host, as a person does it: a batch of four where one is good is rated,
 * favourited, tagged, trashed and restored image by image; bulk actions have one Undo; boards and smart boards
 * count live; the grid has date headers and sorts.
 */
const BATCH = 'four studies of a kingfisher';
const PEAR = 'a lone pear on linen';

let app: App;
let outside: string;
let batchId: string;
let pearId: string;

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

const images = async (id: string) => (await apiCall(app.host, 'jobs.get', { id })).images;
const card = (prompt: string) =>
  app.page.locator('.card').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-curation-files-');
  // Two imported files from long ago, so the grid has month headers below Today.
  const folder = join(outside, 'old');
  await mkdir(folder, { recursive: true });
  const files = (await toolFiles('cz')).slice(0, 2);
  const now = new Date();
  const ages = [
    new Date(now.getFullYear(), now.getMonth() - 2, 10, 12),
    new Date(now.getFullYear() - 1, now.getMonth(), 3, 12),
  ];
  for (const [i, f] of files.entries()) {
    await writeFile(join(folder, f.name), f.bytes);
    await utimes(join(folder, f.name), ages[i]!, ages[i]!);
  }
  app = await openApp({
    prefix: 'atelier-e2e-curation-',
    seed: async (host) => {
      const { import: started } = await apiCall(host, 'library.import', { paths: [folder], mode: 'link' });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
        'the import to finish',
        60_000,
      );
      pearId = await seed(host, PEAR, 1);
      batchId = await seed(host, BATCH, 4);
    },
    browser: { viewport: { width: 1440, height: 900 } },
  });
  await expectGrid(app.page, [BATCH, PEAR, ...files.map((f) => f.prompt)]);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('culling by keyboard, image by image', () => {
  it('→ steps into a batch, 4 rates that one image and moves on, F favourites the next; the card shows each image’s own', async () => {
    const { page } = app;
    await page.getByRole('button', { name: BATCH, exact: true }).click();
    await page.keyboard.press('ArrowRight');
    await card(BATCH).locator('.count-badge', { hasText: '2/4' }).waitFor();
    await page.keyboard.press('4');
    // Rated, and on to the third image.
    await card(BATCH).locator('.count-badge', { hasText: '3/4' }).waitFor();
    await waitFor(
      async () => (await images(batchId)).map((i) => i.rating ?? 0).join() === '0,4,0,0',
      'image 2 alone to be rated 4',
    );
    await page.keyboard.press('f');
    await waitFor(
      async () => (await images(batchId)).map((i) => i.favorite === true).join() === 'false,false,true,false',
      'image 3 alone to be a favourite',
    );
    await card(BATCH).getByRole('img', { name: 'favorite' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await card(BATCH).getByRole('img', { name: 'Rated 4 of 5' }).waitFor();
    await screenshot(page, 'curation-card-one-image-rated');
    // 0 clears it again.
    await page.keyboard.press('0');
    await waitFor(async () => (await images(batchId))[1]?.rating === undefined, 'the rating to clear');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('4');
    await waitFor(async () => (await images(batchId))[1]?.rating === 4, 'image 2 rated 4 again');
  }, 60_000);

  it('Delete trashes one image of the batch: the card keeps the other three; in the Trash it shows alone and Restore brings it back', async () => {
    const { page } = app;
    const second = (await images(batchId))[1]!.id;
    await page.getByRole('button', { name: BATCH, exact: true }).click();
    // Home: the newest card's first image; → the second.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await card(BATCH).locator('.count-badge', { hasText: '2/4' }).waitFor();
    await page.keyboard.press('Delete');
    await page.getByRole('status').filter({ hasText: 'Moved 1 image to Trash.' }).waitFor();
    await card(BATCH)
      .locator('.count-badge', { hasText: /^(3|\d\/3)$/ })
      .waitFor();
    expect((await images(batchId)).filter((i) => i.trashed === true).map((i) => i.id)).toEqual([second]);
    expect((await apiCall(app.host, 'jobs.get', { id: batchId })).trashedAt).toBeNull();

    await page.getByRole('tab', { name: /Trash/ }).click();
    await expectGrid(page, [BATCH]);
    expect(await card(BATCH).locator('.count-badge').count()).toBe(0);
    // Delete in the trash would delete permanently (test/e2e/trash.test.ts): the card's Restore brings it back.
    await card(BATCH)
      .getByRole('button', { name: /^Restore:/ })
      .click();
    await waitFor(async () => (await images(batchId)).every((i) => i.trashed !== true), 'the image to be restored');
    await page.getByRole('tab', { name: /All/ }).click();
    await card(BATCH)
      .locator('.count-badge', { hasText: /^(4|\d\/4)$/ })
      .waitFor();
    // Restored as it was: still rated 4.
    expect((await images(batchId))[1]?.rating).toBe(4);
  }, 60_000);
});

describe('tags, bulk actions and one Undo', () => {
  it('tags both selected jobs’ five images at once, and the details panel edits one image’s tags with suggestions', async () => {
    const { page } = app;
    await page.getByRole('button', { name: BATCH, exact: true }).click();
    await page.getByRole('button', { name: PEAR, exact: true }).click({ modifiers: ['Control'] });
    const tagBox = page.getByRole('textbox', { name: 'Tag 5 selected images' });
    await tagBox.fill('keeper');
    await tagBox.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Tagged 5 images keeper.' }).waitFor();
    await waitFor(
      async () => (await apiCall(app.host, 'tags.list', {})).items.some((t) => t.name === 'keeper' && t.count === 5),
      'five images tagged keeper',
    );
    await page.getByRole('region', { name: 'Tags' }).getByRole('button', { name: 'Tag keeper, 5 images' }).waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    await page.getByRole('button', { name: PEAR, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${PEAR}` });
    await viewer.getByRole('listitem').filter({ hasText: 'keeper' }).waitFor();
    const add = viewer.getByRole('combobox', { name: 'Add a tag' });
    await add.fill('still life');
    await add.press('Enter');
    await waitFor(
      async () => (await images(pearId))[0]?.tags?.join() === 'keeper,still life',
      'the pear tagged still life',
    );
    await viewer.getByRole('button', { name: 'Remove tag keeper' }).click();
    await waitFor(async () => (await images(pearId))[0]?.tags?.join() === 'still life', 'keeper removed from the pear');
    await viewer.getByRole('radio', { name: '5 stars' }).click();
    await waitFor(async () => (await images(pearId))[0]?.rating === 5, 'the pear rated 5 from the panel');
    await screenshot(page, 'curation-details-panel');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
  }, 60_000);

  it('rates all matches of a search in one action, and one Undo puts every image back as it was', async () => {
    const { page } = app;
    await search(page, 'kingfisher');
    await expectGrid(page, [BATCH]);
    const bar = page.getByRole('toolbar', { name: 'All matches' });
    await bar.getByText('All 4 matching images:').waitFor();
    await bar.getByRole('combobox', { name: 'Rate 4 matching images' }).selectOption('2');
    await waitFor(async () => (await images(batchId)).every((i) => i.rating === 2), 'all four rated 2');
    await page
      .getByRole('status')
      .filter({ hasText: 'Rated 4 images ★★.' })
      .getByRole('button', { name: 'Undo' })
      .click();
    await waitFor(
      async () => (await images(batchId)).map((i) => i.rating ?? 0).join() === '0,4,0,0',
      'the ratings as they were',
    );
    await search(page, '');
  }, 60_000);

  it('renames a tag, and renaming it onto another merges them', async () => {
    const { page } = app;
    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByRole('button', { name: 'Rename tag still life' }).click({ force: true });
    const field = page.getByRole('textbox', { name: /Rename tag still life/ });
    await field.fill('keeper');
    await field.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: /Merged “still life” into “keeper”/ })
      .waitFor();
    await waitFor(
      async () =>
        JSON.stringify((await apiCall(app.host, 'tags.list', {})).items) ===
        JSON.stringify([{ name: 'keeper', count: 5 }]),
      'one tag, keeper, on five images',
    );
  }, 30_000);
});

describe('boards', () => {
  it('makes a board, takes a card dropped on it, shows it on a click, renames and deletes it', async () => {
    const { page } = app;
    const boards = page.getByRole('region', { name: 'Boards' });
    await boards.getByRole('button', { name: 'New board' }).click();
    const name = page.getByRole('textbox', { name: 'Board name' });
    await name.fill('Picks');
    await name.press('Enter');
    const picks = boards.getByRole('button', { name: /^Board Picks, 0 images$/ });
    await picks.waitFor();
    await page.getByRole('button', { name: PEAR, exact: true }).dragTo(picks);
    await boards.getByRole('button', { name: /^Board Picks, 1 image$/ }).waitFor();
    await screenshot(page, 'curation-boards-sidebar');

    await boards.getByRole('button', { name: /^Board Picks/ }).click();
    await waitFor(
      async () => (await page.getByRole('searchbox', { name: 'Search' }).inputValue()) === 'board:Picks',
      'the search to show the board',
    );
    await expectGrid(page, [PEAR]);
    // Showing the board, its images can leave it (the image stays in the library), and Undo puts them back.
    await page
      .getByRole('toolbar', { name: 'All matches' })
      .getByRole('button', { name: 'Remove 1 matching image from Picks' })
      .click();
    await boards.getByRole('button', { name: /^Board Picks, 0 images$/ }).waitFor();
    const removed = page
      .getByRole('status')
      .filter({ hasText: 'Removed 1 image from Picks. They stay in the library.' });
    await removed.getByRole('button', { name: 'Undo' }).click();
    await boards.getByRole('button', { name: /^Board Picks, 1 image$/ }).waitFor();
    await boards.getByRole('button', { name: /^Board Picks/ }).click();
    await expectGrid(page, [BATCH, PEAR, 'a moth aonecz', 'a lamp ajpegcz']);

    await boards.getByRole('button', { name: 'Rename board Picks' }).click({ force: true });
    const rename = page.getByRole('textbox', { name: 'Rename board Picks' });
    await rename.fill('Best');
    await rename.press('Enter');
    await boards.getByRole('button', { name: /^Board Best, 1 image$/ }).waitFor();
    await boards.getByRole('button', { name: 'Delete board Best' }).click({ force: true });
    await page
      .getByRole('dialog', { name: /Delete the board “Best”/ })
      .getByRole('button', { name: 'Delete board' })
      .click();
    await waitFor(async () => (await apiCall(app.host, 'boards.list', {})).items.length === 0, 'the board to go');
    // Its image stays in the library.
    expect((await apiCall(app.host, 'jobs.get', { id: pearId })).trashedAt).toBeNull();
  }, 60_000);

  it('a smart board saves the search and its count follows changes made anywhere, live', async () => {
    const { page } = app;
    await search(page, 'tag:keeper');
    await expectGrid(page, [BATCH, PEAR]);
    const boards = page.getByRole('region', { name: 'Boards' });
    await boards.getByRole('button', { name: 'Save search as smart board' }).click();
    const name = page.getByRole('textbox', { name: 'Smart board name' });
    await name.fill('Keepers');
    await name.press('Enter');
    await boards.getByRole('button', { name: /^Smart board Keepers, 5 images$/ }).waitFor();
    // Another window (here the API) untags one image: the count drops without a reload.
    const first = (await images(batchId))[0]!.id;
    await apiCall(app.host, 'images.tag', { ids: [first], remove: ['keeper'] });
    await boards.getByRole('button', { name: /^Smart board Keepers, 4 images$/ }).waitFor();
    await search(page, '');
  }, 60_000);
});

describe('the grid: date headers and sort', () => {
  it('newest first shows Today, then the months, sticky while scrolling; rating order has no headers; oldest reverses', async () => {
    const { page } = app;
    const headers = () => page.locator('.date-header h2').allTextContents();
    await waitFor(async () => (await headers()).length === 3, 'three date headers');
    const [today, ...months] = await headers();
    expect(today).toBe('Today');
    expect(months.every((m) => /^[A-Z][a-z]+ \d{4}$/.test(m))).toBe(true);
    await screenshot(page, 'curation-grid-date-headers');

    const sort = (await openFilters(page)).getByRole('combobox', { name: 'Sort' });
    await sort.selectOption('oldest');
    await waitFor(async () => (await headers())[2] === 'Today', 'Today last when oldest first');
    const prompts = await page
      .locator('.grid-canvas .card-open')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));
    expect(prompts.slice(-2)).toEqual([PEAR, BATCH]);

    await sort.selectOption('rating');
    await waitFor(async () => (await headers()).length === 0, 'no headers in rating order');
    // The pear (rated 5) before the batch (best image 4), then the unrated.
    await waitFor(async () => {
      const order = await page
        .locator('.grid-canvas .card-open')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));
      return order[0] === PEAR && order[1] === BATCH;
    }, 'rated first');

    await sort.selectOption('random');
    await page.getByRole('button', { name: 'Shuffle again' }).waitFor();
    await expectGrid(page, [BATCH, PEAR, 'a moth aonecz', 'a lamp ajpegcz']);
    await sort.selectOption('newest');
    let seen: string[] = [];
    await waitFor(
      async () => (seen = await headers()).length === 3,
      `headers back (saw ${JSON.stringify(seen)})`,
      30_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; last seen ${JSON.stringify(seen)}`);
    });
    await page.keyboard.press('Escape');
  }, 60_000);
});
