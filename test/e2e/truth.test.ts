/**
 * Telling the truth in the UI: provider cards say Off / Not tested / Ready / Failing, the seed field says Random, a
 * failed tile shows its whole words, a failure behind the viewer gets a toast, and a retry links both tiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeA1111, type FakeA1111 } from '../fakes/a1111.js';
import { closedPort, SCREENSHOT_DIR, openApp, type App } from './harness.js';
import { apiCall, seedJob, waitFor, type FocusDoc } from './helpers.js';
import { join } from 'node:path';

const FAILING = 'a portrait of the keeper of the lighthouse in oils';
const BUILTIN = 'a quiet harbour with a red boat';

let app: App;
let fake: FakeA1111 | undefined;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-truth-',
    host: {
      // A1111 points where nothing listens; a few quick retries leave time to open the viewer before the job fails.
      engine: {
        providerDefaults: { a1111: { baseUrl: `http://127.0.0.1:${await closedPort()}` } },
        retry: { maxAttempts: 4, baseDelayMs: 700, maxDelayMs: 1_500 },
      },
    },
    seed: (host) => seedJob(host, BUILTIN, 128),
  });
  await app.page.getByRole('button', { name: BUILTIN, exact: true }).waitFor();
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await app?.close();
});

const card = (name: RegExp) => app.page.getByRole('article', { name });
const badge = (name: RegExp) => card(name).locator('.provider-state');
const shot = (locator: ReturnType<typeof card>, name: string) =>
  locator.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });

interface Box {
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number };
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
  querySelector(selector: string): Box;
}
const WHOLE_TILE = { overflowWrap: 'break-word', wordBreak: 'normal', fitsItself: true, insideTile: true };

/** How a failed tile lays out its message: wrapping rules, and whether every line is inside the visible tile. */
function tileLayout(tile: ReturnType<typeof card>) {
  return tile.evaluate((el) => {
    const c = el as unknown as Box;
    const message = c.querySelector('.tile-message');
    const s = (
      globalThis as unknown as { getComputedStyle(e: unknown): { overflowWrap: string; wordBreak: string } }
    ).getComputedStyle(message);
    const m = message.getBoundingClientRect();
    const open = c.querySelector('.card-open').getBoundingClientRect();
    const thumb = c.querySelector('.thumb').getBoundingClientRect();
    // The visible tile: the thumb box inside the button, each clipping what leaves it.
    const t = {
      top: Math.max(open.top, thumb.top),
      bottom: Math.min(open.bottom, thumb.bottom),
      left: Math.max(open.left, thumb.left),
      right: Math.min(open.right, thumb.right),
    };
    return {
      overflowWrap: s.overflowWrap,
      wordBreak: s.wordBreak,
      fitsItself: message.scrollHeight <= message.clientHeight && message.scrollWidth <= message.clientWidth,
      insideTile: m.top >= t.top && m.bottom <= t.bottom && m.left >= t.left && m.right <= t.right,
    };
  });
}

