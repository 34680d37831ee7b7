import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

/** The search box as a person meets it: what it cannot read, what it suggests, its help card, counts that follow it. */
const OWL = 'an owl in the červená light';
const HARE = 'a hare in snow';

let app: App;

async function seed(host: Host, prompt: string, count: number, seed: number): Promise<void> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: 64,
    height: 64,
    count,
    steps: 2,
    seed,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `job "${prompt}" to finish`,
    60_000,
  );
}

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-search-',
    seed: async (host) => {
      await seed(host, OWL, 2, 424242);
      await seed(host, HARE, 1, 7);
    },
    browser: { viewport: { width: 1440, height: 900 } },
  });
  await expectGrid(app.page, [OWL, HARE]);
}, 120_000);

afterAll(() => app?.close());

const tab = (name: string) => app.page.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('the search box', () => {
  it('finds by a setting, and the tab counts follow the query', async () => {
    const { page } = app;
    // The tabs count images: the owl's two and the hare.
    await waitFor(async () => (await tab('All').textContent()) === 'All3', 'All to count 3');
    await search(page, 'seed:424242');
    await expectGrid(page, [OWL]);
    await waitFor(async () => (await tab('All').textContent()) === 'All1', 'All to count the one match');
    await search(page, 'cervena');
    await expectGrid(page, [OWL]);
    await waitFor(async () => (await tab('All').textContent()) === 'All2', 'All to count the owl’s two');
    await search(page, '');
    await waitFor(async () => (await tab('All').textContent()) === 'All3', 'All back to 3');
  }, 60_000);

  it('a search it cannot read says where and why under the box, and the results stay', async () => {
    const { page } = app;
    await search(page, 'hare');
    await expectGrid(page, [HARE]);
    await search(page, 'hare steps:abc');
    const alert = page.getByRole('alert').filter({ hasText: 'Can’t read this search:' });
    await alert.waitFor();
    // The mark sits at the value it could not read.
    expect(await alert.locator('mark').textContent()).toBe('a');
    await expectGrid(page, [HARE]);
    await screenshot(page, 'search-error');
    await search(page, 'hare steps:2');
    await alert.waitFor({ state: 'detached' });
    await search(page, '');
  }, 60_000);

  it('suggests keys and then values, by keyboard, replacing what is under the caret', async () => {
    const { page } = app;
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('');
    await box.pressSequentially('sourc');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: /source:/ }).waitFor();
    await box.press('ArrowDown');
    await box.press('Enter');
    await waitFor(async () => (await box.inputValue()) === 'source:', 'the key to replace the word');
    // The key asks for its values at once; the arrows walk to one and Enter puts it in.
    await list.getByRole('option', { name: /^atelier/ }).waitFor();
    await screenshot(page, 'search-suggestions');
    const labels = await list.getByRole('option').allTextContents();
    const at = labels.findIndex((l) => l.startsWith('atelier'));
    for (let i = 0; i <= at; i += 1) await box.press('ArrowDown');
    expect(await list.getByRole('option', { selected: true }).textContent()).toMatch(/^atelier/);
    await box.press('Enter');
    await waitFor(async () => (await box.inputValue()) === 'source:atelier ', 'the value to follow the key');
    await expectGrid(page, [OWL, HARE]);
    await search(page, '');
  }, 60_000);

  it('the ? button opens a help card listing the keys with examples', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Search help' }).click();
    const help = page.getByRole('dialog', { name: 'Search help' });
    for (const example of ['model:sdxl', 'rating:>=4', 'is:favorite', 'date:2026-11', '"red fox"'])
      await help.getByText(example, { exact: true }).waitFor();
    await screenshot(page, 'search-help');
    await help.getByRole('button', { name: 'Close search help' }).click();
    await help.waitFor({ state: 'detached' });
  }, 30_000);

  it('the help card closes on Escape and on a click outside it, and typing in the box keeps it open', async () => {
    const { page } = app;
    const open = page.getByRole('button', { name: 'Search help' });
    const help = page.getByRole('dialog', { name: 'Search help' });
    const box = page.getByRole('searchbox', { name: 'Search' });
    await open.click();
    await help.waitFor();
    await box.click();
    await box.pressSequentially('ow');
    await help.waitFor();
    // The card is the top layer: Escape closes it and leaves the text.
    await box.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('ow');
    await box.fill('');
    await open.click();
    await help.waitFor();
    // On the grid's empty right-hand side, well clear of the card.
    await page.mouse.click(1300, 700);
    await help.waitFor({ state: 'detached' });
    await open.click();
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  }, 30_000);

  it('a mistyped key says which key was meant', async () => {
    const { page } = app;
    await search(page, 'modle:owl');
    await page.getByRole('alert').filter({ hasText: 'Did you mean model:?' }).waitFor();
    await search(page, '');
  }, 30_000);

  it('free words search the prompt, negative: the negative prompt', async () => {
    const { page, host } = app;
    const FOG = 'a lighthouse in fog';
    const { job } = await apiCall(host, 'jobs.submit', {
      provider: 'builtin',
      prompt: FOG,
      negativePrompt: 'owl, snow',
      width: 64,
      height: 64,
      count: 1,
      steps: 2,
      seed: 3,
    });
    await waitFor(async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded', 'fog job');
    await search(page, 'owl');
    await expectGrid(page, [OWL]);
    await search(page, 'negative:owl');
    await expectGrid(page, [FOG]);
    await search(page, '-snow');
    await expectGrid(page, [FOG, OWL]);
    await search(page, '');
  }, 60_000);
});
