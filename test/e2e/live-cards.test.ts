import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHeldProvider, heldEntry, type HeldProvider } from '../fakes/held-provider.js';
import { SCREENSHOT_DIR, screenshot, type Host, openApp, type App } from './harness.js';
import { seriousViolations } from './axe.js';
import { apiCall, waitFor, type ImageLike } from './helpers.js';

let app: App;
let held: HeldProvider;

const FINISHED = ['a pier in fog', 'orange kites over a beach', 'a quiet reading room', 'a fox in snow'];

async function submit(
  host: Host,
  prompt: string,
  size: { width: number; height: number } = { width: 512, height: 512 },
): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', { provider: 'held', prompt, ...size, count: 1, steps: 10 });
  return job.id;
}

async function statusOf(host: Host, id: string): Promise<string> {
  return (await apiCall(host, 'jobs.get', { id })).status;
}

function cardOf(page: Page, prompt: string): Locator {
  return page.locator('.grid-canvas .card', { has: page.getByRole('button', { name: prompt, exact: true }) });
}

/** Text a live card paints (CSS content from data-text, so the card's name stays its prompt). */
function painted(card: Locator, className: string, text: string): Locator {
  return card.locator(`.${className}[data-text*=${JSON.stringify(text)}]`);
}

async function imageLoaded(img: Locator): Promise<boolean> {
  if ((await img.count()) === 0) return false;
  return img
    .first()
    .evaluate((el) => (el as unknown as ImageLike).complete && (el as unknown as ImageLike).naturalWidth > 0);
}

/** Every card's box and the top bar's controls, by a stable key, to compare before and after a change. */
async function boxes(page: Page): Promise<Record<string, { x: number; y: number; width: number; height: number }>> {
  return page.evaluate(() => {
    type Box = { x: number; y: number; width: number; height: number };
    type El = {
      getAttribute(n: string): string | null;
      getBoundingClientRect(): Box;
      className: string;
      textContent: string | null;
    };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
    const out: Record<string, Box> = {};
    const put = (key: string, el: El) => {
      const { x, y, width, height } = el.getBoundingClientRect();
      out[key] = { x, y, width, height };
    };
    for (const el of Array.from(doc.querySelectorAll('.grid-canvas .card')))
      put(`card ${el.getAttribute('data-id')}`, el);
    for (const el of Array.from(doc.querySelectorAll('.grid-canvas .card-open')))
      put(`image ${el.getAttribute('data-card')}`, el);
    for (const el of Array.from(doc.querySelectorAll('.topbar > *')))
      put(`topbar ${el.className} ${el.textContent}`.slice(0, 60), el);
    put('grid', doc.querySelectorAll('.grid-canvas')[0]!);
    return out;
  });
}