describe('telling the truth', () => {
  it('Settings cards: Off while disabled, Ready for the builtin, Not tested once on, Failing after a failed test', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Off');
    expect(await badge(/^ComfyUI/).textContent()).toBe('Off');
    expect(await badge(/Built-in/).textContent()).toBe('Ready');
    expect(await badge(/OpenAI/).textContent()).toBe('Needs setup');
    await shot(card(/AUTOMATIC1111/), 'provider-off');

    await card(/AUTOMATIC1111/)
      .getByRole('checkbox')
      .check();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Not tested');
    await shot(card(/AUTOMATIC1111/), 'provider-not-tested');

    await card(/AUTOMATIC1111/)
      .getByRole('button', { name: 'Test connection' })
      .click();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Failing');
    // The status line says when; the provider's words are in the test result beside it, not twice.
    expect(
      await card(/AUTOMATIC1111/)
        .locator('.provider-status')
        .textContent(),
    ).toBe('Last test failed just now.');
    expect(
      await card(/AUTOMATIC1111/)
        .locator('.test-result')
        .textContent(),
    ).toMatch(/reach|connect|refused|answer/i);
    await shot(card(/AUTOMATIC1111/), 'provider-failing');

    // A new window (or a restart) still knows: Failing, when, and why.
    await page.reload();
    await page.getByRole('button', { name: BUILTIN, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Failing');
    expect(
      await card(/AUTOMATIC1111/)
        .locator('.provider-status')
        .textContent(),
    ).toMatch(/^Last test failed (just now|1 min ago): .*(reach|connect|refused|answer)/i);
    await shot(card(/AUTOMATIC1111/), 'provider-failing-after-reload');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('the seed field reads Random; typing a seed fixes it and it is sent; Random goes back', async () => {
    const { page } = app;
    const seed = page.getByLabel('Seed', { exact: true });
    expect(await seed.inputValue()).toBe('');
    expect(await seed.getAttribute('placeholder')).toBe('Random');
    expect(await seed.isEditable()).toBe(true);
    await shot(page.locator('.field', { has: seed }), 'seed-random');

    await seed.fill('424242');
    expect(await seed.inputValue()).toBe('424242');
    await page.getByText('Fixed: the same settings give the same image.').waitFor();
    await shot(page.locator('.field', { has: seed }), 'seed-fixed');
    // Letters are not a seed: the field keeps the number.
    await seed.press('x');
    expect(await seed.inputValue()).toBe('424242');

    await page.getByLabel('Prompt', { exact: true }).fill('a seeded teapot');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(
      async () =>
        (await apiCall(app.host, 'jobs.list', { limit: 5, view: 'all', search: 'seeded teapot' })).items.length === 1,
      'the seeded job',
    );
    const [job] = (await apiCall(app.host, 'jobs.list', { limit: 5, view: 'all', search: 'seeded teapot' })).items;
    expect((await apiCall(app.host, 'jobs.get', { id: job!.id })).request.seed).toBe(424242);

    await page.getByRole('button', { name: 'Back to a random seed' }).click();
    expect(await seed.inputValue()).toBe('');
    await page.getByText('Random each time. Type a number to fix it.').waitFor();
    await seed.fill('');
  });

  it('a failure behind the viewer gets one toast with Show; the tile shows whole words; Retry links both tiles', async () => {
    const { page } = app;
    await page.getByLabel('Provider', { exact: true }).selectOption('a1111');
    expect(await page.getByLabel('Provider', { exact: true }).locator('option:checked').textContent()).toMatch(
      /\(failing\)$/,
    );
    await page.getByLabel('Prompt', { exact: true }).fill(FAILING);
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    // Look elsewhere while it retries: the viewer on another image.
    await page.getByRole('button', { name: BUILTIN, exact: true }).dblclick();
    await page.getByRole('dialog', { name: `Viewer: ${BUILTIN}` }).waitFor();
    const toast = page.locator('.toast', { hasText: `“${FAILING.slice(0, 20)}` });
    await toast.waitFor({ timeout: 20_000 });
    expect(await toast.textContent()).toMatch(/failed: .*(reach|connect|refused|answer)/i);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'failure-toast-over-viewer.png') });
    await toast.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('dialog', { name: /^Viewer/ }).waitFor({ state: 'detached' });
    await waitFor(
      async () =>
        (await page.evaluate(() =>
          (globalThis as unknown as FocusDoc).document.activeElement?.getAttribute('aria-label'),
        )) === FAILING,
      'the failed card to take focus',
    );
    expect(await page.locator('.toast', { hasText: FAILING.slice(0, 20) }).count()).toBe(0);

    // The tile: wrapped at spaces, every word whole, nothing clipped, the whole message on hover.
    const tile = page.locator('.card', { has: page.getByRole('button', { name: FAILING, exact: true }) });
    const message = tile.locator('.tile-message');
    const full = (await message.getAttribute('title'))!;
    const shown = (await message.textContent())!;
    expect(full).toMatch(/reach|connect|refused|answer/i);
    const fullWords = full.split(/\s+/);
    const shownWords = shown.replace(/…$/, '').split(/\s+/);
    shownWords.forEach((word, i) =>
      expect(word, `word ${i} of "${shown}"`).toBe(
        i === shownWords.length - 1 && shown.endsWith('…') ? fullWords[i]!.slice(0, word.length) : fullWords[i],
      ),
    );
    if (!shown.endsWith('…')) expect(shown).toBe(full);
    expect(await tileLayout(tile)).toEqual(WHOLE_TILE);

    // Once A1111 is back, Settings says Not tested for the new address, then Ready after a test.
    fake = await startFakeA1111();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await card(/AUTOMATIC1111/)
      .getByLabel('Base URL')
      .fill(fake.url);
    await card(/AUTOMATIC1111/)
      .getByRole('button', { name: 'Save' })
      .click();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Not tested');
    await card(/AUTOMATIC1111/)
      .getByRole('button', { name: 'Test connection' })
      .click();
    await expect.poll(() => badge(/AUTOMATIC1111/).textContent()).toBe('Ready');
    expect(
      await card(/AUTOMATIC1111/)
        .locator('.provider-status')
        .textContent(),
    ).toBe('Last test passed just now.');
    await shot(card(/AUTOMATIC1111/), 'provider-ready');
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: `Retry: ${FAILING}` }).click();
    const oldLink = page.getByRole('button', { name: `Retried as new job: show the retry of ${FAILING}` });
    const newLink = page.getByRole('button', { name: `Retry of earlier job: show the job this retried of ${FAILING}` });
    await oldLink.waitFor();
    await newLink.waitFor();
    const ids = await page
      .locator('.card', { has: page.getByRole('button', { name: FAILING, exact: true }) })
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-id')));
    expect(ids).toHaveLength(2);
    const focusedCard = () =>
      page.evaluate(() => (globalThis as unknown as FocusDoc).document.activeElement?.getAttribute('data-card'));
    await oldLink.click();
    const retryId = (await page.locator('.card', { has: newLink }).getAttribute('data-id'))!;
    const originalId = (await page.locator('.card', { has: oldLink }).getAttribute('data-id'))!;
    expect(new Set([retryId, originalId])).toEqual(new Set(ids));
    await waitFor(async () => (await focusedCard()) === retryId, 'the retry card to take focus');
    await newLink.click();
    await waitFor(async () => (await focusedCard()) === originalId, 'the original card to take focus');
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: retryId })).status === 'succeeded',
      'the retry to succeed',
      20_000,
    );
    await page.locator('.card', { has: newLink }).locator('img.thumb').waitFor();
    // The link takes room at the top of the tile: the message still fits whole inside it.
    expect(await tileLayout(page.locator('.card', { has: oldLink }))).toEqual(WHOLE_TILE);
    await page.locator('.grid-canvas').screenshot({ path: join(SCREENSHOT_DIR, 'retry-linked-tiles.png') });
  }, 90_000);
});
