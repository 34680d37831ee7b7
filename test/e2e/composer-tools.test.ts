import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfyUI, type FakeComfy } from '../fakes/comfyui.js';
import { closedPort, screenshot, type Browser, openApp, type App } from './harness.js';
import { apiCall, expectGrid, gridPrompts, waitFor } from './helpers.js';

let app: App;
let comfy: FakeComfy;

beforeAll(async () => {
  comfy = await startFakeComfyUI({ checkpoints: ['dreamshaper_8.safetensors'] });
  const dead = `http://127.0.0.1:${await closedPort()}`;
  app = await openApp({
    prefix: 'atelier-e2e-composer-',
    host: { engine: { providerDefaults: { comfyui: { baseUrl: comfy.url }, a1111: { baseUrl: dead } } } },
    browser: { viewport: { width: 1280, height: 900 } },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await comfy?.close();
});

async function setSmallSize(page: Browser['page']): Promise<void> {
  await page.getByLabel('Width', { exact: true }).fill('64');
  await page.getByLabel('Height', { exact: true }).fill('64');
  await page.getByLabel('Steps').fill('2');
}

describe('alternatives and lines make one job per prompt', () => {
  it('the composer says "Makes 3 jobs" before Generate, lists them, and queues each with its own text', async () => {
    const { page } = app;
    await page.getByLabel('Provider', { exact: true }).selectOption('builtin');
    await setSmallSize(page);
    await page.getByLabel('Prompt', { exact: true }).fill('a {red|blue} kite over dunes\na paper boat on a pond');
    const hint = page.locator('.batch-hint summary');
    await hint.getByText('Makes 3 jobs', { exact: true }).waitFor();
    expect(
      await page
        .getByRole('form', { name: 'Composer' })
        .getByRole('button', { name: /^Generate/ })
        .textContent(),
    ).toContain('Generate 3 jobs');
    await hint.click();
    expect(await page.locator('.batch-hint li').allTextContents()).toEqual([
      'a red kite over dunes',
      'a blue kite over dunes',
      'a paper boat on a pond',
    ]);
    await screenshot(page, 'composer-makes-3-jobs');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await expectGrid(page, ['a paper boat on a pond', 'a blue kite over dunes', 'a red kite over dunes']);
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 10 });
    expect(items.map((j) => j.prompt).sort()).toEqual([
      'a blue kite over dunes',
      'a paper boat on a pond',
      'a red kite over dunes',
    ]);
  }, 60_000);

  it('an unclosed brace is pointed at, and nothing is queued', async () => {
    const { page } = app;
    const before = (await apiCall(app.host, 'jobs.list', { limit: 50 })).items.length;
    await page.getByLabel('Prompt', { exact: true }).fill('a {red kite');
    await page.locator('.batch-problem', { hasText: 'Line 1, column 3: This { is never closed.' }).waitFor();
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await page.getByRole('alert').filter({ hasText: 'Line 1, column 3' }).waitFor();
    expect((await apiCall(app.host, 'jobs.list', { limit: 50 })).items.length).toBe(before);
    await page.getByLabel('Prompt', { exact: true }).fill('');
  });
});

describe('Reuse settings onto another kind of provider', () => {
  it('a ComfyUI image reused on A1111: sampler and schedule in A1111’s names, the 64-bit seed named as not carried over', async () => {
    const { page } = app;
    await apiCall(app.host, 'settings.update', { providers: { comfyui: { enabled: true } } });
    const prompt = 'a lantern-lit alley in the rain';
    const { job } = await apiCall(app.host, 'jobs.submit', {
      provider: 'comfyui',
      prompt,
      width: 64,
      height: 64,
      count: 1,
      seed: 1099511627776,
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      steps: 4,
      model: 'dreamshaper_8.safetensors',
    });
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: job.id })).status === 'succeeded',
      'the ComfyUI job to finish',
      30_000,
    );
    await apiCall(app.host, 'settings.update', {
      providers: { comfyui: { enabled: false }, a1111: { enabled: true } },
    });
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
    await notes
      .getByText('A1111 seeds go up to 4294967295: seed 1099511627776 is larger, so a random seed is used.')
      .waitFor();
    await notes.getByText('ComfyUI settings on AUTOMATIC1111').waitFor();
    await screenshot(page, 'composer-reuse-notes');
    await notes.getByRole('button', { name: 'Dismiss these notes' }).click();
    await notes.waitFor({ state: 'detached' });
    await page.getByLabel('Provider', { exact: true }).selectOption('builtin');
  }, 60_000);
});

