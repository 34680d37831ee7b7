import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfyUI, type FakeComfy } from '../fakes/comfyui.js';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

const BATCH = 'three lanterns over a dark canal';
const CHECKPOINTS = ['dreamshaper_8.safetensors', 'sd_xl_base_1.0.safetensors'];

let app: App;
let comfy: FakeComfy;

beforeAll(async () => {
  comfy = await startFakeComfyUI({ checkpoints: CHECKPOINTS });
  app = await openApp({
    prefix: 'atelier-e2e-truth-',
    host: { engine: { providerDefaults: { comfyui: { baseUrl: comfy.url } } } },
    seed: async (host) => {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'builtin',
        prompt: BATCH,
        width: 64,
        height: 64,
        count: 3,
        seed: 424242,
        steps: 2,
      });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
        'the batch to finish',
      );
    },
  });
  await expectGrid(app.page, [BATCH]);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await comfy?.close();
});

describe('the viewer tells the truth about the image on screen', () => {
  it('image 3 of a batch seeded 424242 shows 424244 in Details, and Reuse settings brings back 424244', async () => {
    const { page } = app;
    // Enter opens the card's first picture (a double click opens the picture under the pointer: the middle of three).
    await page.getByRole('button', { name: BATCH, exact: true }).focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: `Viewer: ${BATCH}` });
    await viewer.waitFor();
    const seedRow = viewer.locator('.details-list dt', { hasText: /^Seed$/ }).locator('xpath=following-sibling::dd[1]');
    await waitFor(async () => (await seedRow.textContent()) === '424242', 'image 1’s seed');
    await viewer.getByRole('button', { name: 'Image 3', exact: true }).click();
    await viewer.getByText('Image 3 of 3', { exact: true }).waitFor();
    await waitFor(async () => (await seedRow.textContent()) === '424244', 'image 3’s seed');
    await screenshot(page, 'viewer-batch-image-3');
    await viewer.getByRole('button', { name: 'Reuse settings' }).click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    expect(await page.getByLabel('Seed', { exact: true }).inputValue()).toBe('424244');
    expect(await page.getByLabel('Prompt', { exact: true }).inputValue()).toBe(BATCH);
  }, 60_000);
});

describe('ComfyUI’s checkpoints are offered once listed', () => {
  it('once ComfyUI is on (and tested) Settings and the Composer list them, and a generation without a choice records the first', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('article', { name: 'ComfyUI', exact: true });
    await card.getByRole('checkbox').check();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText('2 models listed just now. Empty: the first one listed.').waitFor();
    // This server sends no previews (started without --preview-method): Settings says how to get them.
    await card.getByText(/start it with --preview-method auto/).waitFor();
    expect(
      await card.locator('datalist option').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('value'))),
    ).toEqual(CHECKPOINTS);
    await screenshot(page, 'settings-comfyui-models');
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByLabel('Provider', { exact: true }).selectOption('comfyui');
    const model = page.getByLabel('Model', { exact: true });
    expect(await model.locator('option').allTextContents()).toEqual(['Default', ...CHECKPOINTS]);
    await model.selectOption('');
    await screenshot(page, 'composer-comfyui-models');
    await page.getByLabel('Prompt', { exact: true }).fill('a harbour in the fog, by comfy');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(async () => comfy.promptRequests().length === 1, 'ComfyUI to get the prompt', 20_000);
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 10, view: 'all', search: 'harbour in the fog' });
    expect(items[0]?.model).toBe(CHECKPOINTS[0]);
  }, 60_000);
});

describe('a 64-bit ComfyUI seed keeps every digit', () => {
  it('typed in the Composer, it reaches ComfyUI whole, Details shows it whole, and Reuse settings brings it back whole', async () => {
    const { page } = app;
    const seed = '18446744073709551557';
    const prompt = 'a lighthouse at the end of the world';
    // ComfyUI was switched on and chosen by the test above.
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('comfyui');
    await page.getByLabel('Prompt', { exact: true }).fill(prompt);
    const field = page.getByLabel('Seed', { exact: true });
    await field.fill(seed);
    expect(await field.inputValue()).toBe(seed);
    await screenshot(page, 'composer-64-bit-seed');
    const before = comfy.promptRequests().length;
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(async () => comfy.promptRequests().length === before + 1, 'ComfyUI to get the prompt', 20_000);
    expect(comfy.promptRequests()[before]!.body).toContain(`"seed":${seed},`);

    await expectGrid(page, [prompt, 'a harbour in the fog, by comfy', BATCH]);
    await field.fill('');
    await page.getByRole('button', { name: prompt, exact: true }).focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: `Viewer: ${prompt}` });
    await viewer.waitFor();
    const seedRow = viewer.locator('.details-list dt', { hasText: /^Seed$/ }).locator('xpath=following-sibling::dd[1]');
    // The count of 3 came with the batch reused above: ComfyUI draws all three from the one seed.
    await waitFor(
      async () => (await seedRow.textContent()) === `${seed} (shared by the batch: image 1 of 3)`,
      'the seed in Details',
    );
    await screenshot(page, 'viewer-64-bit-seed');
    await viewer.getByRole('button', { name: 'Reuse settings' }).click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    expect(await field.inputValue()).toBe(seed);
  }, 60_000);
});