beforeAll(async () => {
  held = createHeldProvider('held');
  // One at a time: the second job waits in the queue.
  app = await openApp({
    prefix: 'atelier-e2e-live-',
    host: { engine: { providers: [heldEntry(held, 1)] } },
    seed: async (host) => {
      for (const prompt of FINISHED) {
        const id = await submit(host, prompt);
        (await held.started(prompt)).finish(FINISHED.indexOf(prompt) % 2 === 0 ? 'light' : 'dark');
        await waitFor(async () => (await statusOf(host, id)) === 'succeeded', `"${prompt}" to finish`);
      }
    },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await cardOf(app.page, FINISHED[0]!).waitFor();
}, 120_000);

// A test that failed midway leaves its jobs held: they finish here, so the next test starts from an idle queue.
// Each round waits for what the finish causes (the queue empties, or the next job starts and is held), not a fixed time.
afterEach(async () => {
  const unfinished = async () =>
    (await apiCall(app.host, 'jobs.list', { view: 'all', status: ['queued', 'running'], limit: 50 })).items.length;
  for (let round = 0; round < 5; round += 1) {
    if ((await unfinished()) === 0) return;
    const finishing = [...held.held.values()];
    for (const job of finishing) job.finish();
    await waitFor(
      async () => [...held.held.values()].some((job) => !finishing.includes(job)) || (await unfinished()) === 0,
      'the held jobs to finish or the next to start',
    );
  }
});

afterAll(() => app?.close());

describe('live job cards', () => {
  it('a running job is a card in the grid: its newest preview fills it, with a ring, step n/N and the time left; the next one waits as Queued', async () => {
    const { page } = app;
    const prompt = 'a lighthouse at dusk, rendering';
    const next = 'a harbour at night, waiting';
    const id = await submit(app.host, prompt);
    const job = await held.started(prompt);
    const nextId = await submit(app.host, next);
    const card = cardOf(page, prompt);
    await card.locator('.thumb.live').waitFor();

    // Queued behind it: a calm placeholder that says so, with its place in line.
    const waiting = cardOf(page, next);
    await painted(waiting, 'live-word', 'Queued').waitFor();
    await painted(waiting, 'live-place', 'next in line').waitFor();

    for (let n = 1; n <= 3; n += 1) {
      await job.step(n, 10, 'dark');
      await painted(card, 'live-step', `step ${n}/10`).waitFor();
    }
    const preview = card.locator('img.live-preview');
    await waitFor(() => imageLoaded(preview), 'the partial preview to load');
    expect(await preview.getAttribute('src')).toContain('/media/preview/');
    // The preview fills the card's picture area, not a corner of it.
    const [pic, area] = await Promise.all([preview.boundingBox(), card.locator('.card-open').boundingBox()]);
    expect(pic!.width).toBeGreaterThan(area!.width - 6);
    expect(pic!.height).toBeGreaterThan(area!.height - 6);
    const ring = card.getByRole('progressbar', { includeHidden: true });
    await waitFor(async () => (await ring.getAttribute('aria-valuenow')) === '30', 'the ring at 30%');
    await waitFor(
      async () =>
        /^(~\d+ (s|min) left|almost done)/.test((await card.locator('.live-eta').getAttribute('data-text')) ?? ''),
      'an ETA after three steps',
    );
    // A screen reader hears the same through the card's description.
    const described = await card.locator('.card-open').evaluate((el) => {
      const doc = (
        globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }
      ).document;
      return doc.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '';
    });
    expect(described).toMatch(/^Rendering, 30%, step 3 of 10/);

    // The top bar counts them, and its chip brings the running job forward.
    const chip = page.locator('.live-chip');
    expect(await chip.textContent()).toContain('1 rendering · 1 queued');
    await chip.click();
    await waitFor(
      () =>
        page.evaluate(
          (want) =>
            (
              globalThis as unknown as {
                document: { activeElement: { getAttribute(n: string): string | null } | null };
              }
            ).document.activeElement?.getAttribute('data-card') === want,
          id,
        ),
      'the running card to take focus',
    );

    await card.screenshot({ path: join(SCREENSHOT_DIR, 'live-card-running-dark.png') });
    const darkSrc = await preview.getAttribute('src');
    await job.step(6, 10, 'light');
    await painted(card, 'live-step', 'step 6/10').waitFor();
    // The newest preview replaces the one before.
    await waitFor(
      async () => (await preview.getAttribute('src')) !== darkSrc && (await imageLoaded(preview)),
      'the light preview',
    );
    await card.screenshot({ path: join(SCREENSHOT_DIR, 'live-card-running-light.png') });
    await screenshot(page, 'live-cards-main-view');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'live-cards-main-view-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // A running and a queued card, their Cancel buttons and the chip: nothing serious for axe.
    expect(await seriousViolations(page, '.app')).toEqual([]);

    job.finish('light');
    await waitFor(async () => (await statusOf(app.host, id)) === 'succeeded', 'the job to finish');
    await waitFor(() => imageLoaded(card.locator('img.thumb')), 'the result to replace the preview');
    await card.screenshot({ path: join(SCREENSHOT_DIR, 'live-card-finished.png') });
    // The queued one starts now: let it finish so the next test starts from an idle queue.
    (await held.started(next)).finish('dark');
    await waitFor(async () => (await statusOf(app.host, nextId)) === 'succeeded', 'the queued job to finish');
    await waitFor(async () => (await page.locator('.live-chip.idle').count()) === 1, 'the chip to hide');
  }, 90_000);

  it('Cancel on a running card cancels it', async () => {
    const { page } = app;
    const prompt = 'a cathedral interior, to be cancelled';
    const id = await submit(app.host, prompt);
    const job = await held.started(prompt);
    await job.step(2, 10, 'dark');
    const card = cardOf(page, prompt);
    await painted(card, 'live-step', 'step 2/10').waitFor();
    // Opened while it runs, the window shows it live at once, from what the engine stored, before any new tick.
    await page.reload();
    await waitFor(
      async () => (await card.getByRole('progressbar', { includeHidden: true }).getAttribute('aria-valuenow')) === '20',
      'the ring at 20% after a reload',
    );
    await painted(card, 'live-step', 'Sampling').waitFor();
    await job.step(3, 10, 'dark');
    await painted(card, 'live-step', 'step 3/10').waitFor();
    const aborted = held.aborted;
    await card.getByRole('button', { name: `Cancel: ${prompt}` }).click();
    await waitFor(async () => (await statusOf(app.host, id)) === 'cancelled', 'the job to be cancelled');
    expect(held.aborted).toBe(aborted + 1);
    await waitFor(async () => (await card.locator('.thumb.live').count()) === 0, 'the card to stop being live');
    expect(await card.getByRole('button', { name: /^Cancel:/ }).count()).toBe(0);
  }, 60_000);

  it('when a job finishes, its card becomes the result and no card or control on the page moves', async () => {
    const { page } = app;
    const prompt = 'a glasshouse in rain, finishing';
    const id = await submit(app.host, prompt);
    const job = await held.started(prompt);
    await job.step(5, 10, 'dark');
    const card = cardOf(page, prompt);
    await waitFor(() => imageLoaded(card.locator('img.live-preview')), 'the preview');
    await painted(card, 'live-step', 'step 5/10').waitFor();
    const before = await boxes(page);
    expect(Object.keys(before).filter((k) => k.startsWith('card ')).length).toBeGreaterThanOrEqual(FINISHED.length + 1);

    job.finish('light');
    await waitFor(async () => (await statusOf(app.host, id)) === 'succeeded', 'the job to finish');
    await waitFor(() => imageLoaded(card.locator('img.thumb')), 'the result to show');
    await waitFor(async () => (await page.locator('.live-chip.idle').count()) === 1, 'the chip to hide');
    const after = await boxes(page);
    // Keys name the top bar's controls by their text, which the chip changes: compare the chip by position alone.
    // The chip sits in the toolbar's end group, whose key holds the chip's text too: both compared by position alone.
    const byText = (k: string) => k.includes('live-chip') || k.startsWith('topbar topbar-end');
    const textFree = (b: typeof before) =>
      Object.entries(b)
        .filter(([k]) => byText(k))
        .map(([, box]) => box);
    expect(textFree(after)).toEqual(textFree(before));
    const stable = (b: typeof before) => Object.fromEntries(Object.entries(b).filter(([k]) => !byText(k)));
    expect(stable(after)).toEqual(stable(before));
  }, 60_000);

  it('a finished card keeps showing its last preview until its own thumbnail has loaded, never a blank tile', async () => {
    const { page } = app;
    const prompt = 'a lantern festival at dusk, handing over';
    const id = await submit(app.host, prompt);
    const job = await held.started(prompt);
    await job.step(6, 10, 'light');
    const card = cardOf(page, prompt);
    await waitFor(() => imageLoaded(card.locator('img.live-preview')), 'the preview');
    // Hold the finished thumbnail back, as a slow disk would.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/media/thumb/**', async (route) => {
      await released;
      await route.continue().catch(() => undefined);
    });
    try {
      job.finish('dark');
      await waitFor(async () => (await statusOf(app.host, id)) === 'succeeded', 'the job to finish');
      await waitFor(
        async () => (await card.locator('.thumb.live').count()) === 0,
        'the live card to become the result',
      );
      // The preview file is gone from the server; the picture the page already had is what shows, under the
      // thumbnail still on its way.
      expect(await imageLoaded(card.locator('img.live-preview.handover'))).toBe(true);
      expect(await imageLoaded(card.locator('img.thumb'))).toBe(false);
    } finally {
      release();
      await page.unroute('**/media/thumb/**');
    }
    await waitFor(() => imageLoaded(card.locator('img.thumb')), 'the thumbnail');
    await waitFor(async () => (await card.locator('img.live-preview').count()) === 0, 'the preview to let go', 10_000);
  }, 60_000);
});
