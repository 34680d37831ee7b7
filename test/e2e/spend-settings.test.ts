import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpendGate } from '../../electron/spend/spend-gate.js';
import { screenshot, openApp, type App } from './harness.js';
import { seriousViolations } from './axe.js';
import { apiCall } from './helpers.js';

/**
 * Settings → Spend as the person meets it: each paid provider's day and month, a monthly cap typed in dollars, the
 * note when the cap holds a provider's queue, and the prices estimates use. Spend is recorded through the engine's
 * own spend gate (the one the scheduler admits paid jobs through), so the figures are the ledger's.
 */
let app: App;
let gate: SpendGate;
const flux = { model: 'flux-2-pro', count: 1, width: 1024, height: 1024 };

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-spend-',
    host: { engine: { spendGate: (g) => (gate = g) } },
    seed: async (host) => {
      await apiCall(host, 'settings.update', { spend: { monthlyCapUsd: { bfl: 0.5 } } });
      gate.admit('a', 'bfl', 'bfl', flux);
      gate.record('a', 'bfl', 'bfl', 'flux-2-pro', flux, { costUsd: 0.45 });
      gate.admit('b', 'openai', 'openai', {
        model: 'gpt-image-1',
        quality: 'medium',
        count: 2,
        width: 1024,
        height: 1024,
      });
      gate.record(
        'b',
        'openai',
        'openai',
        'gpt-image-1',
        { quality: 'medium', count: 2, width: 1024, height: 1024 },
        {},
      );
      // Two more FLUX images would pass the $0.50 cap: the gate holds the provider's queue.
      gate.admit('c', 'bfl', 'bfl', { ...flux, count: 2 });
    },
    browser: { viewport: { width: 1360, height: 900 } },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('Settings → Spend', () => {
  it('shows spend per provider, the pause a cap makes, and saves a cap and a price typed in dollars', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    // Settings shows one section at a time (settings/settings-sections.ts).
    await settings.getByRole('tab', { name: 'Spend' }).click();
    const section = settings.getByRole('region', { name: 'Spend' });
    const providers = section.getByRole('table', { name: 'Spend per provider' });
    const flux = providers.getByRole('row', { name: /Black Forest Labs FLUX/ });
    await flux.waitFor();
    await section.scrollIntoViewIfNeeded();
    expect(await flux.getByRole('cell').allInnerTexts()).toEqual(['$0.45', '$0.45', expect.stringContaining('$')]);
    expect(
      await providers
        .getByRole('row', { name: /OpenAI/ })
        .getByRole('cell')
        .first()
        .innerText(),
    ).toBe('$0.08');
    const paused = section.getByRole('status').filter({ hasText: 'Paused: Black Forest Labs FLUX' });
    await paused.waitFor();
    expect(await paused.innerText()).toMatch(
      /^Paused: Black Forest Labs FLUX would pass its monthly cap of \$0\.50 \(\$0\.45 spent, this job ~\$0\.06\)\. Raise the cap in Settings → Spend or wait until 1 \w+ \d{4}\.$/,
    );
    await section.getByText('By day this month').click();
    const days = section.getByRole('table', { name: 'Spend by day' });
    expect(await days.getByRole('row').count()).toBe(2);
    await days
      .getByRole('row', { name: /Black Forest Labs FLUX/ })
      .getByText('$0.45')
      .waitFor();
    await screenshot(page, 'settings-spend');
    expect(await seriousViolations(page)).toEqual([]);

    // Not dollars: said under the field, nothing saved.
    const cap = section.getByRole('textbox', { name: 'Monthly cap for Black Forest Labs FLUX, in dollars' });
    expect(await cap.inputValue()).toBe('0.5');
    await cap.fill('lots');
    await cap.press('Enter');
    await section.getByRole('alert').getByText('Type an amount in dollars, like 20 or 0.05.').waitFor();
    expect((await apiCall(app.host, 'settings.get', {})).spend?.monthlyCapUsd).toEqual({ bfl: 0.5 });

    // A raised cap saves, and the pause goes.
    await cap.fill('$20');
    await cap.press('Enter');
    await expect
      .poll(async () => (await apiCall(app.host, 'settings.get', {})).spend?.monthlyCapUsd)
      .toEqual({ bfl: 20 });
    await paused.waitFor({ state: 'detached' });

    // A price of the person's own for the model they use.
    const prices = section.getByRole('table', { name: 'Prices per image' });
    const price = prices.getByRole('textbox', { name: 'Price per image for flux-2-pro, in dollars' });
    await price.fill('0.04');
    await prices
      .getByRole('row', { name: /flux-2-pro/ })
      .getByRole('button', { name: 'Save' })
      .click();
    await expect
      .poll(async () => (await apiCall(app.host, 'settings.get', {})).spend?.prices)
      .toEqual({ 'bfl/flux-2-pro': 0.04 });
    await prices
      .getByRole('row', { name: /flux-2-pro/ })
      .getByText('yours')
      .waitFor();
    // Blank is the list price again.
    await price.fill('');
    await price.press('Enter');
    await expect.poll(async () => (await apiCall(app.host, 'settings.get', {})).spend?.prices).toEqual({});
  }, 60_000);
});
