import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../shared/contract.js';
import { screenshot, openApp, type App } from './harness.js';
import { desktopCalls, installFakeDesktop } from './desktop-bridge.js';
import { apiCall, expectGrid, seedJob } from './helpers.js';

/**
 * Automatic updates as the person meets them in the desktop app: Settings → Updates (the switch is the engine's real
 * setting, over the headless host) and the "Restart to update" banner. main's updater is faked in the page: it
 * answers updates.status and takes updates.restart, and the test pushes the updater's status events.
 */
interface UpdaterGlobals {
  pushUpdateStatus(status: UpdateStatus): void;
}

function fakeUpdater(): void {
  const g = globalThis as unknown as { atelier: Record<string, unknown>; pushUpdateStatus(status: unknown): void };
  let current: unknown = { state: 'idle', checkedAt: null };
  const listeners = new Set<(status: unknown) => void>();
  const recorded = g.atelier['updates.restart'] as (input: unknown) => Promise<unknown>;
  g.atelier['updates.status'] = async () => ({ ok: true, value: current });
  // Recorded by the fake desktop, then answered as main does once an update is ready.
  g.atelier['updates.restart'] = async (input: unknown) => {
    void recorded(input);
    return { ok: true, value: {} };
  };
  g.atelier.onUpdateStatus = (listener: (status: unknown) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  g.pushUpdateStatus = (status) => {
    current = status;
    for (const listener of listeners) listener(status);
  };
}

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-updates-',
    seed: (host) => seedJob(host, 'a lighthouse at dusk'),
    browser: { viewport: { width: 1360, height: 860 } },
    beforeGoto: async (page) => {
      await installFakeDesktop(page);
      await page.addInitScript(fakeUpdater);
    },
  });
  await expectGrid(app.page, ['a lighthouse at dusk']);
}, 180_000);

afterAll(async () => {
  await app?.close();
});

const push = (status: UpdateStatus) =>
  app.page.evaluate((s) => (globalThis as unknown as UpdaterGlobals).pushUpdateStatus(s), status);

describe('automatic updates (desktop)', () => {
  it('Settings → Updates: on by default, shows the download, and the switch turns the stored setting off', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    // Settings shows one section at a time (settings/settings-sections.ts).
    await dialog.getByRole('tab', { name: 'Updates' }).click();
    const toggle = dialog.getByRole('checkbox', { name: /Update Atelier automatically/ });
    await toggle.scrollIntoViewIfNeeded();
    expect(await toggle.isChecked()).toBe(true);
    await dialog.getByText('Atelier checks for a new version at start and once a day.').waitFor();
    await push({ state: 'downloading', version: '0.2.0', percent: 42 });
    await dialog.getByText('Downloading Atelier 0.2.0 in the background — 42%.').waitFor();
    await screenshot(page, 'updates-settings');
    // A controlled box: it shows the engine's answer, so each click is followed by the stored value and the box.
    await toggle.click();
    await expect.poll(async () => (await apiCall(app.host, 'settings.get', {})).updates).toEqual({ auto: false });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(async () => (await apiCall(app.host, 'settings.get', {})).updates).toEqual({ auto: true });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('a downloaded update is offered once at the top: "Restart to update" asks main to install it', async () => {
    const { page } = app;
    const banner = page.getByRole('status').filter({ hasText: 'Update ready' });
    expect(await banner.count()).toBe(0);
    await push({ state: 'ready', version: '0.2.0' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Atelier 0.2.0 is downloaded');
    await screenshot(page, 'updates-banner');
    await banner.getByRole('button', { name: 'Restart to update' }).click();
    await expect
      .poll(async () => (await desktopCalls(page, 'updates.')).map((c) => c.channel))
      .toContain('updates.restart');
  });

  it('"Later" puts the banner away for that version', async () => {
    const { page } = app;
    await page.reload();
    await expectGrid(page, ['a lighthouse at dusk']);
    await push({ state: 'ready', version: '0.2.0' });
    const banner = page.getByRole('status').filter({ hasText: 'Update ready' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Later' }).click();
    await banner.waitFor({ state: 'hidden' });
  });
});

describe('automatic updates in the browser', () => {
  it('say they belong to the desktop app and offer no restart', async () => {
    const other = await app.browser.context.newPage();
    try {
      await other.goto(app.host.url);
      await expectGrid(other, ['a lighthouse at dusk']);
      await other.getByRole('button', { name: 'Settings' }).click();
      await other.getByRole('tab', { name: 'Updates' }).click();
      await other.getByText('Only the desktop app updates itself; this setting applies there.').waitFor();
      expect(await other.getByRole('button', { name: 'Restart to update' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
