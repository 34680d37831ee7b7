import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRAG_TYPE } from '../../renderer/src/curation/drag-images.js';
import { rm, screenshot, tempDir, openApp, type App } from './harness.js';
import {
  desktopCalls,
  dropFiles,
  fakeOriginal,
  installFakeDesktop,
  setPickedFolder,
  startCardDrag,
} from './desktop-bridge.js';
import { apiCall, expectGrid, seedJob, waitFor } from './helpers.js';

/**
 * The desktop app's Export to folder… and drag-out of a selection, as the renderer does them on a desktop api (a
 * window.atelier over the headless host; see desktop-bridge.ts): the picker first, then the export there; a drag of
 * several cards handed to the OS; the library's own files dropped back land on a board and are never imported.
 */
let app: App;
let outside: string;
const PROMPTS = ['a heron at dawn', 'a kettle on a stove', 'a lantern in fog'] as const;
const jobs: { id: string; imageId: string }[] = [];

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-desktop-out-');
  app = await openApp({
    prefix: 'atelier-e2e-desktop-',
    seed: async (host) => {
      for (const prompt of PROMPTS) {
        const id = await seedJob(host, prompt);
        jobs.push({ id, imageId: (await apiCall(host, 'jobs.get', { id })).images[0]!.id });
      }
      await apiCall(host, 'boards.create', { name: 'Picks' });
    },
    browser: { viewport: { width: 1360, height: 860 } },
    beforeGoto: (page) => installFakeDesktop(page),
  });
  await expectGrid(app.page, [...PROMPTS].reverse());
}, 180_000);

afterAll(async () => {
  await app?.close();
  await rm(outside, { recursive: true, force: true });
});

// A failed test must not leave a dialog open over the next one.
afterEach(async () => {
  for (let i = 0; i < 3 && (await app.page.locator('dialog[open]').count()) > 0; i += 1)
    await app.page.keyboard.press('Escape');
});

const importDialog = () => app.page.getByRole('dialog', { name: 'Import images' });

async function selectTwo(): Promise<void> {
  const { page } = app;
  await page.getByRole('button', { name: PROMPTS[0], exact: true }).click();
  await page.getByRole('button', { name: PROMPTS[2], exact: true }).click({ modifiers: ['Control'] });
  await page.getByRole('toolbar', { name: 'Selected images' }).waitFor();
}

