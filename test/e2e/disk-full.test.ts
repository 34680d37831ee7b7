/**
 * A full disk as the person sees it in the window: Generate answers with the disk-full words in an alert (not
 * "Something went wrong"), the history already shown stays, and once space is freed Generate works again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskFault } from '../faults/disk-fault.js';
import { buildRenderer, launchBrowser, screenshot, startHost, tempDir, type Browser, type Host, tearDown } from './harness.js';
import { expectGrid, seedJob } from './helpers.js';

let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let dataDir: string;
let host: Host;
let browser: Browser;
const disk = createDiskFault();

beforeAll(async () => {
  renderer = await buildRenderer();
  dataDir = await tempDir('atelier-e2e-full-');
  host = await startHost({ rendererDir: renderer.dir, dataDir, engine: { wrapDatabase: disk.wrapDatabase, mediaFs: disk.fs, housekeepingDelayMs: 0 } });
  await seedJob(host, 'a harbour kept from before');
  browser = await launchBrowser();
  await browser.page.goto(host.url);
});

afterAll(() => tearDown({ browser, host, dataDir, renderer }));

describe('generate on a full disk', () => {
  it('says the disk is full and what to do, keeps the history, and works again once space is freed', async () => {
    const { page } = browser;
    await expectGrid(page, ['a harbour kept from before']);
    disk.fillNow();
    await page.getByLabel('Prompt', { exact: true }).fill('a lighthouse that finds no room');
    await page.getByRole('form', { name: 'Composer' }).getByRole('button', { name: /^Generate/ }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'disk is full' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/The disk is full, so Atelier could not store the new job: free some space on the drive holding .* and try again\. Nothing already saved was lost\./);
    expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(0);
    await screenshot(page, 'disk-full-alert');
    await expectGrid(page, ['a harbour kept from before']);

    disk.clear();
    await page.getByRole('button', { name: 'Dismiss' }).first().click();
    await page.getByLabel('Prompt', { exact: true }).fill('a lighthouse with room again');
    await page.getByRole('form', { name: 'Composer' }).getByRole('button', { name: /^Generate/ }).click();
    await expectGrid(page, ['a lighthouse with room again', 'a harbour kept from before']);
  }, 60_000);
});
