import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHeldProvider, heldEntry, type HeldProvider } from '../fakes/held-provider.js';
import { seriousViolations } from './axe.js';
import { type App, type Host, openApp, screenshot } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

let app: App;
let held: HeldProvider;
const KITES = 'orange kites over a long beach in the late afternoon wind';

async function submit(host: Host, prompt: string, count = 1): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'held',
    prompt,
    width: 512,
    height: 512,
    count,
    steps: 10,
  });
  return job.id;
}

function panelOf(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Queue' });
}

/** The queued rows' prompts, top to bottom, as the panel shows them. */
async function shownOrder(page: Page): Promise<string[]> {
  return panelOf(page).locator('li.queue-row.queued .queue-prompt').allTextContents();
}

async function engineOrder(host: Host): Promise<string[]> {
  return (await apiCall(host, 'queue.view', {})).queued.map((job) => job.prompt);
}

async function expectOrder(page: Page, prompts: string[]): Promise<void> {
  await waitFor(
    async () => JSON.stringify(await shownOrder(page)) === JSON.stringify(prompts),
    `the panel to show ${prompts.join(', ')}`,
  );
}

function row(page: Page, prompt: string): Locator {
  return panelOf(page).locator('li.queue-row', { has: page.getByText(prompt, { exact: true }) });
}

async function openPanel(page: Page): Promise<Locator> {
  await page.locator('body').press('q');
  const panel = panelOf(page);
  await panel.waitFor();
  return panel;
}

