import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { expectGrid, seedJob, waitFor } from './helpers.js';

/**
 * The composer's size and its Generate button: one way to set a size (ratio chips over width × height, the chips lit
 * only for the ratio the size is), and Generate pinned in view whatever is open, beside the gallery at 1440×900 and
 * in the drawer at 1024×700, in both themes.
 */
const FIRST = 'a glasshouse in the rain';
const LONG_PROMPT = Array.from({ length: 14 }, (_, i) => `line ${i + 1}: a glasshouse in the rain, ferns, fogged panes`)
  .join(' ')
  .trim();

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-composer-size-',
    seed: (host) => seedJob(host, FIRST),
    browser: { viewport: { width: 1440, height: 900 } },
  });
  await expectGrid(app.page, [FIRST]);
}, 120_000);

afterAll(() => app?.close());

type PageWindow = {
  document: { body: unknown };
  getComputedStyle(el: unknown): { backgroundColor: string };
  requestAnimationFrame(cb: () => void): void;
};

const composer = () => app.page.getByRole('form', { name: 'Composer' });
const generate = () => composer().getByRole('button', { name: /^Generate/ });
const chips = () => composer().getByRole('group', { name: 'Size', exact: true }).getByRole('button');

/** The chips pressed now, by label. */
async function litChips(): Promise<string[]> {
  const lit: string[] = [];
  for (const chip of await chips().all())
    if ((await chip.getAttribute('aria-pressed')) === 'true') lit.push((await chip.textContent()) ?? '');
  return lit;
}

async function setSize(width: number, height: number): Promise<void> {
  await composer().getByLabel('Width', { exact: true }).fill(String(width));
  await composer().getByLabel('Height', { exact: true }).fill(String(height));
}

/** Generate's box lies wholly inside the window, and nothing else is drawn over its middle. */
async function expectGenerateInView(): Promise<void> {
  const { page } = app;
  const box = (await generate().boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
  const onTop = await page.evaluate(
    ([x, y]) => {
      const doc = (
        globalThis as unknown as {
          document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
        }
      ).document;
      return doc.elementFromPoint(x!, y!)?.closest('button.generate') != null;
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(onTop).toBe(true);
}

async function groundLuminance(): Promise<number> {
  const rgb = await app.page.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    return w.getComputedStyle(w.document.body).backgroundColor;
  });
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Shoots the composer in the light and the dark theme, Generate asserted in view in each. */
async function shootBoth(name: string): Promise<void> {
  const { page } = app;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const dark = colorScheme === 'dark';
    await waitFor(async () => (await groundLuminance()) < 0.25 === dark, `the ${colorScheme} theme`, 5_000);
    await expectGenerateInView();
    await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow;
      return new Promise<void>((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(resolve)));
    });
    await screenshot(page, `composer-${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
}

describe('one way to set a size', () => {
  it('has ratio chips and width × height, and no size menu', async () => {
    expect(await composer().getByRole('combobox', { name: 'Size' }).count()).toBe(0);
    expect((await chips().allTextContents()).join(' ')).toBe('1:1 4:3 3:2 16:9 3:4 2:3 9:16');
    expect(await composer().getByLabel('Width', { exact: true }).isVisible()).toBe(true);
    expect(await composer().getByLabel('Height', { exact: true }).isVisible()).toBe(true);
  });

  it('lights only the chip whose ratio the size is: 1:1 at 64×64, 3:2 at 96×64, none at 500×300', async () => {
    await setSize(64, 64);
    await waitFor(async () => (await litChips()).join() === '1:1', '1:1 alone to light');
    await setSize(96, 64);
    await waitFor(async () => (await litChips()).join() === '3:2', '3:2 alone to light');
    await setSize(500, 300);
    await waitFor(async () => (await litChips()).length === 0, 'no chip to light');
  });

  it('a chip sets width × height for its ratio near the current area, and then it alone is lit', async () => {
    await setSize(512, 512);
    await chips().getByText('16:9', { exact: true }).click();
    await waitFor(async () => (await litChips()).join() === '16:9', '16:9 alone to light');
    const width = Number(await composer().getByLabel('Width', { exact: true }).inputValue());
    const height = Number(await composer().getByLabel('Height', { exact: true }).inputValue());
    expect(width % 8).toBe(0);
    expect(height % 8).toBe(0);
    expect(Math.abs(width / height - 16 / 9)).toBeLessThan(0.03);
    expect(Math.abs(Math.log((width * height) / (512 * 512)))).toBeLessThan(Math.log(1.1));
    await chips().getByText('1:1', { exact: true }).click();
    await waitFor(
      async () => (await composer().getByLabel('Width', { exact: true }).inputValue()) === '512',
      'back to 512 × 512',
    );
    expect(await composer().getByLabel('Height', { exact: true }).inputValue()).toBe('512');
  });
});

describe('a model that takes only listed sizes', () => {
  it('shows one chip per size, no width or height, and a click lights that size alone', async () => {
    await composer().getByLabel('Provider', { exact: true }).selectOption('openai');
    await waitFor(async () => (await chips().first().textContent())?.includes('×') === true, 'the listed sizes');
    expect(await composer().getByLabel('Width', { exact: true }).count()).toBe(0);
    const labels = await chips().allTextContents();
    expect(labels).toContain('3:2 · 1536 × 1024');
    await chips().getByText('3:2 · 1536 × 1024', { exact: true }).click();
    await waitFor(async () => (await litChips()).join() === '3:2 · 1536 × 1024', 'that size alone to light');
    await screenshot(app.page, 'composer-listed-sizes-1440x900-light');
    await composer().getByLabel('Provider', { exact: true }).selectOption('builtin');
    await composer().getByLabel('Width', { exact: true }).waitFor();
  });
});

describe('Generate stays in view', () => {
  it('beside the gallery at 1440×900 with Advanced open and a long prompt', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await composer().locator('details.advanced').getAttribute('open')).not.toBeNull();
    await composer().getByLabel('Prompt', { exact: true }).fill(LONG_PROMPT);
    await expectGenerateInView();
    await shootBoth('advanced-1440x900');
  });

  it('in the drawer at 1024×700 with Advanced open, scrolled to the top or the bottom', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1024, height: 700 });
    const toggle = page.getByRole('button', { name: /^Compose/ });
    await waitFor(
      async () => (await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false',
      'the drawer closed',
    );
    await toggle.click();
    await waitFor(async () => (await toggle.getAttribute('aria-expanded')) === 'true', 'the drawer open');
    await waitFor(
      async () => (await page.locator('#composer-drawer').getAttribute('inert')) === null,
      'the drawer live',
    );
    expect(await composer().locator('details.advanced').getAttribute('open')).not.toBeNull();
    await composer().getByLabel('Prompt', { exact: true }).focus();
    await expectGenerateInView();
    await shootBoth('drawer-1024x700');
    await composer().getByLabel('Steps', { exact: true }).focus();
    await expectGenerateInView();
    await shootBoth('drawer-scrolled-1024x700');
  });

  it('and Ctrl+Enter or a click on it still queues the prompt', async () => {
    const { page } = app;
    await setSize(64, 64);
    await composer().getByLabel('Prompt', { exact: true }).fill('a fern in a jar');
    await generate().click();
    await expectGrid(page, ['a fern in a jar', FIRST]);
  });
});
