import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startHost, openApp, type App } from './harness.js';
import { apiCall, expectGrid, search, seedJob, waitFor, type FocusDoc, type ImageLike } from './helpers.js';

const FOX = 'a red fox sleeping under snowy pines';
const TOKYO = '東京の夜景 with neon rain';
const FILE_A = 'file_name draft of a lighthouse';
const FILE_B = 'fileXname study of a lighthouse';
const SALE_A = '50% off poster in gouache';
const SALE_B = '50 percent off poster in ink';
const ALL = [FOX, TOKYO, FILE_A, FILE_B, SALE_A, SALE_B];

let app: App;
const TOKEN = 'e2e-library-token-0123456789';

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-lib-',
    host: { token: TOKEN },
    seed: async (host) => {
      for (const prompt of ALL) await seedJob(host, prompt, 128);
    },
  });
  await expectGrid(app.page, ALL);
}, 120_000);

afterAll(() => app?.close());

describe('find', () => {
  it('finds by a word from the middle of a prompt, in another script, and with literal % and _', async () => {
    const { page } = app;
    await search(page, 'sleeping');
    await expectGrid(page, [FOX]);
    await search(page, '夜景');
    await expectGrid(page, [TOKYO]);
    await search(page, 'file_name');
    await expectGrid(page, [FILE_A]);
    await search(page, '50%');
    await expectGrid(page, [SALE_A]);
    await search(page, 'no such words anywhere');
    await page.getByText('Nothing matches').waitFor();
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await expectGrid(page, ALL);
  });

  it('`/` focuses the search box', async () => {
    const { page } = app;
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('/');
    expect(
      await page.evaluate(() => (globalThis as unknown as FocusDoc).document.activeElement?.getAttribute('aria-label')),
    ).toBe('Search');
    await page.keyboard.press('Escape');
  });
});

