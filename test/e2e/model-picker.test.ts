import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, screenshot, openApp, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';
import { seriousViolations } from './axe.js';

// fal.ai's models are known offline (electron/providers/fal/models.ts): a fake key and an address nothing answers do.
const KEY = 'fal-e2e-key-never-used';

let app: App;

beforeAll(async () => {
  const nowhere = `http://127.0.0.1:${await closedPort()}`;
  app = await openApp({
    prefix: 'atelier-e2e-model-picker-',
    host: { engine: { providerDefaults: { fal: { baseUrl: nowhere } } } },
    seed: async (host) => {
      await apiCall(host, 'settings.update', { providers: { fal: { enabled: true, apiKey: KEY } } });
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const composer = () => app.page.getByRole('form', { name: 'Composer' });
const field = (label: string) => composer().getByLabel(label, { exact: true });

describe('the composer’s model picker', () => {
  it('lists fal.ai’s models with what each can do, and the form follows the chosen one', async () => {
    const { page } = app;
    await field('Provider').selectOption('fal');
    const model = field('Model');
    const labels = await model.locator('option').allTextContents();
    expect(labels).toContain('fal-ai/flux/schnell — up to 4 images · 1–12 steps · seed');
    expect(labels).toContain('fal-ai/recraft-v3 — 1 image');
    expect(labels).toContain('fal-ai/ideogram/v2 — 1 image · seed · negative prompt');
    expect(labels.at(-1)).toBe('Another model id…');

    // FLUX dev, the default: 28 of 1–50 steps, guidance, a seed, up to four images.
    expect(await model.inputValue()).toBe('fal-ai/flux/dev');
    await composer().getByText('up to 4 images · 1–50 steps · guidance · seed', { exact: true }).waitFor();
    expect(await field('Count').getAttribute('max')).toBe('4');
    expect(await field('Steps').inputValue()).toBe('28');
    expect(await field('Steps').getAttribute('max')).toBe('50');
    expect(await field('Guidance').isVisible()).toBe(true);
    await field('Count').fill('4');

    await model.selectOption('fal-ai/flux/schnell');
    expect(await field('Steps').inputValue()).toBe('4');
    expect(await field('Steps').getAttribute('max')).toBe('12');
    expect(await field('Guidance').count()).toBe(0);
    expect(await field('Count').inputValue()).toBe('4');

    await model.selectOption('fal-ai/recraft-v3');
    await composer().getByText('1 image', { exact: true }).waitFor();
    expect(await field('Count').inputValue()).toBe('1');
    expect(await field('Count').getAttribute('max')).toBe('1');
    expect(await field('Seed').count()).toBe(0);
    expect(await field('Steps').count()).toBe(0);
    await screenshot(page, 'composer-model-picker-recraft');

    await model.selectOption('fal-ai/ideogram/v2');
    expect(await field('Negative prompt').isVisible()).toBe(true);
    expect(await field('Seed').isVisible()).toBe(true);
  }, 60_000);

  it('takes a model id typed in, and sends it to the engine as typed', async () => {
    const { page } = app;
    await field('Model').selectOption({ label: 'Another model id…' });
    const typed = field('Model id');
    await typed.fill('fal-ai/some-lab/new-model');
    await screenshot(page, 'composer-model-picker-typed');
    // The menu and the id field beside it are labelled controls, with no serious axe violation in the composer.
    expect(await seriousViolations(page, 'form.composer')).toEqual([]);
    await field('Prompt').fill('a kite over the dunes, typed model');
    await composer()
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(async () => {
      const { items } = await apiCall(app.host, 'jobs.list', { limit: 5, view: 'all', search: 'kite over the dunes' });
      return items[0]?.model === 'fal-ai/some-lab/new-model';
    }, 'the job with the typed model');
    // Back to a listed model: the id field goes.
    await field('Model').selectOption('fal-ai/flux/dev');
    expect(await field('Model id').count()).toBe(0);
  }, 60_000);

  it('an any:fal target lists the same models and follows the chosen one, and a job goes to any:fal as today', async () => {
    const { page } = app;
    const added = (await apiCall(app.host, 'providers.add', { kind: 'fal', name: 'fal second' })).provider;
    await apiCall(app.host, 'settings.update', { providers: { [added.id]: { enabled: true, apiKey: KEY } } });
    await page.reload();
    await field('Provider').selectOption('any:fal');
    await field('Model').selectOption('fal-ai/recraft-v3');
    expect(await field('Count').getAttribute('max')).toBe('1');
    expect(await field('Seed').count()).toBe(0);
    await field('Prompt').fill('a lantern on the pier, any fal');
    await composer()
      .getByRole('button', { name: /^Generate/ })
      .click();
    await waitFor(async () => {
      const { items } = await apiCall(app.host, 'jobs.list', { limit: 5, view: 'all', search: 'lantern on the pier' });
      return items[0]?.model === 'fal-ai/recraft-v3';
    }, 'the any:fal job');
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 5, view: 'all', search: 'lantern on the pier' });
    // Queued for the kind; the scheduler placed it on one of the two.
    expect(items[0]?.provider).toBe('any:fal');
    expect(JSON.stringify(items)).not.toContain(KEY);
  }, 60_000);
});
