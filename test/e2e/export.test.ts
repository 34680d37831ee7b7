import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { readZip } from '../integration/export/helpers.js';
import { rm, screenshot, tempDir, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

/** Export as a person does it in the browser: search, Export… on every match, a ZIP downloaded with its settings list. */
let app: App;
let outside: string;
let files: Awaited<ReturnType<typeof toolFiles>>;

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-export-files-');
  const folder = join(outside, 'outputs');
  await mkdir(folder, { recursive: true });
  files = (await toolFiles('ex')).slice(0, 4);
  for (const f of files) await writeFile(join(folder, f.name), f.bytes);
  app = await openApp({
    prefix: 'atelier-e2e-export-',
    seed: async (host) => {
      const { import: started } = await apiCall(host, 'library.import', { paths: [folder], mode: 'link' });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
        'the import to finish',
        60_000,
      );
    },
    browser: { viewport: { width: 1360, height: 860 } },
  });
  await expectGrid(
    app.page,
    files.map((f) => f.prompt),
  );
}, 180_000);

afterAll(async () => {
  await app?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('exporting the matches of a search', () => {
  it('Export… on all matches downloads a ZIP of exactly those originals, with a CSV of their settings', async () => {
    const { page } = app;
    const wanted = files[0]!;
    await search(page, wanted.prompt.split(' ').at(-1)!);
    await expectGrid(page, [wanted.prompt]);
    await page.getByRole('button', { name: 'Export 1 matching image', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export 1 matching image' });
    await dialog.waitFor();
    await screenshot(page, 'export-dialog');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const link = dialog.getByRole('link', { name: /Download ZIP/ });
    await link.waitFor();
    await screenshot(page, 'export-dialog-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^atelier-export-[0-9-]+\.zip$/);
    const saved = join(outside, 'download.zip');
    await download.saveAs(saved);
    const entries = readZip(saved);
    expect(entries.map((e) => e.name).sort()).toEqual([expect.stringMatching(/\.png$/), 'manifest.csv'].sort());
    const image = entries.find((e) => e.name !== 'manifest.csv')!;
    expect(image.data.equals(Buffer.from(await readFile(join(outside, 'outputs', wanted.name))))).toBe(true);
    expect(entries.find((e) => e.name === 'manifest.csv')!.data.toString('utf8')).toContain(wanted.prompt);
    await dialog.getByText('Exported 1 of 1').waitFor();
    await screenshot(page, 'export-dialog-done');
  });
});

describe('exporting from the viewer', () => {
  it('Details → Export… exports the image on screen; Add to board puts it on a board', async () => {
    const { page } = app;
    const wanted = files[1]!;
    const { board } = await apiCall(app.host, 'boards.create', { name: 'Keepers' });
    await page.reload();
    await search(page, wanted.prompt.split(' ').at(-1)!);
    await expectGrid(page, [wanted.prompt]);
    await page.getByRole('button', { name: wanted.prompt, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${wanted.prompt}` });
    await viewer.waitFor();
    await viewer.getByLabel('Add this image to a board').selectOption(board.id);
    await waitFor(
      async () => (await apiCall(app.host, 'boards.list', {})).items.find((b) => b.id === board.id)?.count === 1,
      'the board to hold the image',
    );
    await viewer.getByRole('button', { name: 'Export…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export this image' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const link = dialog.getByRole('link', { name: /Download ZIP/ });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = join(outside, 'one.zip');
    await download.saveAs(saved);
    const images = readZip(saved).filter((e) => !e.name.startsWith('manifest.'));
    expect(images).toHaveLength(1);
    expect(images[0]!.data.equals(Buffer.from(await readFile(join(outside, 'outputs', wanted.name))))).toBe(true);
    // Closing the export leaves the viewer open on the same image.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await viewer.waitFor();
  });
});
