/**
 * Settings as sections and the keyboard cheat sheet, in the browser: the section list moved through by keyboard,
 * one section at a time, the last one remembered across a reload; the provider cards with no servers table above
 * them and no Test connection on the built-in; "1 favorite" in Library; `?` opens every shortcut, Escape closes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type App } from './harness.js';
import { seriousViolations } from './axe.js';
import { shootThemes } from './themes.js';
import { apiCall, seedJob, waitFor, type FocusDoc } from './helpers.js';

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-settings-',
    seed: async (host) => {
      const id = await seedJob(host, 'a lighthouse at dusk');
      await seedJob(host, 'a field of poppies');
      const job = await apiCall(host, 'jobs.get', { id });
      await apiCall(host, 'images.setFavorite', { ids: [job.images[0]!.id], favorite: true });
    },
    browser: { viewport: { width: 1440, height: 900 } },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
});

const settings = () => app.page.getByRole('dialog', { name: 'Settings' });
const openSettings = async () => {
  await app.page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings().waitFor();
};
const closeSettings = async () => {
  await settings().getByRole('button', { name: 'Close', exact: true }).click();
  await waitFor(async () => (await settings().count()) === 0, 'Settings to close');
};
const shownSection = () => settings().getByRole('tabpanel').getAttribute('data-section');

describe('Settings in sections', () => {
  it('lists its sections on the left and shows one at a time: Providers first, with cards and no servers table', async () => {
    await openSettings();
    const tabs = settings().getByRole('tablist', { name: 'Settings sections' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual([
      'Appearance',
      'Providers',
      'Spend',
      'Work and retention',
      'Library',
      'Updates',
    ]);
    expect(await shownSection()).toBe('providers');
    expect(await settings().getByRole('tab', { name: 'Providers' }).getAttribute('aria-selected')).toBe('true');
    // The cards are the one list of servers: the table that repeated them is gone.
    const builtin = settings().getByRole('article', { name: /Built-in/ });
    await builtin.waitFor();
    expect(await settings().getByRole('table', { name: 'Servers' }).count()).toBe(0);
    expect(await settings().getByRole('form', { name: 'Add server' }).count()).toBe(1);
    // The built-in runs inside Atelier: nothing to test a connection to. The servers have theirs.
    expect(await builtin.getByRole('button', { name: 'Test connection' }).count()).toBe(0);
    expect(
      await settings()
        .getByRole('article', { name: 'ComfyUI', exact: true })
        .getByRole('button', { name: 'Test connection' })
        .count(),
    ).toBe(1);
    // Only the shown section is in the page: Spend's table and Library's folders are not.
    expect(await settings().getByRole('region', { name: 'Spend' }).count()).toBe(0);
    expect(await settings().getByRole('region', { name: 'Your ComfyUI nodes' }).count()).toBe(0);
    expect(await seriousViolations(app.page)).toEqual([]);
    await shootThemes(app.page, 'settings-providers');
    await closeSettings();
  }, 60_000);

  it('moves through the list by keyboard, and opens again at the section last shown, after a reload too', async () => {
    const { page } = app;
    await openSettings();
    await settings().getByRole('tab', { name: 'Providers' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await shownSection()).toBe('spend');
    await settings().getByRole('region', { name: 'Spend' }).waitFor();
    await page.keyboard.press('End');
    expect(await shownSection()).toBe('updates');
    await page.keyboard.press('ArrowDown');
    expect(await shownSection()).toBe('appearance');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await shownSection()).toBe('library');
    // Focus follows the selection: the list is one Tab stop.
    expect(await page.evaluate(() => (globalThis as unknown as FocusDoc).document.activeElement?.id)).toBe(
      'settings-tab-library',
    );
    const library = settings().getByRole('region', { name: 'Library', exact: true });
    // Counted in words that agree with the number: one favorite, not "1 favorites".
    await library.getByText('2 (1 favorite, 0 trashed whole)').waitFor();
    await settings().getByRole('region', { name: 'Your ComfyUI nodes' }).waitFor();
    await shootThemes(page, 'settings-library');
    await closeSettings();

    await openSettings();
    expect(await shownSection()).toBe('library');
    await closeSettings();
    await page.reload();
    await openSettings();
    expect(await shownSection()).toBe('library');
    // Back to Providers for the files that follow expecting the first visit's section.
    await settings().getByRole('tab', { name: 'Providers' }).click();
    await closeSettings();
  }, 60_000);
});

describe('the keyboard cheat sheet', () => {
  it('opens on ? with every shortcut grouped, not while typing; Escape closes it', async () => {
    const { page } = app;
    // In a text field ? is a character.
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.focus();
    await page.keyboard.press('?');
    expect(await box.inputValue()).toBe('?');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    await box.fill('');
    await box.evaluate((el) => (el as unknown as { blur(): void }).blur());

    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    expect(await sheet.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Gallery',
      'Viewer',
      'Composer',
      'Sweep grid',
      'Curation',
    ]);
    const curation = sheet.getByRole('region', { name: 'Curation' });
    await curation.getByText('Rate the image (0 clears)').waitFor();
    await sheet.getByRole('region', { name: 'Viewer' }).getByText('Show or hide the details').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootThemes(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await sheet.count()) === 0, 'the cheat sheet to close');
  }, 60_000);
});
