import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { SCREENSHOT_DIR, openApp, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

/** A provider's own limits, set where its key is: how many jobs run at once, and how many start a minute. */
let app: App;

beforeAll(async () => {
  app = await openApp({ prefix: 'atelier-e2e-provider-limits-' });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('a provider’s limits in Settings', () => {
  it('sets jobs at once and jobs per minute, and a blank per-minute limit removes it', async () => {
    const { page, host } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('article', { name: 'Black Forest Labs FLUX', exact: true });
    await card.scrollIntoViewIfNeeded();
    const atOnce = card.getByLabel('Jobs at once', { exact: true });
    const perMinute = card.getByLabel('Jobs per minute', { exact: true });
    expect(await atOnce.inputValue()).toBe('2');
    expect(await perMinute.inputValue()).toBe('');
    expect(await perMinute.getAttribute('placeholder')).toBe('No limit');
    await atOnce.fill('6');
    await perMinute.fill('10');
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => {
      const bfl = (await apiCall(host, 'settings.get', {})).providers['bfl'];
      return bfl?.concurrency === 6 && bfl.perMinute === 10;
    }, 'the limits saved');
    await card.screenshot({ path: join(SCREENSHOT_DIR, 'settings-provider-limits.png') });

    await perMinute.fill('');
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(
      async () => (await apiCall(host, 'settings.get', {})).providers['bfl']?.perMinute === undefined,
      'the per-minute limit removed',
    );
    expect((await apiCall(host, 'settings.get', {})).providers['bfl']?.concurrency).toBe(6);
  }, 60_000);
});
