import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SOURCES, type ImageSource } from '../../shared/contract.js';
import { SOURCE_LABELS } from '../../shared/source-labels.js';
import { toolFiles, type ToolFile } from '../fixtures/images/tool-files.js';
import { seriousViolations } from './axe.js';
import { rm, screenshot, tempDir, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, waitFor } from './helpers.js';

/**
 * An import that lands where the person looks: "Show N imported" shows exactly what it added, skipped files are not
 * failures, watch can be switched per folder later, and the Source filter lists only the tools present.
 */
let app: App;
let outside: string;
let folder: string;
let files: ToolFile[];
let fresh: ToolFile[];

const titleOf = (f: ToolFile) => (f.prompt === '' ? f.name : f.prompt);

interface StyleWindow {
  getComputedStyle(el: unknown): { color: string };
}

/** The system's light or dark (the theme setting is "system"): the page follows it at once, no reload. */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await waitFor(
    async () =>
      (await page.evaluate(`(() => {
        const [r, g, b] = (getComputedStyle(document.body).color.match(/\\d+(\\.\\d+)?/g) ?? []).map(Number);
        return r + g + b >= 384;
      })()`)) ===
      (theme === 'dark'),
    `the ${theme} theme`,
  );
}

/** The Source filter's option labels (its popover opened first when the toolbar folds the filters into one). */
async function sourceOptions(page: Page): Promise<string[]> {
  const select = page.getByLabel('Source filter');
  if (!(await select.isVisible())) await page.getByRole('button', { name: /^Filters/ }).click();
  await select.waitFor();
  return select.locator('option').allTextContents();
}

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-lands-out-');
  folder = join(outside, 'outputs');
  files = (await toolFiles('ld')).slice(0, 6);
  [, ...fresh] = files;
  await mkdir(join(outside, 'earlier'), { recursive: true });
  await writeFile(join(outside, 'earlier', files[0]!.name), files[0]!.bytes);
  await mkdir(join(folder, 'scripts'), { recursive: true });
  for (const f of files) await writeFile(join(folder, f.name), f.bytes);
  await writeFile(join(folder, 'scripts', '__init__.py'), '');
  await writeFile(join(folder, 'notes.txt'), 'prompts I liked');
  await writeFile(join(folder, 'broken.png'), files[3]!.bytes.subarray(0, Math.floor(files[3]!.bytes.length / 2)));
  app = await openApp({
    prefix: 'atelier-e2e-lands-',
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: (page) => page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' }),
    seed: async (host) => {
      const { import: earlier } = await apiCall(host, 'library.import', {
        paths: [join(outside, 'earlier')],
        mode: 'link',
        watch: false,
      });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === earlier.id)?.status === 'completed',
        'the earlier import',
      );
    },
  });
  await expectGrid(app.page, [titleOf(files[0]!)]);
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('an import that lands where you look', () => {
  it('ends with "Show N imported", which shows exactly the images it added; skipped files are listed apart from failures', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Import…' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.getByLabel('Folders or files, one a line').fill(folder);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();

    const toast = page.getByRole('status').filter({ hasText: 'Imported 5 images from outputs' });
    await toast.waitFor({ timeout: 20_000 });
    expect(await toast.textContent()).toContain('(1 already in the library, 2 skipped, 1 failed)');
    const row = page.getByRole('listitem', { name: 'Import of outputs' });
    await row.getByRole('button', { name: 'Show 5 imported' }).waitFor();
    // Before: the earlier image and the new ones together.
    await expectGrid(page, files.map(titleOf));

    await screenshot(page, 'import-lands-toast-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'import-lands-toast-dark');
    await setTheme(page, 'light');
    await toast.getByRole('button', { name: 'Show 5 imported' }).click();
    await expectGrid(page, fresh.map(titleOf));
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toMatch(/^import:[0-9a-f-]{36}$/);

    await row.getByRole('button', { name: 'Show 2 skipped, 1 failed' }).click();
    const skipped = row.getByRole('list', { name: 'Files skipped' });
    const failed = row.getByRole('list', { name: 'Files that failed' });
    await skipped.getByText(join(folder, 'scripts', '__init__.py')).waitFor();
    expect(await skipped.locator('li', { hasText: '__init__.py' }).textContent()).toContain('The file is empty');
    await skipped.getByText(join(folder, 'notes.txt')).waitFor();
    await failed.getByText(join(folder, 'broken.png')).waitFor();
    expect(await failed.locator('li').count()).toBe(1);
    // Only a failure is in the warning colour: a skipped file's reason reads as plain muted text.
    const colour = (list: typeof skipped) =>
      list
        .locator('.reason')
        .first()
        .evaluate((el) => (globalThis as unknown as StyleWindow).getComputedStyle(el).color);
    const danger = (await page.evaluate(
      `getComputedStyle(document.querySelector('.import-left-out.failed .reason')).color`,
    )) as string;
    expect(await colour(failed)).toBe(danger);
    expect(await colour(skipped)).not.toBe(danger);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-lands-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'import-lands-dark');
    await setTheme(page, 'light');
    await search(page, '');
    await expectGrid(page, files.map(titleOf));
  }, 90_000);

  it('the Source filter lists only the tools the library holds, with their counts', async () => {
    const { page } = app;
    const counts = new Map<ImageSource, number>();
    for (const f of files) counts.set(f.source, (counts.get(f.source) ?? 0) + 1);
    const labels = await sourceOptions(page);
    expect(labels[0]).toBe('All sources');
    expect(labels.slice(1).sort()).toEqual([...counts].map(([source, n]) => `${SOURCE_LABELS[source]} (${n})`).sort());
    // Never a tool with nothing in the library: not even Atelier, which has made nothing here yet.
    const absent = IMAGE_SOURCES.filter((source) => !counts.has(source));
    expect(absent).toContain('atelier');
    expect(labels.filter((l) => absent.some((source) => l.startsWith(`${SOURCE_LABELS[source]} (`)))).toEqual([]);
    await page.getByLabel('Source filter').selectOption('comfyui');
    await expectGrid(page, files.filter((f) => f.source === 'comfyui').map(titleOf));
    await screenshot(page, 'import-lands-source-filter');
    await page.getByLabel('Source filter').selectOption('');
    await page.keyboard.press('Escape');
    await expectGrid(page, files.map(titleOf));
  }, 60_000);

  it('watch is switched on for an imported folder later, a new file then comes in by itself; switched off, it stays off after a reload', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const libraryTab = settings.getByRole('tab', { name: 'Library' });
    if ((await libraryTab.count()) > 0) await libraryTab.click();
    const watch = settings.getByRole('switch', { name: `Watch ${folder} for new images` });
    await watch.waitFor();
    expect(await watch.isChecked()).toBe(false);
    const row = settings.getByRole('listitem', { name: `Folder ${folder}` });
    await row.getByText('Not watched').waitFor();
    await watch.click();
    await row.getByText('Watching').waitFor();
    expect(await watch.isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-lands-watch-light');
    await setTheme(page, 'dark');
    await screenshot(page, 'import-lands-watch-dark');
    await setTheme(page, 'light');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.getByRole('dialog').count()) === 0, 'Settings to close');

    const [later] = await toolFiles('ldlater', 7);
    await writeFile(join(folder, 'later.png'), later!.bytes);
    await page.getByRole('button', { name: titleOf(later!), exact: true }).waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    if ((await libraryTab.count()) > 0) await libraryTab.click();
    await watch.click();
    await row.getByText('Not watched').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    if ((await libraryTab.count()) > 0) await libraryTab.click();
    await row.getByText('Not watched').waitFor();
    expect(await watch.isChecked()).toBe(false);
    const { items } = await apiCall(app.host, 'library.folders', {});
    expect(items.find((f) => f.path === folder)).toMatchObject({ watch: false, watchState: 'off' });
    await page.keyboard.press('Escape');
  }, 90_000);
});
