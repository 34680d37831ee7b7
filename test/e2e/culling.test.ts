import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { screenshot, openApp, type App } from './harness.js';
import { apiCall, expectGrid, holdClock, search, waitFor } from './helpers.js';

/**
 * Culling from the keyboard in the viewer with Details hidden: every mark shows as a brief sign over the picture and
 * is announced; X rejects (the image leaves All once the viewer closes, and is:rejected finds it); Delete's sign
 * offers Undo; the filmstrip shows the neighbours' marks.
 */
const HERON = 'a grey heron at dawn';
const OWL = 'a lone owl at dusk';
const FOXES = 'two foxes in the snow';
const SCHEMES = ['light', 'dark'] as const;

let app: App;
const ids: Record<string, string> = {};

async function seed(host: App['host'], prompt: string, count = 1): Promise<void> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: 384,
    height: 384,
    count,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `"${prompt}" to finish`,
    90_000,
  );
  ids[prompt] = job.id;
}

const viewer = (prompt: string) => app.page.getByRole('dialog', { name: `Viewer: ${prompt}` });
const sign = () => app.page.getByTestId('mark-feedback');
const announced = () => app.page.getByTestId('mark-announcement');

/** Both themes of the state on screen, each asserted by `check` before its shot. */
async function shoot(name: string, check: () => Promise<void>): Promise<void> {
  for (const colorScheme of SCHEMES) {
    await app.page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await check();
    await screenshot(app.page, `culling-${name}-${colorScheme}`);
  }
  await app.page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
}

beforeAll(async () => {
  app = await openApp({
    prefix: 'atelier-e2e-culling-',
    seed: async (host) => {
      await seed(host, HERON);
      await seed(host, OWL);
      await seed(host, FOXES, 2);
    },
    browser: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
    beforeGoto: async (page) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      // Culling mode: the picture alone, Details put away.
      await page.addInitScript("localStorage.setItem('atelier.viewer.details', 'hidden')");
    },
  });
  await expectGrid(app.page, [FOXES, OWL, HERON]);
}, 240_000);

afterAll(async () => {
  await app?.close();
});