describe('Export to folder… (desktop)', () => {
  it('asks the OS for a folder, starts nothing when it is closed, and exports the selection into the one chosen', async () => {
    const { page } = app;
    await selectTwo();
    await page
      .getByRole('toolbar', { name: 'Selected images' })
      .getByRole('button', { name: 'Export 2 selected images' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Export 2 selected images' });
    await dialog.waitFor();
    // No path to type on desktop: the folder comes from the OS picker.
    expect(await dialog.getByRole('textbox', { name: 'Folder' }).count()).toBe(0);
    await dialog.getByText('Files in a folder').click();
    await screenshot(page, 'export-dialog-desktop');

    await setPickedFolder(page, null);
    await dialog.getByRole('button', { name: 'Export to folder…' }).click();
    await waitFor(
      async () => (await desktopCalls(page)).some((c) => c.channel === 'desktop.pickFolder'),
      'the folder picker to be asked',
    );
    await dialog.getByRole('button', { name: 'Export to folder…' }).waitFor();
    expect(await desktopCalls(page, 'export.start')).toEqual([]);
    expect((await apiCall(app.host, 'export.list', {})).items).toEqual([]);

    const folder = join(outside, 'picked');
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
    await setPickedFolder(page, folder);
    await dialog.getByRole('button', { name: 'Export to folder…' }).click();
    await dialog.getByText('Exported 2 of 2').waitFor();
    expect((await desktopCalls(page, 'export.start')).map((c) => c.input)).toEqual([
      { target: { ids: expect.any(Array) }, format: 'folder', manifest: 'csv', folder },
    ]);
    await screenshot(page, 'export-dialog-desktop-done');
    const [started] = (await apiCall(app.host, 'export.list', {})).items;
    expect(started).toMatchObject({ format: 'folder', path: folder, total: 2, status: 'completed' });
    const written = (await readdir(folder)).sort();
    expect(written.filter((n) => n.endsWith('.png'))).toHaveLength(2);
    expect(written).toContain('manifest.csv');
    const originals = await Promise.all(
      [jobs[0]!, jobs[2]!].map((j) => readFile(app.host.engine.resolveMedia('image', j.imageId)!.path)),
    );
    const copies = await Promise.all(written.filter((n) => n.endsWith('.png')).map((n) => readFile(join(folder, n))));
    expect(copies.map((c) => c.toString('base64')).sort()).toEqual(originals.map((o) => o.toString('base64')).sort());
    await dialog.getByRole('button', { name: 'Close' }).click();
  });
});

describe('dragging a selection out (desktop)', () => {
  it('hands every selected image to the OS drag, and its files dropped on a board add them there, not as an import', async () => {
    const { page } = app;
    await selectTwo();
    const drag = await startCardDrag(page, jobs[2]!.id);
    // The page's own drag is cancelled: main starts the OS drag of the originals.
    expect(drag.prevented).toBe(true);
    expect(drag.types).not.toContain(DRAG_TYPE);
    const started = (await desktopCalls(page)).filter((c) => c.channel === 'desktop.startDrag').at(-1)!;
    expect([...(started.input as { imageIds: string[] }).imageIds].sort()).toEqual(
      [jobs[0]!.imageId, jobs[2]!.imageId].sort(),
    );

    const dragged = [jobs[0]!, jobs[2]!].map((j) => ({ name: `${j.imageId}.png`, path: fakeOriginal(j.imageId) }));
    await dropFiles(page, '.board:has-text("Picks")', dragged);
    const boards = page.getByRole('region', { name: 'Boards' });
    await boards.getByRole('button', { name: /^Board Picks, 2 images$/ }).waitFor();
    expect(await importDialog().count()).toBe(0);
  });

  it('dropped back on the grid is no import; a file from elsewhere still is', async () => {
    const { page } = app;
    await startCardDrag(page, jobs[1]!.id);
    const before = (await desktopCalls(page)).filter((c) => c.channel === 'desktop.droppedImages').length;
    const own = [{ name: `${jobs[1]!.imageId}.png`, path: fakeOriginal(jobs[1]!.imageId) }];
    // Over the window, the library's own drag-out offers no import.
    await dropFiles(page, '.grid-canvas', own, ['dragenter', 'dragover']);
    expect(await page.locator('.drop-overlay').count()).toBe(0);
    await dropFiles(page, '.grid-canvas', own, ['drop']);
    await waitFor(
      async () => (await desktopCalls(page)).filter((c) => c.channel === 'desktop.droppedImages').length > before,
      'main to be asked about the drop',
    );
    // Answered: the drop was the library's own file, so the import dialog never opens.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(await importDialog().count()).toBe(0);

    const foreign = [{ name: 'sketch.png', path: '/home/me/sketch.png' }];
    await dropFiles(page, '.grid-canvas', foreign, ['dragenter', 'dragover']);
    await page.locator('.drop-overlay').waitFor();
    await dropFiles(page, '.grid-canvas', foreign, ['drop']);
    await importDialog().waitFor();
    expect(await importDialog().getByRole('textbox').first().inputValue()).toContain('/home/me/sketch.png');
    await importDialog().getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('dragging out of the viewer (desktop)', () => {
  it('hands its one image to the OS drag; dropped back on the window it is no import', async () => {
    const { page } = app;
    await page.getByRole('button', { name: PROMPTS[1], exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${PROMPTS[1]}` });
    await viewer.waitFor();
    const prevented = await viewer.locator('img.zoom-image').evaluate((img) => {
      const g = globalThis as unknown as {
        DataTransfer: new () => unknown;
        DragEvent: new (type: string, init: Record<string, unknown>) => Event;
      };
      const event = new g.DragEvent('dragstart', {
        bubbles: true,
        cancelable: true,
        dataTransfer: new g.DataTransfer(),
      });
      img.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
    expect((await desktopCalls(page, 'desktop.startDrag')).at(-1)!.input).toEqual({ imageId: jobs[1]!.imageId });
    const before = (await desktopCalls(page, 'desktop.droppedImages')).length;
    await dropFiles(page, 'dialog[open]', [{ name: `${jobs[1]!.imageId}.png`, path: fakeOriginal(jobs[1]!.imageId) }]);
    await waitFor(
      async () => (await desktopCalls(page, 'desktop.droppedImages')).length > before,
      'main to be asked about the drop',
    );
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(await importDialog().count()).toBe(0);
  });
});
