import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customNodesPng } from '../fixtures/images/custom-comfy.js';
import { rm, screenshot, tempDir, openApp, type App } from './harness.js';
import { apiCall, gridPrompts, waitFor } from './helpers.js';

let app: App;
let outside: string;

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-rules-');
  await mkdir(join(outside, 'studio'), { recursive: true });
  await writeFile(join(outside, 'studio', 'heron.png'), await customNodesPng('a heron in fog', 10));
  await writeFile(join(outside, 'studio', 'egret.png'), await customNodesPng('an egret at dawn', 90));
  app = await openApp({ prefix: 'atelier-e2e-rules-' });
  const { import: started } = await apiCall(app.host, 'library.import', {
    paths: [join(outside, 'studio')],
    mode: 'link',
    watch: false,
  });
  await waitFor(
    async () =>
      (await apiCall(app.host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
    'the import to finish',
  );
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('your own ComfyUI nodes', () => {
  it('a rule added in Settings → Library reads the prompt from a node no reader knows, in the files already imported', async () => {
    const { page } = app;
    // No reader knows StudioPromptDeck: the cards show the files' names.
    await page.getByRole('button', { name: 'heron.png', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    // Settings shows one section at a time (settings/settings-sections.ts).
    await settings.getByRole('tab', { name: 'Library' }).click();
    const section = settings.getByRole('region', { name: 'Your ComfyUI nodes' });
    await section.getByRole('textbox', { name: 'Node class' }).fill('StudioPromptDeck');
    await section.getByRole('textbox', { name: 'Input name' }).fill('card');
    await section.getByRole('combobox', { name: 'Setting it holds' }).selectOption('prompt');
    await section.getByRole('button', { name: 'Add rule' }).click();
    await page.getByText('Rule saved; re-reading your ComfyUI images.').waitFor();
    await section.getByRole('list', { name: 'Node rules' }).getByText('StudioPromptDeck').waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-node-rules');
    expect((await apiCall(app.host, 'settings.get', {})).library.comfyNodeRules).toEqual([
      { classType: 'StudioPromptDeck', input: 'card', field: 'prompt' },
    ]);
    await page.keyboard.press('Escape');
    await waitFor(
      async () => (await gridPrompts(page)).includes('a heron in fog'),
      'the re-read prompt on its card',
      20_000,
    );
    expect(await gridPrompts(page)).toContain('an egret at dawn');
  }, 60_000);

  it('Re-read settings on a selection reads the picked files again and says how many', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'a heron in fog', exact: true }).click();
    await page.getByRole('button', { name: 'an egret at dawn', exact: true }).click({ modifiers: ['Control'] });
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    // Imported files only, and under More: the bar keeps to one row.
    await bar.getByRole('button', { name: 'More ▾' }).click();
    await bar.getByRole('button', { name: 'Re-read settings of 2 selected images' }).click();
    await page.getByRole('status').filter({ hasText: 'Re-reading the settings of 2 files.' }).waitFor();
    await waitFor(async () => {
      const status = await apiCall(app.host, 'library.rereadStatus', {});
      return status.state === 'idle' && status.left === 0;
    }, 'the re-read to finish');
    await page.getByRole('button', { name: 'Clear selection' }).click();
  }, 60_000);
});
