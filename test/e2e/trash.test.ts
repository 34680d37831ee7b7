import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMediaFile } from '../../electron/host/media-request.js';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { rm, screenshot, tempDir, type Host, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

/**
 * The trash as a person meets it: one image of a batch of four trashed alone is counted by the banner, the tab and
 * Empty trash alike; Restore works from the card and the viewer; Delete inside the trash asks with its count and
 * deletes for good: Atelier's own files go, an imported original never.
 */
const BATCH = 'four studies of a heron';

let app: App;
let outside: string;
let batchId: string;
let original: { path: string; bytes: Buffer; prompt: string };

async function seedBatch(host: Host): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt: BATCH,
    width: 64,
    height: 64,
    count: 4,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    'the batch to finish',
    60_000,
  );
  return job.id;
}

const images = async (id: string) => (await apiCall(app.host, 'jobs.get', { id })).images;
const card = (prompt: string) =>
  app.page.locator('.card').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });
const banner = () => app.page.getByTestId('trash-banner');
const trashTab = () => app.page.getByRole('tab', { name: /Trash/ });
const emptyButton = () => app.page.getByRole('button', { name: 'Empty trash…' });
const fileOf = async (imageId: string) => (await resolveMediaFile(app.host.engine, { kind: 'image', imageId }))!.path;

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-trash-files-');
  const folder = join(outside, 'mine');
  await mkdir(folder, { recursive: true });
  const [file] = await toolFiles('trashe2e');
  original = { path: join(folder, file!.name), bytes: Buffer.from(file!.bytes), prompt: file!.prompt };
  await writeFile(original.path, file!.bytes);
  app = await openApp({
    prefix: 'atelier-e2e-trash-',
    seed: async (host) => {
      const { import: started } = await apiCall(host, 'library.import', { paths: [folder], mode: 'link' });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === started.id)?.status === 'completed',
        'the import to finish',
        60_000,
      );
      batchId = await seedBatch(host);
    },
    browser: { viewport: { width: 1280, height: 860 } },
  });
  await expectGrid(app.page, [BATCH, original.prompt]);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await rm(outside, { recursive: true, force: true });
});

