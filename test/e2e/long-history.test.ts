import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryPrompt, seedLargeLibrary } from '../fixtures/large-library.js';
import { openApp, type App } from './harness.js';
import { gridPrompts, holdClock, waitFor } from './helpers.js';

const JOBS = 3_000;

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-long-',
    beforeHost: (dataDir) => seedLargeLibrary(dataDir, JOBS, 24),
    browser: { viewport: { width: 1280, height: 800 } },
  });
  await waitFor(async () => (await gridPrompts(app.page))[0] === libraryPrompt(JOBS - 1), 'the newest job first');
}, 120_000);

afterAll(() => app?.close());

/** Page-side numbers: the grid's cards, frames and thumbnails, and every element in the document. */
const census = () =>
  app.page.evaluate(`(() => ({
    cards: document.querySelectorAll('.grid-canvas .card-open').length,
    frames: document.querySelectorAll('.grid-canvas .card-frame').length,
    loadedThumbs: [...document.querySelectorAll('.grid-canvas img.thumb')].filter((i) => i.complete && i.naturalWidth > 0).length,
    thumbRequests: performance.getEntriesByType('resource').filter((e) => e.name.includes('/media/thumb/')).length,
    nodes: document.getElementsByTagName('*').length,
    top: document.querySelector('.grid-scroll').scrollTop,
  }))()`) as Promise<{
    cards: number;
    frames: number;
    loadedThumbs: number;
    thumbRequests: number;
    nodes: number;
    top: number;
  }>;

describe('a long history', () => {
  it('a fast fling draws empty frames for the rows it passes, then the cards where it stops, with their thumbnails', async () => {
    // Resource entries appear when a load ends: let the first screen's thumbnails finish before counting.
    let before = await census();
    await waitFor(async () => {
      before = await census();
      return before.cards > 0 && before.loadedThumbs === before.cards;
    }, 'the first screen of thumbnails');
    // 40 frames at 400 px each: far faster than anyone reads. The page's clock moves 16 ms a frame, whatever this
    // machine's speed, so the fling detector (renderer/src/gallery/history-hooks.ts) sees the speed a person makes.
    const { page } = app;
    await holdClock(page);
    let frames = 0;
    for (let i = 0; i < 40; i += 1) {
      await page.evaluate(`document.querySelector('.grid-scroll').scrollTop += 400`);
      await page.clock.runFor(16);
      frames = Math.max(
        frames,
        (await page.evaluate(`document.querySelectorAll('.grid-canvas .card-frame').length`)) as number,
      );
    }
    const during = {
      frames,
      requests: (await census()).thumbRequests,
    };
    await page.clock.resume();
    expect(during.frames).toBeGreaterThan(0);
    // 16,000 px is some 300 cards; only the first scroll events (before they read as a fling) ask for thumbnails.
    expect(during.requests - before.thumbRequests).toBeLessThan(2 * before.cards);

    let after = await census();
    await waitFor(
      async () => {
        after = await census();
        return after.frames === 0 && after.cards > 0 && after.loadedThumbs === after.cards;
      },
      'the cards and their thumbnails where the fling stopped',
      10_000,
    );
    expect(after.top).toBeGreaterThan(10_000);
    const shown = await gridPrompts(app.page);
    expect(shown).not.toContain(libraryPrompt(JOBS - 1));
  });

  it('scrolls through the whole history page by page, newest first, with the DOM staying small', async () => {
    const { page } = app;
    let maxNodes = 0;
    const oldest = libraryPrompt(0);
    await waitFor(
      async () => {
        await page.evaluate(
          `(() => { const el = document.querySelector('.grid-scroll'); el.scrollTop = el.scrollHeight; })()`,
        );
        const now = await census();
        maxNodes = Math.max(maxNodes, now.nodes);
        return (await gridPrompts(page)).includes(oldest);
      },
      'the oldest job at the end of the scroll',
      60_000,
    );
    expect(maxNodes).toBeLessThan(1_500);
    // The cards on screen at the end are the oldest jobs, newest first, with none missing or repeated.
    const numbers = (await gridPrompts(page)).map((p) => Number(/study (\d+),/.exec(p)?.[1]));
    expect(numbers.at(-1)).toBe(0);
    expect(numbers).toEqual(numbers.map((_, i) => numbers.length - 1 - i + (numbers.at(-1) ?? 0)));
  }, 90_000);

  it('while a search is typed, result cards come without thumbnails; they load at the pause', async () => {
    const { page } = app;
    await page.evaluate(`(() => {
      document.querySelector('.grid-scroll').scrollTop = 0;
      const probe = (window.__typing = { placeholders: 0, requestsAtFirstKey: -1, requestsAtLastKey: -1 });
      const thumbs = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/media/thumb/')).length;
      const input = document.querySelector('input[aria-label="Search"]');
      input.addEventListener('keydown', () => {
        if (probe.requestsAtFirstKey < 0) probe.requestsAtFirstKey = thumbs();
        probe.requestsAtLastKey = thumbs();
      });
      const watch = () => {
        probe.placeholders = Math.max(probe.placeholders, document.querySelectorAll('.grid-canvas .card-open div.thumb').length);
        if (!probe.done) requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    })()`);
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.type('glacier', { delay: 40 });
    await waitFor(
      async () => (await gridPrompts(page)).every((p) => p.includes('glacier')),
      'the results for "glacier"',
    );
    let after = await census();
    await waitFor(
      async () => {
        after = await census();
        return after.cards > 0 && after.loadedThumbs === after.cards;
      },
      'the thumbnails after the pause',
      10_000,
    );
    const probe = (await page.evaluate('(() => { window.__typing.done = true; return window.__typing; })()')) as {
      placeholders: number;
      requestsAtFirstKey: number;
      requestsAtLastKey: number;
    };
    expect(probe.placeholders).toBeGreaterThan(0);
    // Keystrokes after the first asked for no thumbnails of their own.
    expect(probe.requestsAtLastKey - probe.requestsAtFirstKey).toBeLessThan(after.cards);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
  });
});
