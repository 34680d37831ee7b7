import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

/**
 * The composer as a new person first sees it: the prompt dominates, provider, model, size (ratio chips over width ×
 * height) and count sit together under it, and everything else waits under Advanced, which then stays as the person left it.
 */
let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-composer-layout-',
    browser: { viewport: { width: 1360, height: 860 }, advancedOpen: false },
  });
  await app.page.getByLabel('Prompt', { exact: true }).waitFor();
}, 120_000);

afterAll(() => app?.close());

const advanced = () => app.page.locator('details.advanced');
const isOpen = () => advanced().evaluate((el) => (el as unknown as { open: boolean }).open);

describe('the composer', () => {
  it('leads with a large prompt that grows as it is typed, the everyday settings under it, the rest closed', async () => {
    const { page } = app;
    expect(await isOpen()).toBe(false);
    for (const label of ['Provider', 'Model', 'Size', 'Width', 'Height', 'Count'])
      expect(await page.getByLabel(label, { exact: true }).isVisible()).toBe(true);
    for (const label of ['Steps', 'Guidance', 'Seed'])
      expect(await page.getByLabel(label, { exact: true }).isVisible()).toBe(false);
    const prompt = page.getByLabel('Prompt', { exact: true });
    const before = (await prompt.boundingBox())!.height;
    await prompt.fill(Array.from({ length: 12 }, (_, i) => `line ${i + 1} of a long prompt about a harbour`).join(' '));
    const after = (await prompt.boundingBox())!.height;
    expect(after).toBeGreaterThan(before);
    await screenshot(page, 'composer-new-person');
    await prompt.fill('a harbour at dusk');
  });

  it('a fixed seed is named on the closed Advanced, and an error under it opens it to show the message', async () => {
    const { page } = app;
    await advanced().locator('summary').click();
    await page.getByLabel('Seed', { exact: true }).fill('4242');
    await page.getByLabel('Steps', { exact: true }).fill('100000');
    await advanced().locator('summary').click();
    expect(await isOpen()).toBe(false);
    expect(await advanced().locator('.advanced-note').textContent()).toContain('seed 4242');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(isOpen, 'Advanced to open on the error');
    expect(
      await page
        .locator('.field.invalid')
        .filter({ has: page.getByLabel('Steps', { exact: true }) })
        .count(),
    ).toBe(1);
    expect((await apiCall(app.host, 'jobs.list', { limit: 10, view: 'all' })).items).toHaveLength(0);
  });

  it('stays open or closed as the person left it, across a reload', async () => {
    const { page } = app;
    await page.getByLabel('Steps', { exact: true }).fill('20');
    expect(await isOpen()).toBe(true);
    await page.reload();
    await page.getByLabel('Prompt', { exact: true }).waitFor();
    expect(await isOpen()).toBe(true);
    await advanced().locator('summary').click();
    // The browser fires `toggle` after the click returns; a reload before it would undo what the person did.
    await waitFor(
      () =>
        page.evaluate(
          () =>
            (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
              'atelier.composerAdvanced',
            ) === 'closed',
        ),
      'the closed Advanced to be remembered',
    );
    await page.reload();
    await page.getByLabel('Prompt', { exact: true }).waitFor();
    expect(await isOpen()).toBe(false);
  });
});
