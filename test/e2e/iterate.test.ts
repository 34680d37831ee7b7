/**
 * Working from an image in the browser: Use as input (I) fills the composer's strip and the next Generate sends the
 * image and its strength; Variations (V) and Upscale send their requests; Edit (E) opens the mask brush, a painted
 * stroke becomes a mask PNG of the source's size and a masked edit; lineage shows both ways; a provider that works
 * from text only disables the buttons and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/contract.js';
import { buildRenderer, launchBrowser, screenshot, startHost, tempDir, type Browser, type Host, tearDown } from './harness.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

const SOURCE = 'a lighthouse on a cliff at dusk';

let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let dataDir: string;
let host: Host;
let browser: Browser;
let sourceJob: string;
let sourceImage: string;

/** Jobs submitted after the source, newest first, with their stored requests. */
async function newJobs(): Promise<JobDetail[]> {
  const page = await apiCall(host, 'jobs.list', { limit: 50, view: 'all' });
  const ids = page.items.filter((j) => j.id !== sourceJob).map((j) => j.id);
  return Promise.all(ids.map((id) => apiCall(host, 'jobs.get', { id })));
}

async function waitForJobs(n: number): Promise<JobDetail[]> {
  let jobs: JobDetail[] = [];
  await waitFor(async () => (jobs = await newJobs()).length >= n, `${n} new job(s)`);
  return jobs;
}

async function openSourceViewer() {
  const { page } = browser;
  await page.getByRole('button', { name: SOURCE, exact: true }).dblclick();
  const viewer = page.getByRole('dialog', { name: `Viewer: ${SOURCE}` });
  await viewer.getByRole('group', { name: 'Work from this image' }).waitFor();
  return viewer;
}

beforeAll(async () => {
  renderer = await buildRenderer();
  dataDir = await tempDir('atelier-e2e-iterate-');
  host = await startHost({ rendererDir: renderer.dir, dataDir });
  const { job } = await apiCall(host, 'jobs.submit', { provider: 'builtin', prompt: SOURCE, width: 320, height: 192, count: 1, steps: 2, seed: 11 });
  await waitFor(async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded', 'the source job');
  sourceJob = job.id;
  sourceImage = (await apiCall(host, 'jobs.get', { id: job.id })).images[0]!.id;
  browser = await launchBrowser();
  await browser.page.goto(host.url);
  await expectGrid(browser.page, [SOURCE]);
}, 120_000);

afterAll(() => tearDown({ browser, host, dataDir, renderer }));

describe('working from an image', () => {
  it('the viewer offers each action with its key; one the provider cannot do is disabled and says why', async () => {
    const viewer = await openSourceViewer();
    const group = viewer.getByRole('group', { name: 'Work from this image' });
    const useAsInput = group.getByRole('button', { name: /^Use as input/ });
    expect(await useAsInput.getAttribute('aria-keyshortcuts')).toBe('I');
    expect(await group.getByRole('button', { name: /^Variations/ }).getAttribute('aria-keyshortcuts')).toBe('V');
    expect(await group.getByRole('button', { name: /^Upscale ×4/ }).getAttribute('aria-keyshortcuts')).toBe('Shift+U');
    const caps = (await apiCall(host, 'providers.list', {})).providers.find((p) => p.id === 'builtin')!.capabilities.operations;
    for (const [name, op] of [['Use as input', caps.img2img], ['Edit', caps.inpaint], ['Upscale ×2', caps.upscale]] as const) {
      const button = group.getByRole('button', { name: new RegExp(`^${name}`) });
      expect(await button.getAttribute('aria-disabled')).toBe(String(!op.supported));
      if (!op.supported) {
        expect(await button.getAttribute('title')).toContain(op.reason!);
        expect(await viewer.locator('.image-actions-reasons').innerText()).toContain(op.reason!);
      }
    }
    // Variations need no image support: the same settings, new seeds.
    expect(await group.getByRole('button', { name: /^Variations/ }).getAttribute('aria-disabled')).toBe('false');
    await screenshot(browser.page, 'iterate-viewer-actions');
    await browser.page.keyboard.press('Escape');
  });

  it('V in the viewer queues four variations: the source’s settings, no seed, variationOf the image; lineage shows them', async () => {
    const { page } = browser;
    const viewer = await openSourceViewer();
    await viewer.getByRole('group', { name: 'Work from this image' }).getByRole('button', { name: /^Variations/ }).focus();
    await page.keyboard.press('v');
    const [variation] = await waitForJobs(1);
    expect(variation!.request).toMatchObject({ provider: 'builtin', prompt: SOURCE, width: 320, height: 192, steps: 2, count: 4, variationOf: { imageId: sourceImage } });
    expect(variation!.request.seed).toBeUndefined();
    // The source's details list it under "Made from this image" at once.
    const children = viewer.getByRole('region', { name: 'Lineage' }).locator('.lineage-children');
    await children.getByRole('button', { name: new RegExp(`: ${SOURCE}`) }).first().waitFor();
    await page.keyboard.press('Escape');
  });
});
