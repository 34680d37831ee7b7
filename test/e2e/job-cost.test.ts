import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBfl, type FakeBfl } from '../fakes/bfl.js';
import { openApp, screenshot, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

/** A paid job's details say what it cost, and whether that is the provider's figure or Atelier's estimate. */
const PROMPT = 'a paper boat on a rain puddle';
const KEY = 'bfl-e2e-cost-key-0123456789';
let app: App;
let fake: FakeBfl;

beforeAll(async () => {
  fake = await startFakeBfl({ apiKey: KEY });
  fake.setScenario({ kind: 'success', pendingPolls: 0 });
  app = await openApp({
    prefix: 'atelier-e2e-cost-',
    seed: async (host) => {
      await apiCall(host, 'settings.update', {
        providers: { bfl: { apiKey: KEY, baseUrl: fake.url } },
        spend: { prices: { 'bfl/flux-2-pro': 0.04 } },
      });
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'bfl',
        model: 'flux-2-pro',
        prompt: PROMPT,
        width: 1024,
        height: 1024,
        count: 1,
      });
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
        'the job',
        30_000,
      );
    },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('a paid job’s cost', () => {
  it('shows in the viewer’s details, marked as an estimate when the provider did not say', async () => {
    const { page } = app;
    await page.getByRole('button', { name: PROMPT, exact: true }).dblclick();
    const details = page
      .getByRole('dialog', { name: `Viewer: ${PROMPT}` })
      .getByRole('complementary', { name: 'Details' });
    await details.waitFor();
    const cost = details.locator('dt', { hasText: /^Cost$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await cost.textContent()).toBe('$0.04 (estimated)');
    await screenshot(page, 'viewer-job-cost');
  }, 60_000);
});
