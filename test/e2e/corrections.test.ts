import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { seriousViolations } from './axe.js';
import { openApp, rm, screenshot, tempDir, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

let app: App;
let outside: string;
const FILE_PROMPT = 'a moth aonecx';
const CORRECTED = 'a luna moth nightglow';

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-corrections-outputs-');
  const file = (await toolFiles('cx')).find((f) => f.source === 'a1111' && f.name.endsWith('.png'))!;
  await writeFile(join(outside, file.name), file.bytes);
  app = await openApp({
    prefix: 'atelier-e2e-corrections-',
    seed: async (host) => {
      const { import: started } = await apiCall(host, 'library.import', {
        paths: [outside],
        mode: 'link',
        watch: false,
      });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
        'the import',
      );
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('correcting what a file was read to say, and a note', () => {
  it('a corrected prompt shows beside what the file says, is found by its new word, and reverts', async () => {
    const { page } = app;
    await expectGrid(page, [FILE_PROMPT]);
    await page.getByRole('button', { name: FILE_PROMPT, exact: true }).dblclick();
    const viewer = page.getByRole('dialog');
    await viewer.getByRole('button', { name: 'Correct settings…' }).click();
    const form = viewer.getByRole('form', { name: 'Correct settings' });
    await form.getByLabel('Prompt', { exact: true }).fill(CORRECTED);
    await form.getByLabel('Steps', { exact: true }).fill('24');
    await screenshot(page, 'corrections-form');
    await form.getByRole('button', { name: 'Save corrections' }).click();

    // Both values: the corrected one used, and under it what the file says.
    await viewer.locator('h2.details-prompt', { hasText: CORRECTED }).waitFor();
    await viewer.locator('.details-file-prompt', { hasText: `file says: ${FILE_PROMPT}` }).waitFor();
    const steps = viewer.locator('.details-settings .setting', { has: page.locator('dt', { hasText: /^Steps$/ }) });
    expect(await steps.locator('.setting-value').textContent()).toBe('24');
    expect(await steps.locator('.file-says .muted').textContent()).toBe('file says: 30');
    await screenshot(page, 'corrections-details');
    expect(await seriousViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    await search(page, 'nightglow');
    await expectGrid(page, [CORRECTED]);
    await search(page, 'steps:24');
    await expectGrid(page, [CORRECTED]);

    await page.getByRole('button', { name: CORRECTED, exact: true }).dblclick();
    await viewer.getByRole('button', { name: 'Revert the prompt to what the file says' }).click();
    await viewer.locator('h2.details-prompt', { hasText: FILE_PROMPT }).waitFor();
    expect(await viewer.locator('.details-file-prompt').count()).toBe(0);
    await viewer.getByRole('button', { name: 'Revert all' }).click();
    await waitFor(async () => (await viewer.locator('.setting.corrected').count()) === 0, 'every correction reverted');
    expect(await steps.locator('.setting-value').textContent()).toBe('30');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    await search(page, 'nightglow');
    await expectGrid(page, []);
    const [job] = (await apiCall(app.host, 'jobs.list', { limit: 5, view: 'active' })).items;
    const detail = await apiCall(app.host, 'jobs.get', { id: job!.id });
    expect([detail.request.prompt, detail.corrections]).toEqual([FILE_PROMPT, undefined]);
  }, 90_000);

  it('a note written in Details is saved with Ctrl+Enter and found with note:', async () => {
    const { page } = app;
    await search(page, '');
    await expectGrid(page, [FILE_PROMPT]);
    await page.getByRole('button', { name: FILE_PROMPT, exact: true }).dblclick();
    const viewer = page.getByRole('dialog');
    const note = viewer.getByLabel('Note', { exact: true });
    await note.fill('Print for the spring show\nlarge, on matte paper');
    await page.keyboard.press('Control+Enter');
    await viewer.getByText('Saved.').waitFor();
    await screenshot(page, 'corrections-note');
    await note.press('Escape');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    await search(page, 'note:spring');
    await expectGrid(page, [FILE_PROMPT]);
    await search(page, 'note:autumn');
    await expectGrid(page, []);
    await search(page, 'matte');
    await expectGrid(page, [FILE_PROMPT]);
    // The note is there again when Details opens anew.
    await page.getByRole('button', { name: FILE_PROMPT, exact: true }).dblclick();
    await waitFor(
      async () =>
        (await viewer.getByLabel('Note', { exact: true }).inputValue()).startsWith('Print for the spring show'),
      'the saved note',
    );
  }, 60_000);
});
