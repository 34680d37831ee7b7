import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBfl, type FakeBfl } from '../fakes/bfl.js';
import { openApp, screenshot, type App } from './harness.js';
import { apiCall, seedJob, waitFor } from './helpers.js';
import { seriousViolations } from './axe.js';

/** Reference images: added from the viewer and a card's menu, shown in the composer's row, sent to FLUX.2 in order. */
const KEY = 'bfl-e2e-references-key-0123456789';
// Each source its own size, so the PNG sent in each slot says which one it is.
const SOURCES = [
  { prompt: 'a red teapot, reference one', size: 64 },
  { prompt: 'a blue kite, reference two', size: 80 },
  { prompt: 'a green lantern, reference three', size: 96 },
] as const;
let app: App;
let fake: FakeBfl;
const jobOf = new Map<string, string>();
const imageOf = new Map<string, string>();

beforeAll(async () => {
  fake = await startFakeBfl({ apiKey: KEY });
  fake.setScenario({ kind: 'success', pendingPolls: 0 });
  app = await openApp({
    prefix: 'atelier-e2e-references-',
    seed: async (host) => {
      await apiCall(host, 'settings.update', { providers: { bfl: { enabled: true, apiKey: KEY, baseUrl: fake.url } } });
      for (const { prompt, size } of SOURCES) {
        const id = await seedJob(host, prompt, size);
        jobOf.set(prompt, id);
        imageOf.set(prompt, (await apiCall(host, 'jobs.get', { id })).images[0]!.id);
      }
    },
    beforeGoto: (page) => page.setDefaultTimeout(8_000),
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

const composer = () => app.page.getByRole('form', { name: 'Composer' });
const row = () => composer().getByRole('group', { name: 'References' });
const count = () => row().getByTestId('reference-count');

/** The width a base64 PNG says in its header. */
function pngWidth(base64: unknown): number {
  const bytes = Buffer.from(String(base64), 'base64');
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return bytes.readUInt32BE(16);
}

describe('reference images', () => {
  it('added from the viewer (Shift+R) and two cards’ menus, one removed with Delete, go to FLUX.2 in the order chosen', async () => {
    const { page } = app;
    // The built-in takes none and none are chosen: no row at all.
    expect(await row().count()).toBe(0);
    await composer().getByLabel('Provider', { exact: true }).selectOption('bfl');
    await row().waitFor();
    expect(await count().textContent()).toBe('0 of 8');
    expect(await row().innerText()).toContain('Shift+R');

    // The viewer: the button names its key; the key adds the image shown.
    const [one, two, three] = SOURCES;
    await page.locator(`[data-card="${jobOf.get(one.prompt)}"]`).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${one.prompt}` });
    const add = viewer
      .getByRole('group', { name: 'Work from this image' })
      .getByRole('button', { name: /^Add as reference/ });
    expect(await add.getAttribute('aria-keyshortcuts')).toBe('Shift+R');
    await page.keyboard.press('Shift+R');
    await waitFor(async () => (await add.getAttribute('aria-disabled')) === 'true', 'the button to say it is added');
    expect(await add.getAttribute('title')).toBe('Add as reference: Already among the composer’s references.');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    for (const source of [two, three]) {
      await page
        .locator(`[data-id="${jobOf.get(source.prompt)}"]`)
        .getByRole('button', { name: `Work from this image: ${source.prompt}` })
        .click();
      await page
        .getByRole('menu', { name: 'Work from this image' })
        .getByRole('menuitem', { name: /^Add as reference/ })
        .click();
    }
    const thumbs = row().getByRole('img', { name: /^Reference \d/ });
    await waitFor(async () => (await thumbs.count()) === 3, 'three references in the row');
    expect(await count().textContent()).toBe('3 of 8');
    expect(await thumbs.nth(1).getAttribute('aria-label')).toBe(`Reference 2: ${two.prompt}`);
    await screenshot(page, 'composer-references-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'composer-references-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriousViolations(page, 'form.composer')).toEqual([]);

    // The second removed from the keyboard: the focus moves to the one that took its place.
    await thumbs.nth(1).focus();
    await page.keyboard.press('Delete');
    await waitFor(async () => (await thumbs.count()) === 2, 'two references left');
    expect(await count().textContent()).toBe('2 of 8');
    expect(
      await page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }
          ).document.activeElement?.getAttribute('aria-label') ?? null,
      ),
    ).toBe(`Reference 2: ${three.prompt}`);

    await composer().getByLabel('Prompt', { exact: true }).fill('the teapot and the lantern on one shelf');
    const before = fake.submits().length;
    await composer()
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(() => fake.submits().length > before, 'the submit to reach FLUX.2', 30_000);
    const body = fake.submits().at(-1)!.json as Record<string, unknown>;
    expect([pngWidth(body.input_image), pngWidth(body.input_image_2)]).toEqual([one.size, three.size]);
    expect(body).not.toHaveProperty('input_image_3');
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 10, view: 'all' });
    const job = await apiCall(app.host, 'jobs.get', { id: items.find((j) => j.provider === 'bfl')!.id });
    expect(job.request.referenceImages).toEqual([
      { imageId: imageOf.get(one.prompt) },
      { imageId: imageOf.get(three.prompt) },
    ]);
  }, 120_000);

  it('a model that takes none keeps them in the row, says so, and Generate sends none', async () => {
    const { page } = app;
    await composer().getByLabel('Provider', { exact: true }).selectOption('builtin');
    expect(await count().textContent()).toBe('2, none sent');
    expect(await row().getByRole('note').textContent()).toBe(
      'This model takes no reference images: they stay here and are not sent. Gemini and FLUX.2 take them.',
    );
    await screenshot(page, 'composer-references-none-sent');
    const known = new Set((await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' })).items.map((j) => j.id));
    await composer().getByLabel('Prompt', { exact: true }).fill('a text-only shelf');
    await composer()
      .getByRole('button', { name: /^Generate/ })
      .click();
    let created: string | undefined;
    await waitFor(async () => {
      created = (await apiCall(app.host, 'jobs.list', { limit: 50, view: 'all' })).items.find(
        (j) => !known.has(j.id),
      )?.id;
      return created !== undefined;
    }, 'the built-in job');
    const job = await apiCall(app.host, 'jobs.get', { id: created! });
    expect(job.request).not.toHaveProperty('referenceImages');
    // Still there for the next model that takes them.
    expect(
      await row()
        .getByRole('img', { name: /^Reference \d, not sent/ })
        .count(),
    ).toBe(2);
  }, 60_000);
});
