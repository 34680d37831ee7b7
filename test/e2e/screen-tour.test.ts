import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearDuplicateFixtures } from '../fixtures/near-duplicates.js';
import { toolFiles } from '../fixtures/images/tool-files.js';
import { rm, tempDir, openApp, type App, type Host } from './harness.js';
import { apiCall, holdClock, openFilters, search, waitFor } from './helpers.js';
import { SIZES, gridMeasure, insideViewport, sizeName, tourShot, type Size } from './tour-helpers.js';

/**
 * The screen tour: one small library (batches of 1, 2 and 4, marks, a trashed picture, imports, a board with a tag)
 * and each screen a person meets, at 1440×900 and 1024×700, light and dark, as
 * test-results/screenshots/tour-<screen>-<size>-<theme>.png. Each shot asserts the state it claims first.
 */
const FAVOURED = 'a pear on a blue plate';
const REJECTED = 'a blurred street, out of focus';
const OWL = 'a lone owl at dusk';
const HERON = 'a grey heron at dawn';
const PAIR = 'two foxes in the snow';
const FOUR = 'four studies of a kingfisher';
/** Rated from the viewer at each size, one picture each (a rating moves on to the next). */
const RATED_AT: Record<string, string> = { '1440x900': OWL, '1024x700': HERON };

let app: App;
let outside: string;
const ids: Record<string, string> = {};

async function generate(host: Host, prompt: string, count: number): Promise<void> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: 384,
    height: 384,
    count,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `"${prompt}" to finish`,
    90_000,
  );
  ids[prompt] = job.id;
}

const imagesOf = async (prompt: string) => (await apiCall(app.host, 'jobs.get', { id: ids[prompt]! })).images;
const card = (prompt: string) =>
  app.page.locator('.card').filter({ has: app.page.getByRole('button', { name: prompt, exact: true }) });
const composer = () => app.page.getByRole('form', { name: 'Composer' });
const trashTab = () => app.page.getByRole('tab', { name: /^Trash/ });
const allTab = () => app.page.getByRole('tab', { name: /^All/ });

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-tour-out-');
  const copies = join(outside, 'copies');
  await mkdir(copies, { recursive: true });
  for (const [i, f] of (await nearDuplicateFixtures(1)).entries())
    await writeFile(join(copies, `copy-${i}-${f.variant}.${f.ext}`), f.data);
  // A fresh folder per size, so each size sees its own import finish.
  for (const size of SIZES) {
    const dir = join(outside, `outputs-${sizeName(size)}`);
    await mkdir(dir, { recursive: true });
    for (const f of (await toolFiles(`tour${size.width}`)).slice(0, 3)) await writeFile(join(dir, f.name), f.bytes);
  }
  app = await openApp({
    prefix: 'atelier-e2e-tour-',
    seed: async (host) => {
      for (const prompt of [REJECTED, HERON, OWL, FAVOURED]) await generate(host, prompt, 1);
      await generate(host, PAIR, 2);
      await generate(host, FOUR, 4);
      const get = async (prompt: string) => (await apiCall(host, 'jobs.get', { id: ids[prompt]! })).images;
      const [fav] = await get(FAVOURED);
      await apiCall(host, 'images.setRating', { ids: [fav!.id], rating: 5 });
      await apiCall(host, 'images.setFavorite', { ids: [fav!.id], favorite: true });
      await apiCall(host, 'images.setRejected', { ids: [(await get(REJECTED))[0]!.id], rejected: true });
      const four = await get(FOUR);
      await apiCall(host, 'images.setRating', { ids: [four[1]!.id], rating: 4 });
      await apiCall(host, 'images.setFavorite', { ids: [four[2]!.id], favorite: true });
      await apiCall(host, 'images.trash', { ids: [(await get(PAIR))[1]!.id] });
      await apiCall(host, 'images.tag', { ids: [fav!.id, four[1]!.id], add: ['keepers'] });
      const { board } = await apiCall(host, 'boards.create', { name: 'Still lifes' });
      await apiCall(host, 'boards.add', { boardId: board.id, ids: [fav!.id, four[0]!.id] });
      const { import: imported } = await apiCall(host, 'library.import', {
        paths: [copies],
        mode: 'link',
        watch: false,
      });
      await waitFor(
        async () =>
          (await apiCall(host, 'library.imports', {})).items.find((i) => i.id === imported.id)?.status === 'completed',
        'the copies to import',
        60_000,
      );
    },
    browser: { viewport: { width: 1440, height: 900 } },
    beforeGoto: async (page) => {
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      // The viewer in culling mode: the picture alone, Details put away.
      await page.addInitScript("localStorage.setItem('atelier.viewer.details', 'hidden')");
    },
  });
  await card(FOUR).waitFor();
}, 180_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

