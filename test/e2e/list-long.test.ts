import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryPrompt, seedLargeLibrary } from '../fixtures/large-library.js';
import { openApp, type App } from './harness.js';
import { gridPrompts, holdClock, waitFor } from './helpers.js';

/** The compact list over a long history: a fling stays light and never breaks a row, and the end loads page after page. */
const JOBS = 3_000;
/** One row's height (LIST_ROW_HEIGHT). */
const ROW = 56;

let app: App;
const pageErrors: string[] = [];

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-list-long-',
    beforeHost: (dataDir) => seedLargeLibrary(dataDir, JOBS, 24),
    browser: { viewport: { width: 1280, height: 800 } },
    beforeGoto: (page) => {
      page.on('pageerror', (error) => pageErrors.push(String(error)));
    },
  });
  await waitFor(async () => (await gridPrompts(app.page))[0] === libraryPrompt(JOBS - 1), 'the newest job first');
  await app.page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'List' }).click();
  await app.page.locator('.list-canvas').waitFor();
}, 120_000);

afterAll(() => app?.close());

const census = () =>
  app.page.evaluate(`(() => ({
    rows: document.querySelectorAll('.list-canvas .list-open').length,
    loadedThumbs: [...document.querySelectorAll('.list-canvas .list-thumb img')].filter((i) => i.complete && i.naturalWidth > 0).length,
    thumbRequests: performance.getEntriesByType('resource').filter((e) => e.name.includes('/media/thumb/')).length,
    nodes: document.getElementsByTagName('*').length,
    last: [...document.querySelectorAll('.list-canvas .list-open')].map((b) => b.getAttribute('aria-label')).pop() ?? null,
  }))()`) as Promise<{ rows: number; loadedThumbs: number; thumbRequests: number; nodes: number; last: string | null }>;

describe('the list over a long history', () => {
  it('a fast fling keeps every row drawn but asks for few thumbnails; where it stops, the rows get theirs', async () => {
    let before = await census();
    await waitFor(async () => {
      before = await census();
      return before.rows > 0 && before.loadedThumbs === before.rows;
    }, 'the first screen of thumbnails');
    // 40 frames at 400 px: some 285 rows passed, far faster than anyone reads. The page's clock moves 16 ms a frame,
    // whatever this machine's speed, so the fling detector sees the speed a person makes.
    const { page } = app;
    await holdClock(page);
    let fewest = Infinity;
    for (let i = 0; i < 40; i += 1) {
      await page.evaluate(`document.querySelector('.list-scroll').scrollTop += 400`);
      await page.clock.runFor(16);
      fewest = Math.min(
        fewest,
        (await page.evaluate(`document.querySelectorAll('.list-canvas .list-open').length`)) as number,
      );
    }
    const during = { fewest, requests: (await census()).thumbRequests };
    await page.clock.resume();
    expect(pageErrors).toEqual([]);
    // Text rows on every frame (a row never turns blank while it flies past).
    expect(during.fewest).toBeGreaterThan(0);
    expect(during.requests - before.thumbRequests).toBeLessThan((40 * 400) / ROW / 3);
    let after = await census();
    await waitFor(async () => {
      after = await census();
      return after.rows > 0 && after.loadedThumbs === after.rows;
    }, 'the thumbnails where the fling stopped');
    expect(after.nodes).toBeLessThan(1_500);
  }, 60_000);

  it('scrolling to the end loads page after page until the oldest job', async () => {
    await waitFor(
      async () => {
        await app.page.evaluate(
          `(() => { const el = document.querySelector('.list-scroll'); el.scrollTop = el.scrollHeight; })()`,
        );
        return (await census()).last === libraryPrompt(0);
      },
      'the oldest job at the end of the list',
      90_000,
    );
    expect(pageErrors).toEqual([]);
    expect((await census()).nodes).toBeLessThan(1_500);
    expect(await app.page.locator('.list-more').count()).toBe(0);
  }, 120_000);
});