describe('culling in the viewer', () => {
  it('4 shows ★★★★ and says so, then moves on; the sign goes by itself', async () => {
    const { page } = app;
    await page.getByRole('button', { name: OWL, exact: true }).dblclick();
    await viewer(OWL).waitFor();
    await holdClock(page);
    await page.keyboard.press('4');
    // Next after rating: on to the next picture, the sign still over it until its time is up, saying it is about the
    // picture before (with its thumbnail).
    await expect.poll(() => sign().textContent()).toBe('★★★★ · previous image');
    await expect.poll(() => announced().textContent()).toBe('Rated 4 stars');
    expect(await announced().getAttribute('aria-live')).toBe('polite');
    expect(await sign().locator('img.mark-of-thumb').count()).toBe(1);
    await shoot('rated', async () => expect(await sign().textContent()).toBe('★★★★ · previous image'));
    await viewer(HERON).waitFor();
    await page.clock.runFor(1_300);
    await sign().waitFor({ state: 'detached' });
    await page.clock.resume();
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: ids[OWL]! })).images[0]!.rating === 4,
      'the owl rated 4',
    );
    // The announcement stays said (an emptied live region would say nothing new next time).
    expect(await announced().textContent()).toBe('Rated 4 stars');
  });

  it('F shows ♥; X shows Rejected and X again Unrejected; the filmstrip carries every mark', async () => {
    const { page } = app;
    await page.keyboard.press('f');
    await expect.poll(() => sign().textContent()).toBe('♥');
    await expect.poll(() => announced().textContent()).toBe('Added to Favorites');
    await page.keyboard.press('x');
    await expect.poll(() => sign().textContent()).toBe('Rejected');
    // The sign and its announcement say it in the viewer: no toast over the sign (the grid keeps its own).
    expect(await page.getByText(/^Rejected 1 image/u).count()).toBe(0);
    await page.keyboard.press('x');
    await expect.poll(() => sign().textContent()).toBe('Unrejected');
    await expect.poll(() => announced().textContent()).toBe('Unrejected');
    await page.keyboard.press('x');
    await expect.poll(() => sign().textContent()).toBe('Rejected');
    // The heron is the last picture: it stays on screen, marked, so X again could clear it.
    await viewer(HERON).waitFor();
    await page.keyboard.press('Shift+I');
    const strip = page.getByRole('group', { name: 'Nearby images' });
    await strip.waitFor();
    await shoot('filmstrip', async () => {
      await expect
        .poll(() => strip.getByRole('button').evaluateAll((b) => b.map((e) => e.getAttribute('aria-label'))))
        .toEqual([
          `${FOXES}, image 1`,
          `${FOXES}, image 2`,
          `${OWL}, image 1: 4 stars`,
          'Image 1: favourite, rejected',
        ]);
    });
    // The signs, the live region and the marked filmstrip pass axe in the viewer.
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Shift+I');
  });

  it('Escape: the rejected heron has left All; is:rejected shows it', async () => {
    const { page } = app;
    await page.keyboard.press('Escape');
    await viewer(HERON).waitFor({ state: 'detached' });
    await expectGrid(page, [FOXES, OWL]);
    await search(page, 'is:rejected');
    await expectGrid(page, [HERON]);
    await search(page, '');
    await expectGrid(page, [FOXES, OWL]);
  });

  it('Delete shows Trashed — Undo; its Undo brings the picture back', async () => {
    const { page } = app;
    await page.getByRole('button', { name: OWL, exact: true }).dblclick();
    await viewer(OWL).waitFor();
    await holdClock(page);
    await page.keyboard.press('Delete');
    await expect.poll(() => sign().textContent()).toBe('Trashed — Undo');
    await expect.poll(() => announced().textContent()).toMatch(/^Moved to Trash/u);
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: ids[OWL]! })).trashedAt !== null,
      'the owl in the trash',
    );
    await shoot('trashed', async () => expect(await sign().textContent()).toBe('Trashed — Undo'));
    await page.clock.resume();
    await sign().getByRole('button', { name: 'Undo' }).click();
    await viewer(OWL).waitFor();
    await waitFor(
      async () => (await apiCall(app.host, 'jobs.get', { id: ids[OWL]! })).trashedAt === null,
      'the owl back from the trash',
    );
    await page.keyboard.press('Escape');
    await expectGrid(page, [FOXES, OWL]);
  });

  it('? in the viewer opens the cheat sheet over it; Escape closes the sheet and leaves the viewer open', async () => {
    const { page } = app;
    await page.getByRole('button', { name: OWL, exact: true }).dblclick();
    await viewer(OWL).waitFor();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.getByRole('region', { name: 'Viewer' }).waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await viewer(OWL).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await viewer(OWL).waitFor({ state: 'detached' });
    // The viewer hands the keyboard back to its card a frame later: wait for it before the next test moves it.
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("data-card")')).toBe(ids[OWL]);
  });

  it('X in the grid rejects the focused image: it leaves its card, the toast says where it went and undoes it', async () => {
    const { page } = app;
    const card = page.locator(`[data-card="${ids[FOXES]!}"]`);
    await card.focus();
    await page.keyboard.press('x');
    const foxes = () => apiCall(app.host, 'jobs.get', { id: ids[FOXES]! });
    await waitFor(
      async () => (await foxes()).images.map((i) => i.rejected === true).join() === 'true,false',
      'one fox rejected',
    );
    const toast = page.getByText(/^Rejected 1 image: hidden from All/u);
    await toast.waitFor();
    // The batch stays in All with its other image.
    await expectGrid(page, [FOXES, OWL]);
    await page.keyboard.press('Control+z');
    await waitFor(async () => (await foxes()).images.every((i) => i.rejected !== true), 'the reject undone');
  });
});
