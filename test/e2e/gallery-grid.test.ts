import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, waitFor } from './helpers.js';

/**
 * The grid as a gallery: each picture at its own shape in rows that fill the width, small gaps, no caption row, the
 * prompt and actions over the picture on hover and on keyboard focus.
 */
const SHAPES: { prompt: string; width: number; height: number }[] = [
  { prompt: 'a square tile of moss', width: 512, height: 512 },
  { prompt: 'a tall portrait of a heron', width: 512, height: 768 },
  { prompt: 'a wide harbour at dusk', width: 768, height: 512 },
  { prompt: 'a panorama of dunes', width: 896, height: 512 },
  { prompt: 'a slim cypress', width: 448, height: 768 },
  { prompt: 'a second square of lichen', width: 512, height: 512 },
  { prompt: 'a second wide lake', width: 768, height: 512 },
  { prompt: 'a second tall dancer', width: 512, height: 768 },
];

let app: App;

interface CardBox {
  prompt: string;
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
  imageHeight: number;
}

/** Every card's box and its picture's height, read in one pass. */
const boxes = (): Promise<CardBox[]> =>
  app.page.locator('.grid-canvas .card').evaluateAll((cards) =>
    cards.map((card) => {
      const el = card as unknown as {
        getBoundingClientRect(): DOMRectLike;
        querySelector(
          s: string,
        ): { getBoundingClientRect(): DOMRectLike; getAttribute(n: string): string | null } | null;
      };
      const box = el.getBoundingClientRect();
      const open = el.querySelector('.card-open')!;
      return {
        prompt: open.getAttribute('aria-label') ?? '',
        left: box.left,
        right: box.right,
        top: box.top,
        width: box.width,
        height: box.height,
        imageHeight: open.getBoundingClientRect().height,
      };
    }),
  );
interface DOMRectLike {
  left: number;
  right: number;
  top: number;
  width: number;
  height: number;
}

const metaOpacity = (prompt: string) =>
  app.page
    .locator('.card', { has: app.page.getByRole('button', { name: prompt, exact: true }) })
    .locator('.card-meta')
    .evaluate((el) =>
      Number(
        (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el).opacity,
      ),
    );

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-gallery-',
    seed: async (host) => {
      const ids: string[] = [];
      for (const shape of SHAPES)
        ids.push((await apiCall(host, 'jobs.submit', { provider: 'builtin', ...shape, count: 1, steps: 2 })).job.id);
      for (const id of ids)
        await waitFor(
          async () => (await apiCall(host, 'jobs.get', { id })).status === 'succeeded',
          'the seeded jobs to finish',
          90_000,
        );
    },
    browser: { viewport: { width: 1280, height: 800 } },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await expectGrid(
    app.page,
    SHAPES.map((s) => s.prompt),
  );
}, 180_000);

afterAll(() => app?.close());

describe('the gallery grid', () => {
  it('shows each picture at its true shape, in rows that fill the width, with small gaps and no caption row', async () => {
    const cards = await boxes();
    expect(cards).toHaveLength(SHAPES.length);
    for (const card of cards) {
      const shape = SHAPES.find((s) => s.prompt === card.prompt)!;
      // The picture is the whole card: no caption row beneath it.
      expect(card.imageHeight).toBe(card.height);
      expect(Math.abs(card.width / card.height - shape.width / shape.height)).toBeLessThan(0.03);
    }
    const rows = [...new Set(cards.map((c) => Math.round(c.top)))].map((top) =>
      cards.filter((c) => Math.round(c.top) === top).sort((a, b) => a.left - b.left),
    );
    expect(rows.length).toBeGreaterThan(1);
    const grid = await app.page.locator('.grid-canvas').boundingBox();
    // Every row but the last ends flush with the grid's right edge, and cards in a row share one height.
    for (const row of rows.slice(0, -1)) {
      expect(Math.abs(row.at(-1)!.right - (grid!.x + grid!.width))).toBeLessThanOrEqual(1);
      expect(new Set(row.map((c) => Math.round(c.height))).size).toBe(1);
      for (let i = 1; i < row.length; i += 1) expect(row[i]!.left - row[i - 1]!.right).toBeLessThanOrEqual(8);
    }
    await screenshot(app.page, 'gallery-grid-mixed-aspect');
  });

  it('keeps the prompt and actions hidden until a card is hovered or has the keyboard focus', async () => {
    const { page } = app;
    const [first, second] = [SHAPES[0]!.prompt, SHAPES[2]!.prompt];
    await page.mouse.move(2, 780);
    expect(await metaOpacity(first)).toBe(0);
    await page.getByRole('button', { name: first, exact: true }).hover();
    expect(await metaOpacity(first)).toBe(1);
    expect(await metaOpacity(second)).toBe(0);
    await screenshot(page, 'gallery-grid-hover');
    await page.mouse.move(2, 780);
    await page.getByRole('button', { name: second, exact: true }).focus();
    expect(await metaOpacity(second)).toBe(1);
    // The favourite on the caption is one click away and does what it says.
    await page.getByRole('button', { name: `Favorite: ${second}` }).click();
    await waitFor(
      async () => (await page.getByRole('button', { name: `Unfavorite: ${second}` }).count()) === 1,
      'the favourite to show',
    );
  });

  it('selecting shows a check badge and a floating selection bar, and moves no picture', async () => {
    const { page } = app;
    const before = await boxes();
    await page.getByRole('button', { name: SHAPES[3]!.prompt, exact: true }).click({ modifiers: ['Control'] });
    await page.getByRole('button', { name: SHAPES[4]!.prompt, exact: true }).click({ modifiers: ['Control'] });
    await page.getByRole('toolbar', { name: 'Selected images' }).waitFor();
    const card = page.locator('.card', { has: page.getByRole('button', { name: SHAPES[3]!.prompt, exact: true }) });
    expect(await card.locator('.select-check').isVisible()).toBe(true);
    expect(await boxes()).toEqual(before);
    await screenshot(page, 'gallery-grid-selected');
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('toolbar', { name: 'Selected images' }).waitFor({ state: 'detached' });
    expect(await boxes()).toEqual(before);
  });
});
