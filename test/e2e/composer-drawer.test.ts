import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, openApp, type App } from './harness.js';
import { expectGrid, seedJob, waitFor } from './helpers.js';

/** At 1024×700 (or 200% zoom) the gallery comes first: the composer is a drawer that N or Compose opens. */
const FIRST = 'a lighthouse keeper at dawn';

let app: App;

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-drawer-',
    seed: (host) => seedJob(host, FIRST),
    browser: { viewport: { width: 1024, height: 700 } },
    beforeGoto: (page) => page.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await expectGrid(app.page, [FIRST]);
}, 120_000);

afterAll(() => app?.close());

const inView = (selector: string) =>
  app.page.evaluate((sel) => {
    const doc = globalThis as unknown as {
      document: {
        querySelector(
          s: string,
        ): { getBoundingClientRect(): { top: number; bottom: number; left: number; right: number } } | null;
      };
      innerWidth: number;
      innerHeight: number;
    };
    const el = doc.document.querySelector(sel);
    if (el === null) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= doc.innerHeight && r.right <= doc.innerWidth;
  }, selector);

describe('the composer drawer in a narrow window', () => {
  it('shows the gallery first, with the composer closed and out of the tab order', async () => {
    const { page } = app;
    expect(await inView('.grid-scroll .card-open')).toBe(true);
    expect(await inView('textarea.prompt')).toBe(false);
    expect(await page.locator('#composer-drawer').getAttribute('inert')).not.toBeNull();
    expect(await page.getByRole('button', { name: /^Compose/ }).getAttribute('aria-expanded')).toBe('false');
    await screenshot(page, 'drawer-closed-1024x700');
  });

  it('N opens it with the prompt ready; Ctrl+Enter queues; Escape closes it; Compose toggles it too', async () => {
    const { page } = app;
    await page.locator('.grid-scroll .card-open').first().focus();
    await page.keyboard.press('n');
    await waitFor(async () => inView('textarea.prompt'), 'the drawer to open');
    await waitFor(
      async () =>
        (
          await page.evaluate(
            () =>
              (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document
                .activeElement?.className ?? '',
          )
        ).includes('prompt'),
      'the prompt to take the keyboard',
    );
    await page.keyboard.type('a lighthouse keeper at noon');
    await screenshot(page, 'drawer-open-1024x700');
    await page.keyboard.press('Control+Enter');
    await expectGrid(page, ['a lighthouse keeper at noon', FIRST]);
    await page.keyboard.press('Escape');
    await waitFor(async () => !(await inView('textarea.prompt')), 'the drawer to close');
    const toggle = page.getByRole('button', { name: /^Compose/ });
    await toggle.click();
    await waitFor(async () => inView('textarea.prompt'), 'Compose to open it');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    await waitFor(async () => !(await inView('textarea.prompt')), 'Compose to close it');
  });

  it('in a wide window the composer stays beside the gallery, with no Compose button', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1440, height: 900 });
    await waitFor(async () => inView('textarea.prompt'), 'the composer in its column');
    expect(await page.locator('#composer-drawer').getAttribute('inert')).toBeNull();
    expect(await page.getByRole('button', { name: /^Compose/ }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1024, height: 700 });
  });
});