describe('the trash tells the truth', () => {
  it('one image of a batch trashed with Delete: a toast with Undo, and the banner, the tab count and Empty trash agree', async () => {
    const { page } = app;
    await page.getByRole('button', { name: BATCH, exact: true }).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await card(BATCH).locator('.count-badge', { hasText: '2/4' }).waitFor();
    await page.keyboard.press('Delete');
    const toast = page.getByRole('status').filter({ hasText: 'Moved 1 image to Trash.' });
    await toast.getByRole('button', { name: 'Undo' }).waitFor();
    await waitFor(async () => (await images(batchId)).filter((i) => i.trashed === true).length === 1, 'one trashed');

    await trashTab().click();
    await expectGrid(page, [BATCH]);
    await waitFor(async () => (await trashTab().textContent()) === 'Trash1', 'the Trash tab to count 1');
    await waitFor(async () => (await banner().textContent())?.startsWith('1 image in the trash.') === true, 'banner');
    expect(await emptyButton().isEnabled()).toBe(true);
    await emptyButton().click();
    const dialog = page.getByRole('dialog', { name: 'Empty the trash?' });
    await expect(dialog.textContent()).resolves.toMatch(/This permanently deletes 1 image \(/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);

  it('Restore on the card brings back that one image; the banner says the trash is empty and Empty trash is off', async () => {
    await card(BATCH)
      .getByRole('button', { name: /^Restore:/ })
      .click();
    await waitFor(async () => (await images(batchId)).every((i) => i.trashed !== true), 'the image restored');
    await waitFor(async () => (await banner().textContent())?.startsWith('Nothing in the trash.') === true, 'banner');
    expect(await emptyButton().isDisabled()).toBe(true);
  }, 60_000);

  it('the card menu offers Restore and Delete permanently…; its Restore brings the image back', async () => {
    const { page } = app;
    const [first] = await images(batchId);
    await apiCall(app.host, 'images.trash', { ids: [first!.id] });
    await page.reload();
    await trashTab().click();
    await expectGrid(page, [BATCH]);
    await card(BATCH)
      .getByRole('button', { name: /^In the trash:/ })
      .click();
    const menu = page.getByRole('menu', { name: 'In the trash' });
    await menu.getByRole('menuitem', { name: /Delete permanently/ }).waitFor();
    await menu.getByRole('menuitem', { name: 'Restore' }).click();
    await waitFor(async () => (await images(batchId)).every((i) => i.trashed !== true), 'the image restored');
  }, 60_000);

  it('Restore in the viewer brings back the image on screen alone', async () => {
    const { page } = app;
    const [, second, third] = await images(batchId);
    await apiCall(app.host, 'images.trash', { ids: [second!.id, third!.id] });
    await page.reload();
    await trashTab().click();
    await expectGrid(page, [BATCH]);
    await page.getByRole('button', { name: BATCH, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${BATCH}` });
    await viewer.getByRole('button', { name: 'Restore', exact: true }).click();
    await waitFor(
      async () => (await images(batchId)).filter((i) => i.trashed === true).length === 1,
      'one of the two restored',
    );
    // Delete in the viewer asks about the image on screen; Cancel keeps it in the trash.
    await page.keyboard.press('Delete');
    const ask = page.getByRole('dialog', { name: 'Delete permanently?' });
    await expect(ask.getByTestId('purge-question').textContent()).resolves.toBe(
      'Delete 1 image permanently? This cannot be undone.',
    );
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect((await images(batchId)).filter((i) => i.trashed === true)).toHaveLength(1);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
  }, 60_000);

  it('Delete in the trash asks "Delete N images permanently?" and deletes: Atelier’s file goes, an imported original stays', async () => {
    const { page } = app;
    const importedId = (await apiCall(app.host, 'jobs.list', { limit: 10, view: 'active' })).items.find(
      (j) => j.source !== 'atelier',
    )!.id;
    const [, , , fourth] = await images(batchId);
    await apiCall(app.host, 'images.trash', { ids: [fourth!.id] });
    await apiCall(app.host, 'jobs.trash', { ids: [importedId] });
    const trashedNow = (await images(batchId)).filter((i) => i.trashed === true);
    expect(trashedNow).toHaveLength(2);
    const ownFiles = await Promise.all(trashedNow.map((i) => fileOf(i.id)));
    await page.reload();
    await trashTab().click();
    await expectGrid(page, [BATCH, original.prompt]);
    await waitFor(
      async () =>
        (await banner().textContent())?.startsWith('1 job (1 image) and 2 single images in the trash.') === true,
      'the banner to count both',
    );
    // The tab counts images, as the banner does: the imported job's one and the batch's two.
    await waitFor(async () => (await trashTab().textContent()) === 'Trash3', 'the Trash tab to count 3 images');
    await screenshot(page, 'trash-view-light');
    await apiCall(app.host, 'settings.update', { theme: 'dark' });
    await page.reload();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
          .documentElement.dataset.theme === 'dark',
    );
    await trashTab().click();
    await expectGrid(page, [BATCH, original.prompt]);
    await screenshot(page, 'trash-view-dark');
    await apiCall(app.host, 'settings.update', { theme: 'light' });

    // The card's Delete…: both trashed images of the batch, counted.
    await card(BATCH)
      .getByRole('button', { name: /^Delete permanently:/ })
      .click();
    const ask = page.getByRole('dialog', { name: 'Delete permanently?' });
    await expect(ask.getByTestId('purge-question').textContent()).resolves.toBe(
      'Delete 2 images permanently? This cannot be undone.',
    );
    await ask.getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted 2 images permanently.' }).waitFor();
    await waitFor(async () => (await images(batchId)).length === 2, 'the batch to keep its two others');
    for (const file of ownFiles) expect(existsSync(file), file).toBe(false);
    await expectGrid(page, [original.prompt]);

    // The Delete key on the imported card: asked, never restored.
    await page.getByRole('button', { name: original.prompt, exact: true }).click();
    await page.keyboard.press('Delete');
    const again = page.getByRole('dialog', { name: 'Delete permanently?' });
    await expect(again.getByTestId('purge-question').textContent()).resolves.toBe(
      'Delete 1 image permanently? This cannot be undone.',
    );
    expect((await apiCall(app.host, 'jobs.get', { id: importedId })).trashedAt).not.toBeNull();
    await again.getByRole('button', { name: 'Delete permanently' }).click();
    await waitFor(
      async () =>
        !(await apiCall(app.host, 'jobs.list', { limit: 10, view: 'all' })).items.some((j) => j.id === importedId),
      'the imported job to be gone',
    );
    expect((await readFile(original.path)).equals(original.bytes)).toBe(true);
    await waitFor(async () => (await banner().textContent())?.startsWith('Nothing in the trash.') === true, 'banner');
  }, 90_000);
});