describe('keep and bin', () => {
  it('favorite, filters that combine, trash with undo, restore, empty trash', async () => {
    const { page } = app;
    await page.getByRole('button', { name: `Favorite: ${FILE_A}` }).click();
    await page.getByRole('button', { name: `Favorite: ${FOX}` }).click();
    await page.getByRole('tab', { name: /Favorites/ }).click();
    await expectGrid(page, [FILE_A, FOX]);
    await search(page, 'lighthouse');
    await expectGrid(page, [FILE_A]);
    await search(page, '');
    await page.getByRole('tab', { name: /All/ }).click();
    await expectGrid(page, ALL);

    // Trash one, then Undo from the toast.
    await page.getByRole('button', { name: SALE_B, exact: true }).click();
    await page.keyboard.press('Delete');
    await expectGrid(
      page,
      ALL.filter((p) => p !== SALE_B),
    );
    await page.getByRole('button', { name: 'Undo' }).click();
    await expectGrid(page, ALL);

    // Select two with ctrl-click and trash them together.
    await page.getByRole('button', { name: SALE_B, exact: true }).click();
    await page.getByRole('button', { name: FILE_B, exact: true }).click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: 'Move to Trash' }).click();
    await expectGrid(page, [FOX, TOKYO, FILE_A, SALE_A]);

    await page.getByRole('tab', { name: /Trash/ }).click();
    await expectGrid(page, [SALE_B, FILE_B]);
    await page.getByRole('button', { name: `Restore: ${FILE_B}` }).click();
    await expectGrid(page, [SALE_B]);

    await page.getByRole('button', { name: 'Empty trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Empty the trash?' });
    await expect(dialog.textContent()).resolves.toMatch(/1 job with 1 image \(\d+(\.\d+)? (B|KB)\)/);
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText('Trash is empty').waitFor();
    await page.getByRole('tab', { name: /All/ }).click();
    await expectGrid(page, [FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
  });

  it('everything survives a page reload and a host restart', async () => {
    const { page } = app;
    await page.reload();
    await expectGrid(page, [FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    await expect(page.getByRole('button', { name: `Unfavorite: ${FOX}` }).count()).resolves.toBe(1);

    const port = app.host.server.port;
    await app.host.stop();
    await page.getByText('Connection to Atelier lost.').waitFor();
    app.host = await startHost({ rendererDir: app.renderer.dir, dataDir: app.dataDir, token: TOKEN, port });
    // The open page reconnects by itself and refetches.
    await page.getByText('Connection to Atelier lost.').waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByRole('tab', { name: /Favorites/ }).click();
    await expectGrid(page, [FOX, FILE_A]);
    await page.reload();
    await expectGrid(page, [FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    await page.getByRole('tab', { name: /Favorites/ }).click();
    await expectGrid(page, [FOX, FILE_A]);
    await page.getByRole('tab', { name: /All/ }).click();
  }, 60_000);
});

describe('keyboard only', () => {
  it('compose, generate, navigate the grid, open the viewer, favorite, delete, undo', async () => {
    const { page } = app;
    await page.reload();
    await expectGrid(page, [FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    const focused = () =>
      page.evaluate(() => {
        const active = (globalThis as unknown as FocusDoc).document.activeElement;
        return {
          label: active?.getAttribute('aria-label') ?? active?.id ?? '',
          tag: active?.tagName,
          cls: active?.className ?? '',
        };
      });
    // Focus may follow a key by a frame when the card has to scroll into view first.
    const expectFocus = async (label: string) => {
      let last = '';
      try {
        await waitFor(async () => (last = (await focused()).label) === label, `focus on ${label}`, 3_000);
      } catch {
        expect(last).toBe(label);
      }
    };
    const tabTo = async (match: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) => {
      for (let i = 0; i < 60; i += 1) {
        await page.keyboard.press('Tab');
        if (match(await focused())) return;
      }
      throw new Error(`Tab never reached ${what}`);
    };
    await tabTo((f) => f.tag === 'TEXTAREA' && String(f.cls).includes('prompt'), 'the prompt box');
    await page.keyboard.type('keyboard painted meadow');
    await page.keyboard.press('Control+Enter');
    await expectGrid(page, ['keyboard painted meadow', FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    // F favourites a picture: on a busy machine the render outlasts the keys below, and F on a live job has none yet.
    const meadow = page.locator('.card', {
      has: page.getByRole('button', { name: 'keyboard painted meadow', exact: true }),
    });
    await waitFor(
      async () =>
        (await meadow.locator('.thumb.live').count()) === 0 && (await meadow.locator('img.thumb').count()) === 1,
      'the new job to finish rendering',
      30_000,
    );

    await tabTo((f) => String(f.cls).includes('card-open'), 'a grid card');
    // The grid keeps its own tab stop; Home goes to the newest.
    await page.keyboard.press('Home');
    await expectFocus('keyboard painted meadow');
    await page.keyboard.press('ArrowRight');
    await expectFocus(SALE_A);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: 'Viewer: keyboard painted meadow' });
    await viewer.waitFor();
    await page.keyboard.press('f');
    await viewer.getByRole('button', { name: '♥ Favorite' }).waitFor();
    await page.keyboard.press('Delete');
    await page.getByRole('dialog', { name: `Viewer: ${SALE_A}` }).waitFor();
    await page.keyboard.press('Escape');
    await expectGrid(page, [FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    await page.getByRole('status').filter({ hasText: 'Moved to Trash.' }).waitFor();
    await page.keyboard.press('Control+z');
    await expectGrid(page, ['keyboard painted meadow', FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
    const job = (await apiCall(app.host, 'jobs.list', { search: 'keyboard painted' })).items[0];
    expect(job?.favorite).toBe(true);
    expect(job?.trashedAt).toBeNull();
  }, 60_000);
});

describe('screenshots (light and dark)', () => {
  it('main view, viewer and settings', async () => {
    const { page } = app;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.reload();
      await expectGrid(page, ['keyboard painted meadow', FOX, TOKYO, FILE_A, FILE_B, SALE_A]);
      await waitFor(
        () =>
          page
            .locator('.grid-canvas img.thumb')
            .evaluateAll((imgs) => imgs.every((i) => (i as unknown as ImageLike).complete)),
        'thumbnails',
      );
      await screenshot(page, `main-${scheme}`);
      await page.getByRole('button', { name: FOX, exact: true }).dblclick();
      await page.getByRole('dialog', { name: `Viewer: ${FOX}` }).waitFor();
      await page.getByText('Technical', { exact: true }).click();
      await page.getByText('Event trace').waitFor();
      await screenshot(page, `viewer-${scheme}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('heading', { name: 'Providers' }).waitFor();
      await screenshot(page, `settings-${scheme}`);
      await page.getByRole('button', { name: 'Close', exact: true }).click();
    }
  }, 60_000);
});
