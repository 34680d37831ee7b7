import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../fixtures/serve-process.js';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { insertChunks, tEXt } from '../unit/media/helpers.js';
import { buildRenderer, launchBrowser, rm, screenshot, tempDir, type Browser, type Host } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

/**
 * The headless host as people run it (`electron/serve.ts` in its own process): a watched folder picks up a file a
 * tool writes, and an import killed with SIGKILL goes on after the restart, every file once.
 */
let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let dataDir: string;
let outside: string;
let serve: ServeProcess;
let browser: Browser;

const asHost = (s: ServeProcess): Host => ({ url: s.url, origin: s.origin }) as Host;

beforeAll(async () => {
  renderer = await buildRenderer();
  dataDir = await tempDir('atelier-e2e-live-');
  outside = await tempDir('atelier-e2e-live-out-');
  serve = await startServeProcess(dataDir, renderer.dir);
  browser = await launchBrowser();
  await browser.page.goto(serve.url);
  await browser.page.getByText('Your gallery is empty').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
  for (const dir of [dataDir, outside]) if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  await renderer?.remove();
});

describe('the headless host, in its own process', () => {
  it('watches a folder imported with "Watch for new images": a file a tool writes there shows up in the grid by itself', async () => {
    const { page } = browser;
    const watched = join(outside, 'ComfyUI', 'output');
    await mkdir(watched, { recursive: true });
    const files = await toolFiles('lv');
    await writeFile(join(watched, files[0]!.name), files[0]!.bytes);
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.getByLabel('Folders or files, one a line').fill(watched);
    await dialog.getByRole('checkbox', { name: /Watch for new images/ }).check();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('button', { name: files[0]!.prompt, exact: true }).waitFor();

    const comfy = files.find((f) => f.source === 'comfyui')!;
    await writeFile(join(watched, 'ComfyUI_00042_.png'), comfy.bytes);
    await page.getByRole('button', { name: comfy.prompt, exact: true }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'import-watched-new-file');
    const folders = await apiCall(asHost(serve), 'library.folders', {});
    expect(folders.items).toEqual([
      expect.objectContaining({ path: watched, watch: true, watchState: 'watching', images: 2 }),
    ]);
  }, 60_000);

  it('an import killed with SIGKILL mid-way goes on after the restart, and every file is in the history once', async () => {
    const big = join(outside, 'big');
    await mkdir(big, { recursive: true });
    const [base] = await toolFiles('kill');
    const total = 1_200;
    // Distinct files cheaply: one image, a different text chunk each.
    for (let i = 0; i < total; i += 1)
      await writeFile(
        join(big, `img-${String(i).padStart(4, '0')}.png`),
        insertChunks(base!.bytes, [tEXt('note', `copy ${i}`)]),
      );
    const { import: started } = await apiCall(asHost(serve), 'library.import', { paths: [big] });
    await waitFor(
      async () =>
        ((await apiCall(asHost(serve), 'library.imports', {})).items.find((i) => i.id === started.id)?.imported ?? 0) >=
        50,
      'some files imported',
      30_000,
    );
    serve.child.kill('SIGKILL');
    await new Promise((r) => serve.child.once('exit', r));

    serve = await startServeProcess(dataDir, renderer.dir);
    let done: unknown;
    await waitFor(
      async () => {
        done = (await apiCall(asHost(serve), 'library.imports', {})).items.find(
          (i) => i.id === started.id && i.status === 'completed',
        );
        return done !== undefined;
      },
      'the resumed import to finish',
      90_000,
    );
    expect(done).toMatchObject({ found: total, imported: total, duplicates: 0, failed: 0 });
    const stats = await apiCall(asHost(serve), 'jobs.stats', {});
    // 1,200 here plus the two of the watched folder.
    expect(stats.total).toBe(total + 2);
    expect((await readdir(big)).length).toBe(total);

    await browser.page.goto(serve.url);
    // The page after the restart counts every image once.
    await browser.page.getByRole('tab', { name: /All/ }).getByText('1,202').waitFor({ timeout: 30_000 });
    await screenshot(browser.page, 'import-resumed-after-kill');
  }, 180_000);
});
