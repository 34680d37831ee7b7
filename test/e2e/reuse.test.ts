/**
 * Reuse exactly, in the browser with the built-in provider: Reuse settings on a two-line prompt with {a|b} queues one
 * job with that prompt whole and the reused seed (0) once, the next generation is random, and a reload does not keep
 * the reused seed; Use as input starts from the source's prompt; the mask editor's prompt, edited, is the one sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../shared/contract.js';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

const RECALLED = 'a lighthouse at dusk\n{red|blue} sky, film grain';

let app: App;
let sourceJob: string;
const known = new Set<string>();

/** The one job the last action queued, with its stored request. */
async function nextJob(what: string): Promise<JobDetail> {
  let found: string | undefined;
  await waitFor(async () => {
    const page = await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' });
    const fresh = page.items.filter((j) => !known.has(j.id));
    if (fresh.length > 1) throw new Error(`${what}: ${fresh.length} jobs queued, expected one`);
    found = fresh[0]?.id;
    return found !== undefined;
  }, what);
  known.add(found!);
  return apiCall(app.host, 'jobs.get', { id: found! });
}

const composer = () => app.page.getByRole('form', { name: 'Composer' });
const generate = () =>
  composer()
    .getByRole('button', { name: /^Generate/ })
    .click();

async function openSource() {
  await app.page.locator(`[data-card="${sourceJob}"]`).dblclick();
  const viewer = app.page.getByRole('dialog').first();
  await viewer.getByRole('group', { name: 'Work from this image' }).waitFor();
  return viewer;
}

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-reuse-',
    seed: async (host) => {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: RECALLED,
        width: 256,
        height: 192,
        count: 1,
        steps: 2,
        seed: 0,
      });
      await waitFor(async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded', 'the source');
      sourceJob = job.id;
      known.add(job.id);
    },
    beforeGoto: (page) => page.setDefaultTimeout(8_000),
  });
  await app.page.locator(`[data-card="${sourceJob}"]`).waitFor();
}, 120_000);

afterAll(() => app?.close());

describe('Reuse settings reuses exactly', () => {
  it('a two-line prompt with {a|b} is one job with its newline, seeded 0 once; the next is random; a reload is random', async () => {
    const { page } = app;
    const viewer = await openSource();
    const reuse = viewer.getByRole('button', { name: 'Reuse settings' });
    await waitFor(() => reuse.isEnabled(), 'the job’s details');
    await reuse.click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    expect(await page.locator('textarea.prompt').inputValue()).toBe(RECALLED);
    await composer()
      .getByText(/^Makes 1 job: the recalled prompt is sent as written/)
      .waitFor();
    expect(
      (
        await composer()
          .getByRole('button', { name: /^Generate/ })
          .innerText()
      ).split('\n')[0],
    ).toBe('Generate');
    expect(await page.getByLabel('Seed', { exact: true }).inputValue()).toBe('0');
    await screenshot(page, 'composer-after-reuse');
    await generate();
    const reused = await nextJob('the reused job');
    expect(reused.request.prompt).toBe(RECALLED);
    expect(reused.request.seed).toBe(0);
    // The reused seed was for that one: the field is random again and the next job carries no seed.
    await waitFor(async () => (await page.getByLabel('Seed', { exact: true }).inputValue()) === '', 'a random seed');
    await generate();
    const next = await nextJob('the job after');
    expect(next.request.prompt).toBe(RECALLED);
    expect(next.request.seed).toBeUndefined();

    // Reused again, then the page reloaded before generating: the seed is not kept fixed.
    const again = await openSource();
    await again.getByRole('button', { name: 'Reuse settings' }).click();
    await waitFor(async () => (await page.getByLabel('Seed', { exact: true }).inputValue()) === '0', 'seed 0');
    await page.reload();
    await page.locator('textarea.prompt').waitFor();
    expect(await page.locator('textarea.prompt').inputValue()).toBe(RECALLED);
    expect(await page.getByLabel('Seed', { exact: true }).inputValue()).toBe('');
  }, 90_000);

  it('Use as input starts from the source’s prompt, not what the composer held', async () => {
    const { page } = app;
    await page.locator('textarea.prompt').fill('an unrelated cat');
    const viewer = await openSource();
    await viewer.getByRole('button', { name: /^Use as input/ }).click();
    await page.getByRole('group', { name: 'Working from an image' }).waitFor();
    expect(await page.locator('textarea.prompt').inputValue()).toBe(RECALLED);
    await generate();
    const job = await nextJob('the image-to-image job');
    expect(job.request.prompt).toBe(RECALLED);
    expect(job.request.inputImage).toBeDefined();
    await page.getByRole('button', { name: 'Remove the input image' }).click();
  }, 60_000);

  it('the mask editor’s prompt is editable and what is typed there is what Repaint sends', async () => {
    const { page } = app;
    const viewer = await openSource();
    await viewer.getByRole('button', { name: /^Edit/ }).click();
    const brush = viewer.getByRole('region', { name: /^Mask brush/ });
    await brush.waitFor();
    const box = brush.getByLabel('Prompt for this edit');
    await box.fill('a red scarf\n{wool|silk}');
    const canvas = brush.locator('canvas');
    const r = (await canvas.boundingBox())!;
    await page.mouse.move(r.x + r.width * 0.3, r.y + r.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(r.x + r.width * 0.6, r.y + r.height * 0.5);
    await page.mouse.up();
    await brush.getByText(/% to repaint$/).waitFor();
    await brush.getByRole('button', { name: 'Repaint' }).click();
    const job = await nextJob('the masked edit');
    expect(job.request.prompt).toBe('a red scarf\n{wool|silk}');
    expect(job.request.mask).toBeDefined();
  }, 60_000);
});
