import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMFY_SEED, toolFiles, type ToolFile } from '../fixtures/images/tool-files.js';
import { rm, screenshot, tempDir, openApp, type App } from './harness.js';
import { apiCall, expectGrid, openFilters, search, waitFor, type ImageLike } from './helpers.js';

let app: App;
let outside: string;
let folder: string;
let files: ToolFile[];
/** Thumbnail requests the page made that failed: a pending thumbnail must never be asked for. */
const failedThumbs: string[] = [];

/** A card's name: its prompt, or the file's name when the file has none. */
const titleOf = (f: ToolFile) => (f.prompt === '' ? f.name : f.prompt);
const A1111 = 'a moth aoneez';
const COMFY = 'a glass harbour comfyez';

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-outputs-');
  folder = join(outside, 'outputs');
  await mkdir(join(folder, 'txt2img'), { recursive: true });
  files = await toolFiles('ez');
  for (const f of files) await writeFile(join(folder, 'txt2img', f.name), f.bytes);
  await writeFile(join(folder, 'notes.md'), '# not an image');
  app = await openApp({
    prefix: 'atelier-e2e-import-',
    beforeGoto: (page) => {
      page.on('response', (r) => {
        if (r.url().includes('/media/thumb/') && r.status() >= 400) failedThumbs.push(`${r.status()} ${r.url()}`);
      });
    },
  });
  await app.page.getByText('Your gallery is empty').waitFor();
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('an empty gallery', () => {
  it('offers to generate the first image (the prompt takes the keyboard) or to import existing images', async () => {
    const { page } = app;
    const empty = page.getByRole('status').filter({ hasText: 'Your gallery is empty' });
    await empty.getByRole('button', { name: 'Try the placeholder generator' }).click();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document
            .activeElement?.className,
      ),
    ).toContain('prompt');
    await empty.getByRole('button', { name: 'Import your existing images…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});

describe('importing a folder of other tools’ images, typed by its path', () => {
  it('Ctrl+I opens the dialog, Ctrl+Enter imports; the import shows its counts and problems; the grid fills with thumbnails and source badges', async () => {
    const { page } = app;
    await page.locator('body').click({ position: { x: 700, y: 500 } });
    await page.keyboard.press('Control+i');
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.waitFor();
    expect(await dialog.getByRole('radio', { name: /Keep files where they are/ }).isChecked()).toBe(true);
    // The browser has no OS picker: paths are typed.
    expect(await dialog.getByRole('button', { name: 'Choose folders…' }).count()).toBe(0);
    await dialog.getByLabel('Folders or files, one a line').fill('outputs');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByRole('alert').getByText('“outputs” is not a full path', { exact: false }).waitFor();
    await dialog.getByLabel('Folders or files, one a line').fill(`${folder}\n`);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'import-dialog');
    await page.keyboard.press('Control+Enter');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the dialog to close');

    const row = page.getByRole('listitem', { name: 'Import of outputs' });
    await row.getByText(`Done: ${files.length} imported`).waitFor({ timeout: 20_000 });
    const counts = (await row.locator('.import-counts').textContent()) ?? '';
    expect(counts).toContain(`${files.length + 1} found`);
    expect(counts).toContain(`${files.length} imported`);
    expect(counts).toContain('1 skipped');
    expect(counts).toContain('0 failed');
    // Not an image is no failure: it is listed as skipped, with its reason.
    await row.getByRole('button', { name: 'Show 1 skipped' }).click();
    await row.getByRole('list', { name: 'Files skipped' }).getByText(join(folder, 'notes.md')).waitFor();

    // The new jobs arrive by event: no reload.
    await expectGrid(page, files.map(titleOf));
    await waitFor(
      async () => (await page.locator('.grid-canvas .thumb.pending').count()) === 0,
      'every thumbnail to arrive',
      20_000,
    );
    await waitFor(
      async () =>
        (await page
          .locator('.grid-canvas img.thumb')
          .evaluateAll((imgs) =>
            imgs.every((i) => (i as unknown as ImageLike).complete && (i as unknown as ImageLike).naturalWidth > 0),
          )) === true,
      'every thumbnail to load',
    );
    expect(await page.locator('.grid-canvas img.thumb').count()).toBe(files.length);
    expect(failedThumbs).toEqual([]);
    const comfyCard = page.locator('.card', { has: page.getByRole('button', { name: COMFY, exact: true }) });
    expect(await comfyCard.locator('.source-badge').textContent()).toBe('ComfyUI');
    await screenshot(page, 'import-grid');

    await (await openFilters(page)).getByLabel('Source filter').selectOption('a1111');
    await expectGrid(page, files.filter((f) => f.source === 'a1111').map(titleOf));
    await screenshot(page, 'import-grid-source-filter');
    await (await openFilters(page)).getByLabel('Source filter').selectOption({ label: 'All sources' });
    await expectGrid(page, files.map(titleOf));
  }, 90_000);

  it('a word from an imported prompt finds it; its details show the source, the settings, the exact 64-bit seed and the raw metadata', async () => {
    const { page } = app;
    await search(page, 'comfyez');
    await expectGrid(page, [COMFY]);
    await page.getByRole('button', { name: COMFY, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${COMFY}` });
    await viewer.waitFor();
    const value = (label: string) =>
      viewer
        .locator('.details-list dt', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]');
    await value('Source').getByText('ComfyUI').waitFor();
    // The tool is the Source; "Provider" would name a provider this file never ran on.
    expect(await viewer.locator('.details-list dt', { hasText: /^Provider$/ }).count()).toBe(0);
    expect(await value('Seed').textContent()).toBe(COMFY_SEED);
    expect(await value('Scheduler').textContent()).toBe('karras');
    expect(await value('Sampler').textContent()).toBe('dpmpp_2m');
    expect(await value('Location').locator('.mono').textContent()).toBe(join(folder, 'txt2img', 'ComfyUI_0.png'));
    await viewer.getByText(/^Technical: \d+ texts? in the file$/).click();
    // Each text says where in the file it sits, and can be copied.
    const raw = viewer.getByLabel('Text: PNG text “prompt”', { exact: true });
    await viewer.getByRole('button', { name: 'Copy PNG text “prompt”' }).waitFor();
    expect(await raw.textContent()).toContain('"class_type":"KSampler"');
    await screenshot(page, 'import-details-raw');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
  }, 60_000);

  it('with Write XMP sidecars on, rating an imported image by key writes its rating beside the original', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    // Settings shows one section at a time (settings/settings-sections.ts).
    await settings.getByRole('tab', { name: 'Library' }).click();
    const box = settings.getByRole('checkbox', { name: /Write XMP sidecars/ });
    expect(await box.isChecked()).toBe(false);
    // Saved the moment it is ticked: the box shows the saved setting.
    await box.click();
    await page.getByText('Settings saved.').waitFor();
    await waitFor(async () => box.isChecked(), 'the box to show the saved setting');
    expect((await apiCall(app.host, 'settings.get', {})).library).toMatchObject({ xmpSidecars: true });
    await screenshot(page, 'import-xmp-setting');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'Settings to close');
    await search(page, 'comfyez');
    await expectGrid(page, [COMFY]);
    await page.getByRole('button', { name: COMFY, exact: true }).click();
    await page.keyboard.press('4');
    const original = files.find((f) => f.prompt === COMFY)!;
    const sidecar = join(folder, 'txt2img', `${original.name}.xmp`);
    await waitFor(
      async () => (await readFile(sidecar, 'utf8').catch(() => '')).includes('xmp:Rating="4"'),
      'the sidecar',
    );
    expect(
      Buffer.from(await readFile(join(folder, 'txt2img', original.name))).equals(Buffer.from(original.bytes)),
    ).toBe(true);
    await search(page, '');
  }, 60_000);

  it('Reuse settings fills the composer; favourite it; trash it: the original stays on disk, byte for byte', async () => {
    const { page } = app;
    await search(page, 'aoneez');
    await expectGrid(page, [A1111]);
    await page.getByRole('button', { name: A1111, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${A1111}` });
    await viewer.waitFor();
    await viewer.locator('.details-list dt', { hasText: /^Model hash$/ }).waitFor();
    await viewer.getByRole('button', { name: 'Reuse settings' }).click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the viewer to close');
    expect(await page.getByLabel('Prompt', { exact: true }).inputValue()).toBe(A1111);
    expect(await page.getByLabel('Negative prompt', { exact: true }).inputValue()).toBe('dust');
    // AUTOMATIC1111 is off here: the settings go to the provider the composer can run, and a toast says so.
    await page.getByText(/is not turned on, so these settings are set up for Built-in/).waitFor();
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('builtin');
    expect(await page.getByLabel('Steps', { exact: true }).inputValue()).toBe('30');
    await screenshot(page, 'import-reused');

    await page.getByRole('button', { name: `Favorite: ${A1111}` }).click();
    await page.getByRole('button', { name: `Unfavorite: ${A1111}` }).waitFor();
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 10, view: 'active', search: 'aoneez' });
    expect(items.map((j) => j.favorite)).toEqual([true]);

    await page.getByRole('button', { name: A1111, exact: true }).click();
    await page.keyboard.press('Delete');
    await page.getByText('Moved to Trash.').waitFor();
    const job = await apiCall(app.host, 'jobs.get', { id: items[0]!.id });
    expect(job.trashedAt).not.toBeNull();
    const original = files.find((f) => f.prompt === A1111)!;
    expect(
      Buffer.from(await readFile(join(folder, 'txt2img', original.name))).equals(Buffer.from(original.bytes)),
    ).toBe(true);
    await search(page, '');
  }, 60_000);

  it('Retry generates an imported image again on a provider here, as a new Atelier job linked to the original', async () => {
    const { page } = app;
    const NOVEL = 'a cat knight novelez';
    await search(page, 'novelez');
    await expectGrid(page, [NOVEL]);
    const original = (
      await apiCall(app.host, 'jobs.list', { limit: 10, view: 'all', search: 'novelez', source: 'novelai' })
    ).items[0]!;
    await page.getByRole('button', { name: NOVEL, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${NOVEL}` });
    // NovelAI is not a provider here: its request runs on the built-in generator (its own sampler name stays in Details).
    await viewer.getByRole('button', { name: 'Retry' }).click();
    await page.keyboard.press('Escape');
    let retried: string | undefined;
    // 832 × 1216 at 28 steps: the built-in takes a while on a busy machine.
    await waitFor(
      async () => {
        const { items } = await apiCall(app.host, 'jobs.list', {
          limit: 10,
          view: 'all',
          search: 'novelez',
          source: 'atelier',
        });
        retried = items[0]?.status === 'succeeded' ? items[0].id : undefined;
        return retried !== undefined;
      },
      'the retry to finish',
      75_000,
    );
    const detail = await apiCall(app.host, 'jobs.get', { id: retried! });
    expect(detail.request).toMatchObject({
      provider: 'builtin',
      prompt: NOVEL,
      negativePrompt: 'lowres',
      seed: 1234,
      steps: 28,
    });
    expect(detail.retryOf).toBe(original.id);
    await search(page, '');
  }, 100_000);

  it('a file dropped on the page opens the dialog, which says that the browser needs the path typed', async () => {
    const { page } = app;
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: string[], name: string, options: { type: string }) => unknown;
        DragEvent: new (type: string, init: Record<string, unknown>) => unknown;
        dispatchEvent(event: unknown): boolean;
      };
      const data = new g.DataTransfer();
      data.items.add(new g.File(['x'], 'dropped.png', { type: 'image/png' }));
      (g as unknown as { __drop: unknown }).__drop = data;
      g.dispatchEvent(new g.DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.getByText('Drop folders or images to import them').waitFor();
    await screenshot(page, 'import-drop-overlay');
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        __drop: unknown;
        DragEvent: new (type: string, init: Record<string, unknown>) => unknown;
        dispatchEvent(event: unknown): boolean;
      };
      g.dispatchEvent(new g.DragEvent('drop', { dataTransfer: g.__drop, bubbles: true, cancelable: true }));
    });
    expect(await page.getByText('Drop folders or images to import them').count()).toBe(0);
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.getByRole('note').getByText('In the browser, type the folder’s path', { exact: false }).waitFor();
    await screenshot(page, 'import-dialog-after-drop');
    expect(await dialog.getByLabel('Folders or files, one a line').inputValue()).toBe('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'the dialog to close');
  });

  it('Settings → Folders lists the folder; removing it says how many images go to the trash, and leaves every file on disk', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('tab', { name: 'Library' }).click();
    const row = page.getByRole('listitem', { name: `Folder ${folder}` });
    // One of them was trashed above: the count is of those still outside the trash, exactly what moves now.
    await row.getByText(`Linked · Not watched · ${files.length - 1} images`).waitFor();
    await row.getByRole('button', { name: 'Remove from library' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this folder from the library?' });
    expect(await confirm.getByTestId('remove-folder-counts').textContent()).toContain(
      `The ${files.length - 1} images from ${folder} move to Atelier’s trash`,
    );
    await confirm.getByText('The files on your disk are not touched').waitFor();
    await screenshot(page, 'import-remove-folder');
    await confirm.getByRole('button', { name: `Move ${files.length - 1} images to the trash` }).click();
    await page
      .getByText(`Folder removed: ${files.length - 1} images moved to the trash. Your files were not touched.`)
      .waitFor();
    for (const f of files)
      expect(Buffer.from(await readFile(join(folder, 'txt2img', f.name))).equals(Buffer.from(f.bytes)), f.name).toBe(
        true,
      );
    expect((await apiCall(app.host, 'library.folders', {})).items).toEqual([]);
  }, 60_000);

  it('Resume and Cancel on an import that was paused: the row says where it stopped and goes on from there', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    // Many copies of one file, so the import is still scanning when it is paused a moment after it starts.
    const many = async (name: string, tag: string) => {
      const dir = join(outside, name);
      await mkdir(dir, { recursive: true });
      const [file] = await toolFiles(tag, 3);
      for (let i = 0; i < 1_500; i += 1) await writeFile(join(dir, `copy-${i}.png`), file!.bytes);
      const { import: started } = await apiCall(app.host, 'library.import', { paths: [dir] });
      const { import: paused } = await apiCall(app.host, 'library.pauseImport', { id: started.id });
      expect(paused.status).toBe('paused');
      return page.getByRole('listitem', { name: `Import of ${name}` });
    };
    const resumed = await many('many', 'pz');
    await resumed.getByText(/^Paused( at \d+ of \d+| while looking: \d+ found)?$/).waitFor();
    expect(await resumed.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await screenshot(page, 'import-paused');
    await resumed.getByRole('button', { name: 'Resume' }).click();
    await resumed.getByText('Done: 1 imported').waitFor({ timeout: 30_000 });
    expect(await resumed.locator('.import-counts').textContent()).toContain('1,499 duplicates');

    const cancelled = await many('more', 'cz');
    await cancelled.getByText(/^Paused( at \d+ of \d+| while looking: \d+ found)?$/).waitFor();
    await cancelled.getByRole('button', { name: 'Cancel' }).click();
    await cancelled.getByText(/^Cancelled at \d+ of \d+$/).waitFor();
    expect(await cancelled.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    await cancelled.getByRole('button', { name: 'Dismiss the import of more' }).click();
    await waitFor(async () => (await cancelled.count()) === 0, 'the dismissed row to go');
  }, 90_000);
});
