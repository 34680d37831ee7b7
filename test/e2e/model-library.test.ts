import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeA1111, type FakeA1111 } from '../fakes/a1111.js';
import { openApp, screenshot, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';
import { shootThemes } from './themes.js';
import { seriousViolations } from './axe.js';

let app: App;
let fake: FakeA1111;

beforeAll(async () => {
  // The fake lists two checkpoints, two LoRAs (add_detail with its training tags), an embedding and a VAE.
  fake = await startFakeA1111();
  app = await openApp({
    prefix: 'atelier-e2e-model-library-',
    host: { engine: { providerDefaults: { a1111: { baseUrl: fake.url } } } },
    browser: { viewport: { width: 1440, height: 900 } },
    seed: async (host) => {
      await apiCall(host, 'settings.update', { providers: { a1111: { enabled: true } } });
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

const composer = () => app.page.getByRole('form', { name: 'Composer' });
const sentPrompts = () =>
  fake.generationRequests().map((r) => String((JSON.parse(r.body) as { prompt?: unknown }).prompt ?? ''));

describe('LoRAs in the composer', () => {
  it('picks a LoRA from the library at weight 0.6, and the server receives <lora:name:0.6>', async () => {
    const { page } = app;
    await composer().getByLabel('Provider', { exact: true }).selectOption('a1111');
    await composer().getByRole('button', { name: 'Add LoRA' }).click();
    const menu = composer().getByRole('dialog', { name: 'Add a LoRA' });
    // Both LoRAs the server lists, with add_detail's training tags as its trigger words.
    await menu.getByRole('button', { name: /add_detail/ }).waitFor();
    await menu.getByRole('button', { name: /pixel_art_xl/ }).waitFor();
    expect(await menu.getByRole('button', { name: /add_detail/ }).textContent()).toContain('sharp focus');
    await menu.getByLabel('Search LoRAs').fill('detail');
    expect(await menu.getByRole('button').count()).toBe(1);
    await screenshot(page, 'model-library-lora-picker-open');
    await menu.getByRole('button', { name: /add_detail/ }).click();

    const weight = composer().getByLabel('Weight of add_detail, typed');
    expect(await weight.inputValue()).toBe('1');
    // Typed as a person types: "0." on the way to 0.6 stays in the box.
    await weight.fill('');
    await weight.pressSequentially('0.6');
    expect(await composer().getByLabel('Weight of add_detail', { exact: true }).inputValue()).toBe('0.6');
    await composer()
      .getByRole('button', { name: /^Add trigger words/ })
      .click();
    const prompt = composer().getByLabel('Prompt', { exact: true });
    expect(await prompt.inputValue()).toBe('sharp focus, detailed, intricate');
    await prompt.fill('a lighthouse in a storm, sharp focus');
    await screenshot(page, 'model-library-lora-picker');
    expect(await seriousViolations(page, 'form.composer')).toEqual([]);

    await composer()
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(
      async () => sentPrompts().some((p) => p.includes('<lora:add_detail:0.6>')),
      'the LoRA tag at the server',
    );
    expect(sentPrompts().at(-1)).toContain('a lighthouse in a storm, sharp focus');
  }, 60_000);
});

describe('the Models screen', () => {
  it('lists the server’s models with the person’s image, filters to LoRAs, keeps a note, and shows the images', async () => {
    const { page } = app;
    // The job from the test above has landed: its image is add_detail's preview.
    await waitFor(
      async () => {
        const library = await apiCall(app.host, 'models.library', { sort: 'used', limit: 100 });
        return library.items.some((m) => m.kind === 'lora' && m.name === 'add_detail' && m.preview !== undefined);
      },
      'add_detail to have a preview',
      30_000,
    );
    await page.locator('body').press('m');
    const screen = page.getByRole('region', { name: 'Models' });
    await screen.waitFor();
    const card = (name: RegExp) => screen.getByRole('article', { name });
    await card(/^Checkpoint /)
      .first()
      .waitFor();

    await screen.getByRole('tab', { name: /^LoRAs/ }).click();
    await card(/^LoRA add_detail$/).waitFor();
    // The LoRA card stood under All too: wait for the tab's own list.
    await waitFor(async () => (await screen.getByRole('article').count()) === 2, 'only the LoRAs listed');
    expect(await card(/^Checkpoint /).count()).toBe(0);
    const detail = card(/^LoRA add_detail$/);
    expect(await detail.innerText()).toMatch(/1 image · last used today/);
    await waitFor(
      async () =>
        detail.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0),
      'the preview painted',
    );
    expect(await card(/^LoRA pixel_art_xl$/).innerText()).toContain('No images yet');

    // A trigger word's chip adds it to the prompt; Use in composer adds the LoRA after the one picked before.
    await detail.getByRole('button', { name: 'detailed', exact: true }).click();
    const prompt = composer().getByLabel('Prompt', { exact: true });
    expect(await prompt.inputValue()).toBe('a lighthouse in a storm, sharp focus, detailed');
    await prompt.fill('a lighthouse in a storm, sharp focus');
    await card(/^LoRA pixel_art_xl$/)
      .getByRole('button', { name: 'Use in composer' })
      .click();
    const applied = composer().getByRole('list', { name: 'LoRAs applied, in order' }).getByRole('listitem');
    await waitFor(async () => (await applied.count()) === 2, 'pixel_art_xl applied');
    expect(await applied.allInnerTexts()).toEqual([
      expect.stringContaining('add_detail'),
      expect.stringContaining('pixel_art_xl'),
    ]);
    await composer().getByRole('button', { name: 'Remove pixel_art_xl' }).click();
    await waitFor(async () => (await applied.count()) === 1, 'pixel_art_xl removed');

    const note = detail.getByLabel('Note on add_detail');
    await note.fill('crisp at 0.6, mushy above 1');
    await screen.getByLabel('Search models').click();
    await waitFor(async () => {
      const library = await apiCall(app.host, 'models.library', { sort: 'used', limit: 100, search: 'add_detail' });
      return library.items[0]?.note === 'crisp at 0.6, mushy above 1';
    }, 'the note saved');
    // Esc in the note puts the saved one back, and saves nothing.
    await note.fill('scratch that');
    await note.press('Escape');
    expect(await note.inputValue()).toBe('crisp at 0.6, mushy above 1');
    await screen.waitFor();

    await screen.getByRole('tab', { name: /^All/ }).click();
    await card(/^Checkpoint /)
      .first()
      .waitFor();
    expect(await seriousViolations(page, '.models-screen')).toEqual([]);
    await shootThemes(page, 'model-library');

    await screen.getByRole('tab', { name: /^LoRAs/ }).click();
    await detail.getByRole('button', { name: 'Show images' }).click();
    await screen.waitFor({ state: 'detached' });
    expect(await page.locator('#search').inputValue()).toBe('lora:"add_detail"');
    await page.getByRole('button', { name: 'a lighthouse in a storm, sharp focus', exact: true }).waitFor();
  }, 60_000);

  it('the viewer’s Details link the LoRA to its images and to its card in the library', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'a lighthouse in a storm, sharp focus', exact: true }).dblclick();
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByRole('button', { name: 'In model library: add_detail' }).click();
    const screen = page.getByRole('region', { name: 'Models' });
    await screen.waitFor();
    expect(await screen.getByLabel('Search models').inputValue()).toBe('add_detail');
    await screen.getByRole('article', { name: 'LoRA add_detail' }).waitFor();
    expect(await screen.getByRole('article').count()).toBe(1);
    // A narrow window: the filters wrap, the cards keep their width.
    await screen.getByLabel('Search models').fill('');
    await screen.getByRole('tab', { name: /^All/ }).click();
    await page.setViewportSize({ width: 1024, height: 700 });
    await screen
      .getByRole('article', { name: /^Checkpoint / })
      .first()
      .waitFor();
    await screenshot(page, 'model-library-1024x700');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');
    await screen.waitFor({ state: 'detached' });
  }, 60_000);
});
