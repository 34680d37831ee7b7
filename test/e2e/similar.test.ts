/**
 * Find similar and Show duplicates in the browser: an imported folder of pictures and their copies (made here with
 * sharp), "Find similar" from the viewer lists exactly one picture's copies, a tile opens the viewer, Back returns
 * to the history; "Show duplicates" groups each picture with its copies, never a flat blue with a flat light blue,
 * and "Keep this, trash the rest" moves a group's other images to the trash, with Undo.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearDuplicateFixtures } from '../fixtures/near-duplicates.js';
import { rm, screenshot, tempDir, type Browser, openApp, type App } from './harness.js';
import { shootThemes } from './themes.js';
import { apiCall, search, waitFor, type ImageLike } from './helpers.js';

const SOURCES = 4;

let app: App;
let outside: string;
/** Image id → which source picture it is a copy of. */
const sourceOf = new Map<string, number>();
const imageOfName = new Map<string, string>();

beforeAll(async () => {
  outside = await tempDir('atelier-e2e-pictures-');
  const fixtures = await nearDuplicateFixtures(SOURCES);
  const sourceOfPath = new Map<string, number>();
  for (const [i, f] of fixtures.entries()) {
    const path = join(outside, `picture-${f.source}-${i}.${f.ext}`);
    await writeFile(path, f.data);
    sourceOfPath.set(path, f.source);
  }
  // Two flat colours: their greyscale hashes are rounding noise, one bit apart; they are not copies of each other.
  for (const [name, background] of [
    ['flat-light-blue.png', { r: 135, g: 206, b: 250 }],
    ['flat-blue.png', { r: 0, g: 0, b: 255 }],
  ] as const)
    await writeFile(
      join(outside, name),
      await sharp({ create: { width: 512, height: 512, channels: 3, background } })
        .png()
        .toBuffer(),
    );
  app = await openApp({
    prefix: 'atelier-e2e-similar-',
    seed: async (host) => {
      await apiCall(host, 'library.import', { paths: [outside], mode: 'link', watch: false });
      await waitFor(
        async () => {
          const page = await apiCall(host, 'jobs.list', { limit: 100, view: 'active' });
          const done =
            page.items.length === fixtures.length + 2 && page.items.every((j) => j.images[0]?.thumbPending !== true);
          if (done) {
            for (const job of page.items) {
              const source = sourceOfPath.get(job.path!);
              if (source !== undefined) sourceOf.set(job.images[0]!.id, source);
              imageOfName.set(job.path!.split('/').pop()!, job.images[0]!.id);
            }
          }
          return done;
        },
        'the import and its thumbnails',
        60_000,
      );
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

const thumbsLoaded = (browser: Browser, selector: string) =>
  waitFor(
    () =>
      app.page
        .locator(selector)
        .evaluateAll((imgs) =>
          imgs.every((i) => (i as unknown as ImageLike).complete && (i as unknown as ImageLike).naturalWidth > 0),
        ),
    'the thumbnails to load',
  );

describe('find similar and show duplicates', () => {
  it('Find similar in the viewer lists that picture’s copies, nearest first; a tile opens it; Back returns to the history', async () => {
    const { page } = app;
    const name = 'picture-1-7.png';
    const imageId = imageOfName.get(name)!;
    // Found by its file name, as a person would (210 pictures do not fit one screen).
    await search(page, `path:${name}`);
    await page.getByRole('button', { name, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${name}` });
    await viewer.getByRole('button', { name: 'Find similar' }).click();
    const sheet = page.getByRole('dialog', { name: 'Similar images' });
    await sheet.getByText('6 similar, closest first').waitFor();
    expect(await page.getByRole('dialog', { name: `Viewer: ${name}` }).count()).toBe(0);

    const shown = await sheet
      .locator('.similar-grid [data-similar-image]')
      .evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-similar-image')!));
    const siblings = [...sourceOf].filter(([id, source]) => source === 1 && id !== imageId).map(([id]) => id);
    expect([...shown].sort()).toEqual(siblings.sort());
    const labels = await sheet.locator('.similar-grid .similar-label').allTextContents();
    expect(labels.every((l) => ['Same picture', 'Near copy', 'Look-alike'].includes(l))).toBe(true);
    await thumbsLoaded(app.browser, '.similar-view img');
    await screenshot(page, 'similar');

    // A tile opens the viewer on that image, above the list; Escape closes the viewer alone.
    await sheet.locator(`.similar-grid [data-similar-image="${shown[0]}"]`).click();
    const opened = page.getByRole('dialog', { name: /^Viewer: picture-1-/ });
    await opened.waitFor();
    await page.keyboard.press('Escape');
    await waitFor(async () => (await opened.count()) === 0, 'the viewer to close');
    expect(await sheet.isVisible()).toBe(true);

    await sheet.getByRole('button', { name: '← Back to history' }).click();
    await waitFor(
      async () => (await page.getByRole('dialog', { name: 'Similar images' }).count()) === 0,
      'the list to close',
    );
    await page.getByRole('button', { name, exact: true }).waitFor();
    await search(page, '');
  }, 60_000);

  it('Show duplicates groups every picture with its copies, not two flat colours; Keep this trashes the rest, with Undo', async () => {
    const { page } = app;
    // Show duplicates sits with the filters, in their popover where the toolbar folds them into one.
    const showDuplicates = page.getByRole('button', { name: 'Show duplicates' });
    if (!(await showDuplicates.isVisible())) await page.getByRole('button', { name: /^Filters/ }).click();
    await screenshot(page, 'similar-filters');
    await showDuplicates.click();
    const sheet = page.getByRole('dialog', { name: 'Duplicates' });
    const groups = sheet.getByRole('region', { name: 'Near copies' });
    await waitFor(async () => (await groups.count()) === SOURCES, `${SOURCES} groups`);
    const flat = new Set([imageOfName.get('flat-light-blue.png'), imageOfName.get('flat-blue.png')]);
    for (let g = 0; g < SOURCES; g += 1) {
      const ids = await groups
        .nth(g)
        .locator('[data-similar-image]')
        .evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-similar-image')!));
      const sources = new Set(ids.map((id) => sourceOf.get(id)));
      expect(ids).toHaveLength(7);
      expect(sources.size).toBe(1);
      expect(ids.some((id) => flat.has(id))).toBe(false);
    }
    await sheet.getByText(`${SOURCES} groups of copies.`, { exact: false }).waitFor();
    await thumbsLoaded(app.browser, '.similar-view img');
    await shootThemes(page, 'duplicates');

    // Keep the first image of the first group: its six copies go to the trash, the group leaves the list.
    const first = groups.first();
    const ids = await first
      .locator('[data-similar-image]')
      .evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-similar-image')!));
    const kept = ids[0]!;
    const keepFirst = first.getByRole('button', { name: 'Keep this', exact: true }).first();
    expect(await keepFirst.getAttribute('title')).toBe('Keep this, trash the rest: the other 6 images go to the trash');
    await keepFirst.click();
    await waitFor(async () => (await groups.count()) === SOURCES - 1, 'the kept group to leave the list');
    // The sheet is modal: the trash's Undo is offered inside it, not only in the toast beneath.
    const undo = sheet.getByRole('status').filter({ hasText: 'Moved 6 images to Trash.' });
    await undo.waitFor();
    const trashedIds = async () => {
      const trash = await apiCall(app.host, 'jobs.list', { limit: 100, view: 'trash' });
      return trash.items.flatMap((j) =>
        j.images.filter((i) => j.trashedAt !== null || i.trashed === true).map((i) => i.id),
      );
    };
    await waitFor(async () => (await trashedIds()).length >= 6, 'six images in the trash');
    expect((await trashedIds()).sort()).toEqual(ids.slice(1).sort());
    expect(await trashedIds()).not.toContain(kept);
    await screenshot(page, 'duplicates-kept');
    // Undo puts them back (nothing was deleted) and the group is listed again.
    await undo.getByRole('button', { name: 'Undo' }).click();
    await waitFor(async () => (await trashedIds()).length === 0, 'the six images restored');
    await waitFor(async () => (await groups.count()) === SOURCES, 'the group listed again');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await sheet.count()) === 0, 'the list to close');
  }, 60_000);
});
