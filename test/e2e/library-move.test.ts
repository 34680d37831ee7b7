/**
 * Settings → Library location → Move library… through the headless host started with --data-dir, as a person does
 * it: the move's progress, the gallery whole afterwards, thumbnails from the new folder, and the old copy deleted
 * only once its counted confirmation is accepted.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/create-engine.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';
import { runServe, type ServeHandle } from '../../electron/serve/run.js';
import { buildRenderer, launchBrowser, rm, screenshot, tempDir, type Browser, type Host } from './harness.js';
import { apiCall, expectGrid, seedJob, waitFor, type ImageLike } from './helpers.js';

const TOKEN = 'e2e-move-token-0123456789';
const PROMPTS = ['a lighthouse in fog', 'a red kite over hills', 'a blue door in Lisbon'];

let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let root: string;
let handle: ServeHandle;
let browser: Browser;
let host: Host;
let release: () => void = () => undefined;
let copied = 0;

beforeAll(async () => {
  renderer = await buildRenderer();
  root = await tempDir('atelier-e2e-move-');
  const held = new Promise<void>((resolve) => (release = resolve));
  handle = await runServe(
    ['--data-dir', join(root, 'lib'), '--port', '0', '--token', TOKEN, '--renderer-dir', renderer.dir],
    {
      createEngine: (options) => createEngine({ ...options }, { maintenanceIntervalMs: 0 }),
      createKeyring: createFileKeyring,
      stdout: () => undefined,
      stderr: () => undefined,
      env: { XDG_CONFIG_HOME: join(root, 'config'), HOME: root },
      // Holds the copy after its third file until the test has seen the progress on screen.
      moveHooks: {
        beforeFile: async () => {
          copied += 1;
          if (copied === 3) await held;
        },
      },
    },
  );
  const origin = `http://127.0.0.1:${handle.server.port}`;
  host = {
    engine: handle.engine,
    server: handle.server,
    dataDir: join(root, 'lib'),
    url: handle.server.url,
    origin,
    stop: () => handle.shutdown(),
  };
  for (const prompt of PROMPTS) await seedJob(host, prompt);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  release();
  await browser?.close();
  await handle?.shutdown();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  await renderer?.remove();
});

const thumbsLoaded = (b: Browser) =>
  waitFor(async () => {
    const states = await b.page
      .locator('.grid-canvas .card-open img')
      .evaluateAll((imgs) =>
        imgs.map((i) => (i as unknown as ImageLike).complete && (i as unknown as ImageLike).naturalWidth > 0),
      );
    return states.length === PROMPTS.length && states.every(Boolean);
  }, 'every thumbnail to load');

describe('moving the library (headless host, --data-dir)', () => {
  it('moves with progress, keeps the gallery whole, and deletes the old copy only after its confirmation', async () => {
    const { page } = browser;
    const from = join(root, 'lib');
    const to = join(root, 'other-drive', 'Atelier');
    await page.goto(handle.server.url);
    await expectGrid(page, PROMPTS);
    await thumbsLoaded(browser);

    await page.getByRole('button', { name: 'Settings' }).click();
    // Settings shows one section at a time (settings/settings-sections.ts).
    await page.getByRole('tab', { name: 'Library' }).click();
    const section = page.getByRole('region', { name: 'Library location' });
    await expect.poll(() => section.getByTestId('library-path').textContent()).toBe(from);
    await section.getByRole('button', { name: 'Move library…' }).click();
    await section.getByLabel('New folder (empty or new), full path').fill(to);
    await section.getByRole('button', { name: 'Move here…' }).click();
    await page.getByRole('dialog', { name: 'Move the library?' }).getByRole('button', { name: 'Move library' }).click();

    // The copy is held after two files: the progress is on screen, in files and bytes.
    const progress = section.getByTestId('move-progress');
    await expect
      .poll(() => progress.textContent(), { timeout: 15_000 })
      .toMatch(/Copying 2 of \d+ files · [\d.]+ (KB|MB) of [\d.]+ (KB|MB)/);
    await screenshot(page, 'library-move-progress');
    release();

    const result = section.getByTestId('move-result');
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain('every file was copied and verified');
    // Started with --data-dir: the new path is said, not silently remembered.
    expect(await result.textContent()).toContain(`--data-dir ${to}`);
    expect(existsSync(join(root, 'config', 'Atelier', 'library-location.json'))).toBe(false);
    await expect.poll(() => section.getByTestId('library-path').textContent()).toBe(to);
    expect(handle.engine.dataDir).toBe(to);

    const old = await apiCall(host, 'library.location', {});
    const counts = old.oldCopy!;
    expect(counts).toMatchObject({ path: from });
    expect(counts.files).toBeGreaterThanOrEqual(PROMPTS.length * 2 + 1);
    await expect.poll(() => section.getByTestId('old-copy').textContent()).toContain(`${counts.files} files`);
    await screenshot(page, 'library-move-done');

    // Cancel deletes nothing.
    await section.getByRole('button', { name: 'Delete the old copy…' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${counts.files} files of the old copy?` });
    expect(await confirm.getByTestId('delete-counts').textContent()).toContain(`${counts.files} files`);
    await screenshot(page, 'library-move-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await readdir(join(from, 'library'), { recursive: true })).length).toBeGreaterThan(0);

    await section.getByRole('button', { name: 'Delete the old copy…' }).click();
    await page
      .getByRole('dialog', { name: `Delete ${counts.files} files of the old copy?` })
      .getByRole('button', { name: 'Delete the old copy' })
      .click();
    await waitFor(() => !existsSync(from), 'the old copy to be deleted').catch(async (error: unknown) => {
      throw new Error(`${String(error)}: left ${JSON.stringify(await readdir(from, { recursive: true }))}`);
    });
    await page.keyboard.press('Escape');

    // The gallery is whole, and a fresh browser (no cache) loads every thumbnail: from the new folder, the old is gone.
    await expectGrid(page, PROMPTS);
    const fresh = await launchBrowser();
    try {
      await fresh.page.goto(handle.server.url);
      await expectGrid(fresh.page, PROMPTS);
      await thumbsLoaded(fresh);
    } finally {
      await fresh.close();
    }
  }, 120_000);
});

describe('a remembered library whose drive is not connected (headless host, no --data-dir)', () => {
  it('asks instead of starting an empty library, and opens the library once the drive is back', async () => {
    const config = join(root, 'config2');
    const drive = join(root, 'usb');
    const lib = join(drive, 'Atelier');
    // The library moved to the drive, remembered in the app's pointer file; then the drive is unplugged.
    const first = await runServe(['--data-dir', lib, '--port', '0', '--token', TOKEN, '--renderer-dir', renderer.dir], {
      createEngine: (options) => createEngine({ ...options }, { maintenanceIntervalMs: 0 }),
      createKeyring: createFileKeyring,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    const origin = `http://127.0.0.1:${first.server.port}`;
    await seedJob(
      {
        engine: first.engine,
        server: first.server,
        dataDir: lib,
        url: first.server.url,
        origin,
        stop: () => first.shutdown(),
      },
      'a harbour at night',
    );
    await first.shutdown();
    await mkdir(join(config, 'Atelier'), { recursive: true });
    await writeFile(join(config, 'Atelier', 'library-location.json'), JSON.stringify({ dataDir: lib }));
    await rename(drive, join(root, 'usb-unplugged'));

    const second = await runServe(['--port', '0', '--token', TOKEN, '--renderer-dir', renderer.dir], {
      createEngine: (options) => createEngine({ ...options }, { maintenanceIntervalMs: 0 }),
      createKeyring: createFileKeyring,
      stdout: () => undefined,
      stderr: () => undefined,
      env: { XDG_CONFIG_HOME: config, HOME: root },
    });
    const b = await launchBrowser();
    try {
      await b.page.goto(second.server.url);
      const dialog = b.page.getByRole('dialog', { name: 'Your library is not there' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(lib);
      await screenshot(b.page, 'library-unavailable');
      await dialog.getByRole('button', { name: 'Wait — try again' }).click();
      await expect.poll(() => dialog.getByRole('status').textContent()).toContain('is still not there');
      expect(existsSync(drive)).toBe(false);

      await rename(join(root, 'usb-unplugged'), drive);
      // The page starts again on the library now open.
      await Promise.all([
        b.page.waitForEvent('load'),
        dialog.getByRole('button', { name: 'Wait — try again' }).click(),
      ]);
      await expectGrid(b.page, ['a harbour at night']);
      expect(await b.page.getByRole('dialog', { name: 'Your library is not there' }).count()).toBe(0);
    } finally {
      await b.close();
      await second.shutdown();
    }
  }, 120_000);
});
