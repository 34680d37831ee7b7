import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, startHost, openApp, type App } from './harness.js';
import { apiCall, expectGrid, seedJob, waitFor } from './helpers.js';

const PROMPTS = [
  'a quiet harbour at dawn',
  'copper kettle on a stove',
  'moss on old stones',
  'paper lanterns in fog',
  'a heron in reeds',
  'glass of water in sunlight',
];

let app: App;
const ids: string[] = [];
const TOKEN = 'e2e-safety-token-0123456789';

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-safety-',
    host: { token: TOKEN, engine: { housekeepingDelayMs: 0 } },
    seed: async (host) => {
      for (const prompt of PROMPTS) ids.push(await seedJob(host, prompt, 64));
      await apiCall(host, 'jobs.setFavorite', { ids: [ids[0]!], favorite: true });
    },
  });
  await expectGrid(app.page, PROMPTS);
}, 120_000);

afterAll(() => app?.close());

describe('retention asks first, and only moves to the trash', () => {
  it('saving "keep at most 3 jobs" shows how many jobs, images and bytes move, then moves them to the trash', async () => {
    const { page } = app;
    const expected = await apiCall(app.host, 'jobs.previewRetention', { maxJobs: 3, maxBytes: null, maxAgeDays: null });
    expect(expected.jobs).toBe(3);
    await page.getByRole('button', { name: 'Settings' }).click();
    // Settings shows one section at a time (settings/settings-sections.ts).
    await page.getByRole('tab', { name: 'Work and retention' }).click();
    await page.getByLabel('Keep at most (jobs, blank = no limit)').fill('3');
    await page.getByRole('region', { name: 'Work and retention' }).getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move 3 jobs to the trash?' });
    await dialog.waitFor();
    await expect(dialog.getByTestId('retention-counts').textContent()).resolves.toMatch(
      /move 3 jobs with 3 images \(\s*\d+(\.\d+)? KB\) to the trash now/,
    );
    await screenshot(page, 'safety-retention-confirm');
    // Nothing moved while the question is open.
    expect((await apiCall(app.host, 'jobs.stats', {})).trashed).toBe(0);
    await dialog.getByRole('button', { name: 'Move to trash and save' }).click();
    await waitFor(async () => (await apiCall(app.host, 'jobs.stats', {})).trashed === 3, 'three jobs in the trash');
    await page.getByRole('button', { name: 'Close' }).first().click();
    // The favorite (the oldest) stays; the three next-oldest are in the trash, not deleted.
    await expectGrid(page, [PROMPTS[0]!, PROMPTS[4]!, PROMPTS[5]!]);
    await page.getByRole('tab', { name: /Trash/ }).click();
    await expectGrid(page, PROMPTS.slice(1, 4));
    await page.getByRole('tab', { name: /All/ }).click();
    await apiCall(app.host, 'settings.update', { retention: { maxJobs: null } });
  });
});

describe('empty trash tells the truth about favorites', () => {
  it('says how many favorites it removes, and withdraws an earlier Undo', async () => {
    const { page } = app;
    await page.getByRole('button', { name: PROMPTS[0]!, exact: true }).click();
    await page.keyboard.press('Delete');
    const undo = page.getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    await page.getByRole('tab', { name: /Trash/ }).click();
    await expectGrid(page, PROMPTS.slice(0, 4));
    await expect(page.locator('.trash-header p').textContent()).resolves.toMatch(/except favorites/);
    // The Favorites tab counts favorites outside the trash: none now.
    await waitFor(
      async () => (await page.getByRole('tab', { name: /Favorites/ }).textContent()) === 'Favorites0',
      'the Favorites count to drop to 0',
    );
    await page.getByRole('button', { name: 'Empty trash…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Empty the trash?' });
    await expect(dialog.getByTestId('trash-favorites').textContent()).resolves.toMatch(/1 of them is a favorite/);
    await screenshot(page, 'safety-empty-trash-favorites');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText('Trash is empty').waitFor();
    // Shown once Empty trash has answered: by then the earlier Undo must be gone (it could restore nothing).
    await page.getByText(/Trash emptied: 4 jobs removed/).waitFor();
    await expect(undo.count()).resolves.toBe(0);
    await page.getByRole('tab', { name: /All/ }).click();
  });
});

describe('an emptied database beside the library', () => {
  it('shows a banner, keeps every file, and rebuilds the history from the images', async () => {
    const { page } = app;
    await expectGrid(page, PROMPTS.slice(4));
    const port = app.host.server.port;
    await app.host.stop();
    for (const name of ['atelier.db', 'atelier.db-wal', 'atelier.db-shm', 'atelier.db.clean-close'])
      await rm(join(app.dataDir, name), { force: true });
    // The default start-up delay: the page must ask again until the library check is done.
    app.host = await startHost({ rendererDir: app.renderer.dir, dataDir: app.dataDir, token: TOKEN, port });
    await page.goto(app.host.url);
    const banner = page.locator('.banner.recovery');
    await banner.waitFor({ timeout: 20_000 });
    await expect(banner.textContent()).resolves.toMatch(/does not list 2 images in your library folder/);
    await screenshot(page, 'safety-recovery-banner');
    await banner.getByRole('button', { name: 'Rebuild history from images' }).click();
    await expectGrid(page, PROMPTS.slice(4));
    await banner.waitFor({ state: 'detached' });
    await page.getByText(/History rebuilt from your images: 2 jobs with 2 images restored/).waitFor();
  }, 60_000);
});

describe('kept orphans', () => {
  it('Settings shows the orphans the orphan collection kept, and removes them only after a counted confirmation', async () => {
    const { page } = app;
    const port = app.host.server.port;
    await app.host.stop();
    // A leftover no job lists, named as Atelier names its files and older than the orphan collection's grace period.
    const orphan = join(app.dataDir, 'library', 'ff', `${'f'.repeat(62)}.png`);
    await mkdir(join(app.dataDir, 'library', 'ff'), { recursive: true });
    await writeFile(orphan, 'an orphaned leftover');
    const old = new Date(Date.now() - 2 * 3_600_000);
    await utimes(orphan, old, old);
    app.host = await startHost({
      rendererDir: app.renderer.dir,
      dataDir: app.dataDir,
      token: TOKEN,
      port,
      engine: { housekeepingDelayMs: 0 },
    });
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.stats', {})).orphans.files === 1,
      'the orphan to be kept aside',
    );
    await page.goto(app.host.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Library' }).click();
    const row = page.getByRole('region', { name: 'Library', exact: true });
    await expect(row.textContent()).resolves.toMatch(/1 file \(20 B\) no job lists, kept in the orphans folder/);
    await row.getByRole('button', { name: 'Remove for good…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 1 orphaned file?' });
    await dialog.waitFor();
    await screenshot(page, 'safety-orphans-confirm');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText(/Removed 1 orphaned file, 20 B freed/).waitFor();
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.stats', {})).orphans.files === 0,
      'the orphans folder to be empty',
    );
    expect((await apiCall(app.host, 'jobs.stats', {})).total).toBe(2);
  }, 60_000);
});
