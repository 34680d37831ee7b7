import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfyUI, type FakeComfy } from '../fakes/comfyui.js';
import { buildRenderer, closedPort, launchBrowser, screenshot, startHost, tempDir, type Browser, type Host, tearDown } from './harness.js';
import { apiCall, expectGrid, gridPrompts, waitFor } from './helpers.js';

let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let dataDir: string;
let host: Host;
let browser: Browser;
let comfy: FakeComfy;

beforeAll(async () => {
  renderer = await buildRenderer();
  dataDir = await tempDir('atelier-e2e-composer-');
  comfy = await startFakeComfyUI({ checkpoints: ['dreamshaper_8.safetensors'] });
  const dead = `http://127.0.0.1:${await closedPort()}`;
  host = await startHost({ rendererDir: renderer.dir, dataDir, engine: { providerDefaults: { comfyui: { baseUrl: comfy.url }, a1111: { baseUrl: dead } } } });
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
  await browser.page.goto(host.url);
}, 120_000);

afterAll(async () => {
  await tearDown({ browser, host, dataDir, renderer });
  await comfy?.close();
});

async function setSmallSize(page: Browser['page']): Promise<void> {
  await page.getByLabel('Width', { exact: true }).fill('64');
  await page.getByLabel('Height', { exact: true }).fill('64');
  await page.getByLabel('Steps').fill('2');
}

describe('alternatives and lines make one job per prompt', () => {
  it('the composer says "Makes 3 jobs" before Generate, lists them, and queues each with its own text', async () => {
    const { page } = browser;
    await page.getByLabel('Provider', { exact: true }).selectOption('builtin');
    await setSmallSize(page);
    await page.getByLabel('Prompt', { exact: true }).fill('a {red|blue} kite over dunes\na paper boat on a pond');
    const hint = page.locator('.batch-hint summary');
    await hint.getByText('Makes 3 jobs', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Generate' }).textContent()).toContain('Generate 3 jobs');
    await hint.click();
    expect(await page.locator('.batch-hint li').allTextContents()).toEqual(['a red kite over dunes', 'a blue kite over dunes', 'a paper boat on a pond']);
    await screenshot(page, 'composer-makes-3-jobs');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expectGrid(page, ['a paper boat on a pond', 'a blue kite over dunes', 'a red kite over dunes']);
    const { items } = await apiCall(host, 'jobs.list', { limit: 10 });
    expect(items.map((j) => j.prompt).sort()).toEqual(['a blue kite over dunes', 'a paper boat on a pond', 'a red kite over dunes']);
  }, 60_000);

  it('an unclosed brace is pointed at, and nothing is queued', async () => {
    const { page } = browser;
    const before = (await apiCall(host, 'jobs.list', { limit: 50 })).items.length;
    await page.getByLabel('Prompt', { exact: true }).fill('a {red kite');
    await page.locator('.batch-problem', { hasText: 'Line 1, column 3: This { is never closed.' }).waitFor();
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('alert').filter({ hasText: 'Line 1, column 3' }).waitFor();
    expect((await apiCall(host, 'jobs.list', { limit: 50 })).items.length).toBe(before);
    await page.getByLabel('Prompt', { exact: true }).fill('');
  });
});

describe('Reuse settings onto another kind of provider', () => {
  it('a ComfyUI image reused on A1111: sampler and schedule in A1111’s names, the 64-bit seed named as not carried over', async () => {
    const { page } = browser;
    await apiCall(host, 'settings.update', { providers: { comfyui: { enabled: true } } });
    const prompt = 'a lantern-lit alley in the rain';
    const { job } = await apiCall(host, 'jobs.submit', { provider: 'comfyui', prompt, width: 64, height: 64, count: 1, seed: 1099511627776, sampler: 'dpmpp_2m', scheduler: 'karras', steps: 4, model: 'dreamshaper_8.safetensors' });
    await waitFor(async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded', 'the ComfyUI job to finish', 30_000);
    await apiCall(host, 'settings.update', { providers: { comfyui: { enabled: false }, a1111: { enabled: true } } });
    await page.reload();
    await page.getByLabel('Provider', { exact: true }).selectOption('a1111');
    await page.getByRole('button', { name: prompt, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${prompt}` });
    await viewer.getByRole('button', { name: 'Reuse settings' }).click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    expect(await page.getByLabel('Sampler').inputValue()).toBe('DPM++ 2M');
    expect(await page.getByLabel('Schedule').inputValue()).toBe('Automatic');
    expect(await page.getByLabel('Seed', { exact: true }).inputValue()).toBe('');
    const notes = page.getByRole('status', { name: 'What did not carry over' });
    await notes.getByText('A1111 seeds go up to 4294967295: seed 1099511627776 is larger, so a random seed is used.').waitFor();
    await notes.getByText('ComfyUI settings on AUTOMATIC1111').waitFor();
    await screenshot(page, 'composer-reuse-notes');
    await notes.getByRole('button', { name: 'Dismiss these notes' }).click();
    await notes.waitFor({ state: 'detached' });
    await page.getByLabel('Provider', { exact: true }).selectOption('builtin');
  }, 60_000);
});

describe('Settings → Providers lists each server', () => {
  it('with its kind, health and what it runs; Add server asks the engine and shows what it says', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const table = page.getByRole('table', { name: 'Servers' });
    await table.waitFor();
    const names = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    expect(names).toEqual(['Built-in (offline)', 'OpenAI', 'AUTOMATIC1111 / Forge', 'ComfyUI']);
    const builtin = table.getByRole('row', { name: /built-in/i });
    await builtin.getByText(/^(Up|Down|Not checked yet)/).waitFor();
    await builtin.getByText('Idle').waitFor();
    // The first instance of each kind stays: no Remove button for it.
    expect(await table.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await screenshot(page, 'settings-servers');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await gridPrompts(page)).toContain('a lantern-lit alley in the rain');
  }, 60_000);
});