describe('Settings → Providers lists each server', () => {
  it('as one card each, by where it runs; the first server of each kind has no Remove, the built-in no Test connection', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const cards = settings.getByRole('article');
    await cards.first().waitFor();
    const names = await cards.evaluateAll((all) => all.map((a) => a.getAttribute('aria-label')));
    expect([...names].sort()).toEqual(
      [
        'Built-in (offline)',
        'OpenAI',
        'Google Gemini',
        'Black Forest Labs FLUX',
        'fal.ai',
        'Replicate',
        'Stability AI',
        'AUTOMATIC1111 / Forge',
        'ComfyUI',
        'RunPod (ComfyUI)',
      ].sort(),
    );
    // One list of servers: the cards (a table repeated them once).
    expect(await settings.getByRole('table', { name: 'Servers' }).count()).toBe(0);
    const builtin = settings.getByRole('article', { name: /built-in/i });
    expect(await builtin.getByRole('button', { name: 'Test connection' }).count()).toBe(0);
    // The first instance of each kind stays: no Remove button for it.
    expect(await settings.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await screenshot(page, 'settings-servers');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await gridPrompts(page)).toContain('a lantern-lit alley in the rain');
  }, 60_000);
});

describe('presets one click away', () => {
  it('save the current prompt as a template, apply it, import styles.csv, generate through it, delete one', async () => {
    const { page } = app;
    const composer = page.getByRole('form', { name: 'Composer' });
    await page.getByLabel('Provider', { exact: true }).selectOption('builtin');
    await setSmallSize(page);
    await page.getByLabel('Prompt', { exact: true }).fill('ink drawing of {prompt}, brush texture');
    await composer.getByRole('button', { name: /^Presets/ }).click();
    const menu = page.getByRole('group', { name: 'Presets' });
    await menu.getByText('No presets yet.', { exact: false }).waitFor();
    await menu.getByLabel('Preset name').fill('Ink');
    await menu.getByRole('button', { name: 'Save current' }).click();
    await page.getByText('Saved the preset “Ink”.').waitFor();
    await menu.getByLabel('Import A1111 styles.csv').setInputFiles({
      name: 'styles.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'name,prompt,negative_prompt\nCinematic,"cinematic still of {prompt}, film grain","cartoon, drawing"\n',
      ),
    });
    await page.getByText('Imported 1 style.').waitFor();
    await menu.getByRole('button', { name: /^Cinematic/ }).waitFor();
    await screenshot(page, 'composer-presets-menu');

    await menu.getByRole('button', { name: /^Ink/ }).click();
    await composer.getByText('Style: Ink').waitFor();
    await page.getByLabel('Prompt', { exact: true }).fill('{a heron|a crane} at dusk');
    await page.locator('.batch-hint summary').click();
    expect(await page.locator('.batch-hint li').allTextContents()).toEqual([
      'ink drawing of a heron at dusk, brush texture',
      'ink drawing of a crane at dusk, brush texture',
    ]);
    await screenshot(page, 'composer-style-makes-2-jobs');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await expectGrid(page, [
      'ink drawing of a crane at dusk, brush texture',
      'ink drawing of a heron at dusk, brush texture',
      'a lantern-lit alley in the rain',
      'a paper boat on a pond',
      'a blue kite over dunes',
      'a red kite over dunes',
    ]);
    await composer.getByRole('button', { name: 'Stop using the style Ink' }).click();
    await composer.getByText('Style: Ink').waitFor({ state: 'detached' });

    await composer.getByRole('button', { name: /^Presets/ }).click();
    await menu.getByRole('button', { name: 'Delete preset Cinematic' }).click();
    await menu.getByText('Delete 1 preset, “Cinematic”?').waitFor();
    await menu.getByRole('button', { name: 'Delete', exact: true }).click();
    await menu.getByRole('button', { name: /^Cinematic/ }).waitFor({ state: 'detached' });
    expect((await apiCall(app.host, 'presets.list', {})).items.map((p) => p.name)).toEqual(['Ink']);
    await page.keyboard.press('Escape');
  }, 60_000);
});