beforeAll(async () => {
  held = createHeldProvider('held');
  // One at a time: everything after the first job waits in the queue.
  app = await openApp({
    prefix: 'atelier-e2e-queue-',
    host: { engine: { providers: [heldEntry(held, 1)] } },
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await app.page.getByRole('button', { name: /^Queue/ }).waitFor();
}, 120_000);

// A test that failed midway leaves the queue paused or its jobs held: resume and finish them, so the next starts idle.
afterEach(async () => {
  await apiCall(app.host, 'queue.resume', {});
  await apiCall(app.host, 'queue.resume', { provider: 'held' });
  const queued = (await apiCall(app.host, 'queue.view', {})).queuedTotal;
  if (queued > 0) await apiCall(app.host, 'queue.cancelQueued', { expected: queued });
  for (const job of [...held.held.values()]) job.finish();
  await waitFor(
    async () => (await apiCall(app.host, 'queue.view', {})).running.length === 0,
    'the running jobs to finish',
  );
  if (await panelOf(app.page).isVisible()) await app.page.getByRole('button', { name: 'Close the queue' }).click();
});

afterAll(() => app?.close());

describe('the queue panel', () => {
  it('Q opens it beside the gallery: the running job first, then the queued in order; keys and a drag reorder them and the next to start follows', async () => {
    const { page, host } = app;
    await submit(host, 'running first');
    const first = await held.started('running first');
    for (const prompt of ['second', 'third', 'fourth']) await submit(host, prompt);

    // The top bar counts them at rest, in the button's tooltip (the live chip shows them on its face).
    const button = page.getByRole('button', { name: /^Queue/ });
    await waitFor(
      async () => (await button.getAttribute('title'))?.includes('1 running · 3 queued') === true,
      'the counts',
    );

    const panel = await openPanel(page);
    await row(page, 'running first').getByRole('button', { name: 'Skip: running first' }).waitFor();
    await expectOrder(page, ['second', 'third', 'fourth']);

    // Alt+Home: to the top; Alt+↓ one place down; the row keeps the focus as it moves.
    await row(page, 'fourth').focus();
    await page.keyboard.press('Alt+Home');
    await expectOrder(page, ['fourth', 'second', 'third']);
    await page.keyboard.press('Alt+ArrowDown');
    await expectOrder(page, ['second', 'fourth', 'third']);
    expect(
      await row(page, 'fourth').evaluate(
        (el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement,
      ),
    ).toBe(true);
    await page.keyboard.press('Alt+End');
    await expectOrder(page, ['second', 'third', 'fourth']);
    await waitFor(
      async () => (await engineOrder(host)).join() === 'second,third,fourth',
      'the engine to hold the order',
    );

    // A drag: "third" dropped on "second" takes its place.
    await row(page, 'third').dragTo(row(page, 'second'));
    await expectOrder(page, ['third', 'second', 'fourth']);
    await waitFor(
      async () => (await engineOrder(host)).join() === 'third,second,fourth',
      'the engine to take the drag',
    );

    // The running job ends: the one now first starts next.
    first.finish();
    await held.started('third');
    await row(page, 'third').getByRole('button', { name: 'Skip: third' }).waitFor();
    await expectOrder(page, ['second', 'fourth']);
    expect(await panel.isVisible()).toBe(true);
  });

  it('a paused provider shows its hold and starts nothing; resumed, its next job starts; Skip cancels the running job and the queue goes on', async () => {
    const { page, host } = app;
    await submit(host, 'paint the harbour');
    const running = await held.started('paint the harbour');
    await submit(host, 'then the hills');
    await submit(host, 'then the sky');
    await openPanel(page);

    await page.getByRole('button', { name: /^Pause Held/ }).click();
    const hold = panelOf(page).locator('.queue-provider.held .queue-hold');
    await waitFor(async () => (await hold.textContent())?.startsWith('Paused') === true, 'the hold in words');
    await screenshot(page, 'queue-panel-light');

    // Held: the running job ends and nothing new starts, though two wait.
    const id = (await apiCall(host, 'queue.view', {})).running[0]!.id;
    running.finish();
    await waitFor(async () => (await apiCall(host, 'jobs.get', { id })).status === 'succeeded', 'the job to finish');
    const view = await apiCall(host, 'queue.view', {});
    expect(view.running).toEqual([]);
    expect(view.queued.map((j) => j.prompt)).toEqual(['then the hills', 'then the sky']);
    await panelOf(page)
      .getByText('Nothing running.')
      .or(panelOf(page).getByText('Paused: nothing new starts.'))
      .waitFor();

    await page.getByRole('button', { name: /^Resume Held/ }).click();
    await held.started('then the hills');
    await hold.waitFor({ state: 'detached' });

    // Skip: the running job is cancelled and the next starts.
    await row(page, 'then the hills').getByRole('button', { name: 'Skip: then the hills' }).click();
    await held.started('then the sky');
    await row(page, 'then the sky').getByRole('button', { name: 'Skip: then the sky' }).waitFor();
    const skipped = (await apiCall(host, 'jobs.list', { view: 'all', status: ['cancelled'], limit: 10 })).items;
    expect(skipped.map((j) => j.prompt)).toContain('then the hills');
  });

  it('Pause queue holds everything and says so in the top bar; the order and the pause are the same after a reload', async () => {
    const { page, host } = app;
    await submit(host, 'keeps running');
    await held.started('keeps running');
    for (const prompt of ['dawn', 'noon', 'dusk']) await submit(host, prompt);
    await openPanel(page);
    await row(page, 'dusk').getByRole('button', { name: 'Move to top: dusk' }).click();
    await expectOrder(page, ['dusk', 'dawn', 'noon']);
    await page.getByRole('button', { name: 'Pause queue' }).click();
    const button = page.getByRole('button', { name: /^Queue/ });
    await waitFor(async () => (await button.textContent())?.includes('Paused') === true, 'Paused in the top bar');
    await waitFor(async () => (await engineOrder(host)).join() === 'dusk,dawn,noon', 'the engine to hold the order');

    await page.reload();
    await page.getByRole('button', { name: /^Queue/ }).waitFor();
    await waitFor(
      async () =>
        (await button.getAttribute('title'))?.includes('Paused · 1 running · 3 queued') === true &&
        (await button.textContent())?.includes('Paused') === true,
      'the counts after a reload',
    );
    await openPanel(page);
    await expectOrder(page, ['dusk', 'dawn', 'noon']);
    await panelOf(page).getByText('Paused', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Resume queue' }).click();
    await waitFor(async () => (await button.textContent())?.includes('Paused') === false, 'the pause lifted');
  });

  it('Cancel all queued asks with the count; a queue that grew meanwhile asks again with the new count; running jobs go on', async () => {
    const { page, host } = app;
    await submit(host, 'the one running');
    await held.started('the one running');
    for (const prompt of ['a', 'b', 'c']) await submit(host, `queued ${prompt}`);
    await openPanel(page);
    await expectOrder(page, ['queued a', 'queued b', 'queued c']);

    await page.getByRole('button', { name: 'Cancel all queued…' }).click();
    const ask = page.getByRole('dialog', { name: 'Cancel 3 queued jobs?' });
    await ask.waitFor();
    await ask.getByText('Running jobs go on.').waitFor();
    expect(await seriousViolations(page, '.dialog.confirm')).toEqual([]);

    // Another job arrives while the question is open: the 3 confirmed are no longer the count.
    await submit(host, 'queued late');
    await ask.getByRole('button', { name: 'Yes, cancel 3' }).click();
    const again = page.getByRole('dialog', { name: 'Cancel 4 queued jobs?' });
    await again.waitFor();
    expect((await apiCall(host, 'queue.view', {})).queuedTotal).toBe(4);
    await again.getByRole('button', { name: 'Yes, cancel 4' }).click();
    await again.waitFor({ state: 'detached' });

    await panelOf(page).getByText('Nothing waiting.').waitFor();
    const view = await apiCall(host, 'queue.view', {});
    expect(view.queuedTotal).toBe(0);
    expect(view.running.map((j) => j.prompt)).toEqual(['the one running']);
  });

  it('the open panel passes axe in both themes (screenshots in light and dark)', async () => {
    const { page, host } = app;
    await submit(host, 'a lighthouse at dusk, rendering', 1);
    const running = await held.started('a lighthouse at dusk, rendering');
    await running.step(4, 10, 'dark');
    await submit(host, KITES, 4);
    await submit(host, 'a quiet reading room');
    await apiCall(host, 'queue.pause', { provider: 'held' });
    await openPanel(page);
    await panelOf(page).locator('.queue-hold').waitFor();
    // Settled first: the rows the engine holds are drawn.
    await expectOrder(page, [KITES, 'a quiet reading room']);
    expect(await seriousViolations(page, '#queue-panel')).toEqual([]);

    await apiCall(host, 'settings.update', { theme: 'dark' });
    await page.reload();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
          .documentElement.dataset.theme === 'dark',
    );
    await openPanel(page);
    await panelOf(page).locator('.queue-hold').waitFor();
    // Its progress from before the reload still shows (the view carries it; no tick is replayed).
    await row(page, 'a lighthouse at dusk, rendering').getByText('Sampling', { exact: true }).waitFor();
    await expectOrder(page, [KITES, 'a quiet reading room']);
    await screenshot(page, 'queue-panel-dark');
    expect(await seriousViolations(page, '#queue-panel')).toEqual([]);
    await apiCall(host, 'settings.update', { theme: 'light' });
  });
});