async function resize(size: Size): Promise<void> {
  await app.page.setViewportSize(size);
  for (let i = 0; i < 3 && (await app.page.locator('dialog[open]').count()) > 0; i += 1)
    await app.page.keyboard.press('Escape');
}

describe.each(SIZES)('the screen tour at $width×$height', (size) => {
  const name = sizeName(size);

  it('the gallery with its panels, then with them folded by Tab on a picture', async () => {
    const { page } = app;
    await resize(size);
    const library = page.getByRole('complementary', { name: 'Library' });
    await tourShot(page, 'gallery-panels', size, async () => {
      expect(await library.isVisible()).toBe(true);
      // Beside the grid at 1440; a closed (inert) drawer behind Compose at 1024.
      expect((await page.locator('#composer-drawer').getAttribute('inert')) !== null).toBe(size.width < 1440);
      const { firstCardTop } = await gridMeasure(page);
      expect(firstCardTop).toBeGreaterThan(0);
      expect(firstCardTop).toBeLessThan(160);
      await card(FOUR).waitFor();
    });
    await page.locator('.grid-canvas [data-card][tabindex="0"]').focus();
    await page.keyboard.press('Tab');
    await library.waitFor({ state: 'hidden' });
    await tourShot(page, 'gallery-hidden', size, async () => {
      const drawer = page.locator('#composer-drawer');
      expect((await drawer.isHidden()) || (await drawer.getAttribute('inert')) !== null).toBe(true);
      expect((await gridMeasure(page)).gridWidth).toBeGreaterThanOrEqual(0.95 * size.width);
    });
    await page.locator('.grid-canvas [data-card][tabindex="0"]').focus();
    await page.keyboard.press('Tab');
    await library.waitFor();
  });

  it('the filters popover open, and a batch of four in view', async () => {
    const { page } = app;
    await resize(size);
    const popover = await openFilters(page);
    await tourShot(page, 'filters', size, async () => {
      expect(await popover.getByLabel('Source filter').isVisible()).toBe(true);
      expect(await insideViewport(popover)).toBe(true);
    });
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    await card(FOUR).scrollIntoViewIfNeeded();
    await tourShot(page, 'batch-of-four', size, async () => {
      expect(await card(FOUR).locator('img.thumb').count()).toBe(4);
      expect(await insideViewport(card(FOUR))).toBe(true);
    });
  });

  it('the viewer with Details hidden: the ★★★★ sign after 4, then the filmstrip', async () => {
    const { page } = app;
    await resize(size);
    const prompt = RATED_AT[name]!;
    await page.getByRole('button', { name: prompt, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${prompt}` });
    await viewer.waitFor();
    const sign = page.getByTestId('mark-feedback');
    await holdClock(page);
    await page.keyboard.press('4');
    // Rating moved on: the sign over the next picture says it is about the previous one, and shows it small.
    await expect.poll(() => sign.textContent()).toBe('★★★★ · previous image');
    await tourShot(
      page,
      'viewer-rated',
      size,
      async () => {
        expect(await sign.textContent()).toBe('★★★★ · previous image');
        expect(await sign.locator('img.mark-of-thumb').count()).toBe(1);
        expect(await page.getByTestId('mark-announcement').textContent()).toBe('Rated 4 stars');
      },
      false,
    );
    await page.clock.resume();
    await sign.waitFor({ state: 'detached' });
    await waitFor(async () => (await imagesOf(prompt))[0]!.rating === 4, `${prompt} rated 4`);
    // Rating moved on to the next picture: back to the rated one, then Details (the filmstrip comes with them).
    await page.keyboard.press('ArrowLeft');
    await viewer.waitFor();
    await page.keyboard.press('Shift+I');
    const strip = page.getByRole('group', { name: 'Nearby images' });
    await strip.waitFor();
    await tourShot(page, 'viewer-filmstrip', size, async () => {
      const labels = await strip.getByRole('button').evaluateAll((b) => b.map((e) => e.getAttribute('aria-label')));
      // The picture on screen is named by its place alone; its mark rides along.
      expect(labels).toContain('Image 1: 4 stars');
      expect(await viewer.locator('h2.details-prompt').textContent()).toContain(prompt);
      expect(await insideViewport(strip)).toBe(true);
    });
    await page.keyboard.press('Shift+I');
    await strip.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });
  });

  it('the trash: banner, tab and cards agree; then one card selected shows its image count', async () => {
    const { page } = app;
    await resize(size);
    await trashTab().click();
    const banner = page.getByTestId('trash-banner');
    await waitFor(async () => (await banner.textContent())?.startsWith('1 image in the trash.') === true, 'banner');
    await tourShot(page, 'trash', size, async () => {
      expect(await trashTab().textContent()).toBe('Trash1');
      // The banner keeps the standard spacing under the toolbar (it sat flush against it).
      const toolbarBottom = await page.locator('.topbar').evaluate((t) => {
        const r = (t as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect();
        return r.bottom;
      });
      const bannerTop = (await page.locator('.trash-header').boundingBox())!.y;
      expect(bannerTop - toolbarBottom).toBeGreaterThanOrEqual(8);
      expect(await page.locator('.grid-canvas .card').count()).toBe(1);
      expect(await page.locator('.grid-canvas .card img.thumb').count()).toBe(1);
    });
    await allTab().click();
    await card(FOUR).waitFor();
    await page.getByRole('button', { name: FAVOURED, exact: true }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    await bar.waitFor();
    const oneRow = async () => {
      const rowHeight = (await bar.getByRole('button', { name: 'Move to Trash' }).boundingBox())!.height;
      return (await bar.boundingBox())!.height < 2 * rowHeight;
    };
    await tourShot(page, 'selection', size, async () => {
      expect(await bar.getByTestId('selection-count').textContent()).toBe('1 image selected');
      expect(await insideViewport(bar)).toBe(true);
      expect(await oneRow()).toBe(true);
      // A favourite picked alone: one toggle, and it takes the heart away; nothing imported, nothing to re-read.
      expect(await bar.getByRole('button', { name: /^(Un)?[Ff]avorite / }).allTextContents()).toEqual(['♡ Unfavorite']);
      expect(await bar.getByRole('button', { name: /^Re-read/ }).count()).toBe(0);
    });
    // With one that is not a favourite beside it, the one toggle favourites both.
    await page.getByRole('button', { name: OWL, exact: true }).click({ modifiers: ['Control'] });
    await waitFor(async () => (await bar.getByTestId('selection-count').textContent()) === '2 images selected', '2');
    expect(await bar.getByRole('button', { name: /^(Un)?[Ff]avorite / }).allTextContents()).toEqual(['♥ Favorite']);
    expect(await oneRow()).toBe(true);
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
  });

  it('the composer with Advanced open keeps Generate in view', async () => {
    const { page } = app;
    await resize(size);
    const toggle = page.getByRole('button', { name: /^Compose/ });
    if (size.width < 1440) {
      await toggle.click();
      await waitFor(async () => (await toggle.getAttribute('aria-expanded')) === 'true', 'the drawer open');
    }
    await composer().getByLabel('Prompt', { exact: true }).fill('a kingfisher on a reed, morning light, shallow focus');
    const advanced = composer().locator('details.advanced');
    if ((await advanced.getAttribute('open')) === null) await advanced.locator('summary').click();
    await waitFor(async () => (await advanced.getAttribute('open')) !== null, 'Advanced open');
    const generate = composer().getByRole('button', { name: /^Generate/ });
    await tourShot(page, 'composer-advanced', size, async () => {
      await waitFor(() => insideViewport(generate), 'Generate inside the viewport');
      // The drawer over the gallery dims what it covers, so the cards under its edge read as behind it.
      const backdrop = await page.locator('.workspace').evaluate((w) => {
        const style = (
          globalThis as unknown as {
            getComputedStyle(e: unknown, pseudo: string): { content: string; backgroundColor: string };
          }
        ).getComputedStyle(w, '::after');
        return style.content !== 'none' && style.backgroundColor !== 'rgba(0, 0, 0, 0)';
      });
      expect(backdrop).toBe(size.width < 1440);
    });
    await composer().getByLabel('Prompt', { exact: true }).fill('');
    if (size.width < 1440) {
      await toggle.click();
      await waitFor(async () => (await toggle.getAttribute('aria-expanded')) === 'false', 'the drawer closed');
    }
  });

  it('search: the suggestion list, then "Did you mean" for a mistyped key', async () => {
    const { page } = app;
    await resize(size);
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.click();
    await box.pressSequentially('sou');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: /source:/ }).waitFor();
    await tourShot(page, 'search-suggestions', size, async () => {
      expect(await insideViewport(list)).toBe(true);
    });
    await search(page, 'modle:owl');
    const hint = page.getByRole('alert').filter({ hasText: 'Did you mean model:?' });
    await hint.waitFor();
    await tourShot(page, 'search-did-you-mean', size, async () => {
      expect(await hint.isVisible()).toBe(true);
      // A typed query stays readable at 1024: the box is never cut to a few characters.
      expect((await box.boundingBox())!.width).toBeGreaterThanOrEqual(220);
      expect(await insideViewport(page.getByRole('button', { name: 'Settings', exact: true }))).toBe(true);
      // The note sits under the box at a readable width, not squeezed into a column over the sidebar.
      expect((await hint.boundingBox())!.width).toBeGreaterThanOrEqual(280);
      expect((await hint.boundingBox())!.height).toBeLessThan(140);
      // The grid does not contradict it: a search that cannot be read matches nothing "by another spelling".
      expect(await page.getByText('Nothing matches', { exact: false }).count()).toBe(0);
    });
    await search(page, '');
    await box.press('Escape');
    await box.evaluate((el) => (el as unknown as { blur(): void }).blur());
  });

  it('an import ends with "Show N imported"', async () => {
    const { page } = app;
    await resize(size);
    const folder = join(outside, `outputs-${name}`);
    await page.getByRole('button', { name: 'Import…' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.getByLabel('Folders or files, one a line').fill(folder);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const toast = page.getByRole('status').filter({ hasText: `Imported 3 images from outputs-${name}` });
    await toast.waitFor({ timeout: 20_000 });
    await tourShot(page, 'import-done', size, async () => {
      expect(await toast.getByRole('button', { name: 'Show 3 imported' }).isVisible()).toBe(true);
    });
    // Put away as a person would, so the next size's gallery starts at the grid.
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    const row = page.getByRole('listitem', { name: `Import of outputs-${name}` });
    await row.getByRole('button', { name: 'Dismiss' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('Settings at a section, and the ? cheat sheet', async () => {
    const { page } = app;
    await resize(size);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.waitFor();
    await settings.getByRole('tab', { name: 'Library' }).click();
    await tourShot(page, 'settings-library', size, async () => {
      expect(await settings.getByRole('tabpanel').getAttribute('data-section')).toBe('library');
      expect(await insideViewport(settings.getByRole('button', { name: 'Close', exact: true }))).toBe(true);
    });
    await settings.getByRole('button', { name: 'Close', exact: true }).click();
    await settings.waitFor({ state: 'detached' });
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    await tourShot(page, 'cheat-sheet', size, async () => {
      expect(await sheet.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
        'Gallery',
        'Viewer',
        'Composer',
        'Sweep grid',
        'Curation',
      ]);
      // The whole sheet inside the window, every group's last row on screen, no key group broken over two lines.
      expect(await insideViewport(sheet)).toBe(true);
      for (const group of await sheet.locator('section').all())
        expect(await insideViewport(group.locator('.cheat-sheet-row').last())).toBe(true);
      const kbdHeight = (await sheet.locator('kbd').first().boundingBox())!.height;
      type Box = { getBoundingClientRect(): { height: number }; scrollWidth: number; clientWidth: number };
      const keys = await sheet.locator('dt').evaluateAll((dts) =>
        dts.map((d) => {
          const box = d as unknown as Box;
          return { height: box.getBoundingClientRect().height, spill: box.scrollWidth - box.clientWidth };
        }),
      );
      expect(Math.max(...keys.map((k) => k.height))).toBeLessThan(1.5 * kbdHeight);
      // …nor running over the words beside it.
      expect(Math.max(...keys.map((k) => k.spill))).toBeLessThanOrEqual(0);
    });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });

  it('the duplicates view groups the imported copies', async () => {
    const { page } = app;
    await resize(size);
    const show = page.getByRole('button', { name: 'Show duplicates' });
    if (!(await show.isVisible())) await openFilters(page);
    await show.click();
    const sheet = page.getByRole('dialog', { name: 'Duplicates' });
    const groups = sheet.getByRole('region', { name: 'Near copies' });
    // The copies imported first make a group of seven; the tool files imported at each size bring their own.
    const sizes = () =>
      groups.evaluateAll((regions) => regions.map((r) => r.querySelectorAll('[data-similar-image]').length));
    await waitFor(async () => (await sizes()).includes(7), 'the group of seven copies');
    await waitFor(
      () =>
        sheet
          .locator('img')
          .evaluateAll((imgs) =>
            imgs.every(
              (i) =>
                (i as unknown as { complete: boolean }).complete &&
                (i as unknown as { naturalWidth: number }).naturalWidth > 0,
            ),
          ),
      'the thumbnails to load',
    );
    await tourShot(page, 'duplicates', size, async () => {
      const count = (await sizes()).length;
      expect(await sizes()).toContain(7);
      // "Keep this" on one line under each picture, and every picture in its own proportions (64×48 is not a square).
      const keepHeight = (await sheet.getByRole('button', { name: 'Keep this', exact: true }).first().boundingBox())!;
      expect(keepHeight.height).toBeLessThan(40);
      type Img = { naturalWidth: number; naturalHeight: number; width: number; height: number };
      const distorted = await sheet.locator('img.similar-thumb').evaluateAll(
        (imgs) =>
          imgs.filter((i) => {
            const img = i as unknown as Img;
            const fit = (
              globalThis as unknown as { getComputedStyle(e: unknown): { objectFit: string } }
            ).getComputedStyle(i).objectFit;
            const kept = fit === 'contain' || fit === 'scale-down';
            return !kept && Math.abs(img.width / img.height - img.naturalWidth / img.naturalHeight) > 0.02;
          }).length,
      );
      expect(distorted).toBe(0);
      await sheet.getByText(`${count} ${count === 1 ? 'group' : 'groups'} of copies.`, { exact: false }).waitFor();
    });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });
});