describe('prompt history', () => {
  it('↑ in the empty prompt box walks back through past prompts, ↓ comes forward; the list searches them', async () => {
    const { page } = app;
    const { items } = await apiCall(app.host, 'prompts.history', { limit: 10 });
    expect(items.length).toBeGreaterThan(2);
    const box = page.getByLabel('Prompt', { exact: true });
    await box.fill('');
    await box.press('ArrowUp');
    await waitFor(async () => (await box.inputValue()) === items[0]!.prompt, 'the newest past prompt');
    // The caret sits at the end of a recalled prompt: ↑ again needs it at the start.
    await box.press('Control+Home');
    await box.press('ArrowUp');
    await waitFor(async () => (await box.inputValue()) === items[1]!.prompt, 'the one before it');
    await box.press('Control+End');
    await box.press('ArrowDown');
    await waitFor(async () => (await box.inputValue()) === items[0]!.prompt, 'forward again');
    await box.press('ArrowDown');
    await waitFor(async () => (await box.inputValue()) === '', 'back to the empty box');

    await page.getByRole('button', { name: /^History/ }).click();
    const list = page.getByRole('group', { name: 'Prompt history' });
    await list.getByLabel('Search prompt history').fill('kite');
    await waitFor(async () => (await list.locator('.history-prompt').count()) === 2, 'the two kite prompts');
    expect((await list.locator('.history-prompt').allTextContents()).sort()).toEqual([
      'a blue kite over dunes',
      'a red kite over dunes',
    ]);
    await screenshot(page, 'composer-prompt-history');
    await list.getByRole('button', { name: /a red kite over dunes/ }).click();
    expect(await box.inputValue()).toBe('a red kite over dunes');
  }, 60_000);
});

describe('the queue', () => {
  it('names the server running each job', async () => {
    const { page } = app;
    // Large enough that the built-in render is still running when the queue is read.
    const { job } = await apiCall(app.host, 'jobs.submit', {
      provider: 'builtin',
      prompt: 'a slow cathedral for the queue',
      width: 2048,
      height: 2048,
      count: 1,
      steps: 150,
    });
    const live = page
      .locator('.card', { has: page.getByRole('button', { name: 'a slow cathedral for the queue' }) })
      .locator('.thumb.live');
    await live
      .locator('.live-eta[data-text*="Built-in (offline)"], .live-instance[data-text*="Built-in (offline)"]')
      .waitFor();
    await apiCall(app.host, 'jobs.cancel', { id: job.id });
    await live.waitFor({ state: 'detached' });
  }, 60_000);
});

describe('adding and removing a server', () => {
  it('Add server puts a second ComfyUI card in the list (and "any ComfyUI" in the composer); Remove on its card asks first, then takes it out', async () => {
    const { page } = app;
    await apiCall(app.host, 'settings.update', { providers: { comfyui: { enabled: true } } });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add server' });
    await form.getByLabel('Kind').selectOption('comfyui');
    await form.getByLabel('Server name').fill('Studio GPU');
    await form.getByLabel('Base URL').fill(comfy.url);
    await form.getByRole('button', { name: 'Add server' }).click();
    const row = page.getByRole('article', { name: 'Studio GPU', exact: true });
    await row.waitFor();
    await row.getByRole('button', { name: 'Test connection' }).waitFor();
    await screenshot(page, 'settings-servers-added');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    const added = (await apiCall(app.host, 'providers.list', {})).providers.find((p) => p.name === 'Studio GPU');
    expect(added?.kind).toBe('comfyui');
    // Turned on, it makes two ComfyUI servers: the composer offers either one, or any of them.
    await apiCall(app.host, 'settings.update', { providers: { [added!.id]: { enabled: true } } });
    await page.reload();
    const picker = page.getByLabel('Provider', { exact: true });
    await picker.locator('option[value="any:comfyui"]').waitFor({ state: 'attached' });
    const options = await picker.locator('option').allTextContents();
    expect(options.filter((o) => /^(Any ComfyUI|ComfyUI|Studio GPU)/.test(o))).toEqual([
      'Any ComfyUI server (2)',
      expect.stringMatching(/^ComfyUI/),
      expect.stringMatching(/^Studio GPU/),
    ]);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await row.getByRole('button', { name: 'Remove Studio GPU' }).click();
    await row.getByText('Remove this server? Its files and images stay.').waitFor();
    await row.getByRole('button', { name: 'Remove', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect((await apiCall(app.host, 'providers.list', {})).providers.some((p) => p.name === 'Studio GPU')).toBe(false);
    await page.getByRole('button', { name: 'Close', exact: true }).click();
  }, 60_000);
});
