/**
 * A full disk as the person sees it in the window: Generate answers with the disk-full words in an alert (not
 * "Something went wrong"), the history already shown stays, and once space is freed Generate works again. A queue
 * the full disk holds up says so in the top bar and on its queued cards, and moves by itself once space is freed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../electron/engine/default-providers.js';
import { createDiskFault } from '../faults/disk-fault.js';
import { createHeldProvider, heldEntry } from '../fakes/held-provider.js';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, seedJob, waitFor } from './helpers.js';

let app: App;
const disk = createDiskFault();
const held = createHeldProvider('held');

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-full-',
    host: {
      engine: {
        wrapDatabase: disk.wrapDatabase,
        mediaFs: disk.fs,
        housekeepingDelayMs: 0,
        providers: [...defaultProviders(), heldEntry(held, 1)],
      },
    },
    seed: (host) => seedJob(host, 'a harbour kept from before'),
  });
});

afterAll(() => app?.close());

describe('generate on a full disk', () => {
  it('says the disk is full and what to do, keeps the history, and works again once space is freed', async () => {
    const { page } = app;
    await expectGrid(page, ['a harbour kept from before']);
    disk.fillNow();
    await page.getByLabel('Prompt', { exact: true }).fill('a lighthouse that finds no room');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'disk is full' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /The disk is full, so Atelier could not store the new job: free some space on the drive holding .* and try again\. Nothing already saved was lost\./,
    );
    expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(0);
    await screenshot(page, 'disk-full-alert');
    await expectGrid(page, ['a harbour kept from before']);

    disk.clear();
    await page.getByRole('button', { name: 'Dismiss' }).first().click();
    await page.getByLabel('Prompt', { exact: true }).fill('a lighthouse with room again');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await expectGrid(page, ['a lighthouse with room again', 'a harbour kept from before']);
  }, 60_000);

  it('a queue held up by the full disk says "Waiting for disk space" in the top bar and on its card, then moves by itself', async () => {
    const { page } = app;
    const first = 'a kiln whose images meet the full disk';
    const second = 'a kiln queued behind it';
    await apiCall(app.host, 'jobs.submit', { provider: 'held', prompt: first, width: 256, height: 256, count: 1 });
    const { job } = await apiCall(app.host, 'jobs.submit', {
      provider: 'held',
      prompt: second,
      width: 256,
      height: 256,
      count: 1,
    });
    const running = await held.started(first);
    disk.fillNow();
    running.finish();
    const chip = page.locator('.live-chip');
    await waitFor(
      async () => (await chip.textContent())?.startsWith('Waiting for disk space') === true,
      'the top bar to say the queue waits for disk space',
    );
    expect(await chip.getAttribute('title')).toMatch(/The disk is full, so Atelier could not .*: free some space/);
    const place = page.locator(`[data-card="${job.id}"] .live-place`);
    await waitFor(
      async () => (await place.getAttribute('data-text')) === 'Waiting for disk space',
      'the queued card to say what it waits for',
    );
    await screenshot(page, 'disk-full-queue-waiting');

    disk.clear();
    // Only the freed space sets it going: no click, no reload.
    (await held.started(second)).finish();
    await waitFor(async () => !((await chip.textContent()) ?? '').includes('Waiting'), 'the top bar to stop waiting');
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: job.id })).status === 'succeeded',
      'the queued job to finish',
    );
  }, 60_000);
});
