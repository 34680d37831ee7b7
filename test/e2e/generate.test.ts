import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeA1111 } from '../fakes/a1111.js';
import { closedPort, openApp, type App } from './harness.js';
import { apiCall, expectGrid, openFilters, recordProgressValues, waitFor, type ImageLike } from './helpers.js';

let app: App;

beforeAll(async () => {
  // A1111 points at a port nothing listens on: the "stopped provider".
  app = await openApp({
    prefix: 'atelier-e2e-gen-',
    host: { engine: { providerDefaults: { a1111: { baseUrl: `http://127.0.0.1:${await closedPort()}` } } } },
  });
});

afterAll(() => app?.close());

describe('generate with the builtin provider', () => {
  it('shows moving progress and a partial preview, then the image lands in the grid', async () => {
    const { page } = app;
    await page.getByLabel('Prompt', { exact: true }).fill('a quiet harbour at dawn with fishing boats');
    // Large enough that the built-in render lasts over a second: 512² at 16 steps is done in ~200 ms, one tick.
    await page.getByLabel('Steps').fill('150');
    await page.getByLabel('Width', { exact: true }).fill('2048');
    await page.getByLabel('Height', { exact: true }).fill('2048');
    const progressSeen = await recordProgressValues(page);
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();

    // The job is a card in the grid from the start: live while it renders, then the result in the same place.
    const card = page.locator('.card', {
      has: page.getByRole('button', { name: 'a quiet harbour at dawn with fishing boats' }),
    });
    const live = card.locator('.thumb.live');
    await live.waitFor();
    let sawPreview = false;
    await waitFor(
      async () => {
        // The preview lies under the live card's ring (drawn by the card, so it can outlast the render).
        if ((await live.count()) > 0 && (await card.locator('img.live-preview').count()) > 0) sawPreview = true;
        return (await live.count()) === 0;
      },
      'the job to finish rendering',
      30_000,
    );
    const values = await progressSeen();
    expect(values.length, `progress values seen: ${values.join(', ')}`).toBeGreaterThan(2);
    expect(sawPreview).toBe(true);

    await expectGrid(page, ['a quiet harbour at dawn with fishing boats']);
    const thumb = page.getByRole('button', { name: 'a quiet harbour at dawn with fishing boats' }).locator('img.thumb');
    await waitFor(
      () =>
        thumb.evaluate(
          (img) => (img as unknown as ImageLike).complete && (img as unknown as ImageLike).naturalWidth > 0,
        ),
      'the thumbnail to load',
    );
  }, 60_000);

  it('cancels a running job', async () => {
    const { page } = app;
    await page.getByLabel('Prompt', { exact: true }).fill('a very slow cathedral interior');
    await page.getByLabel('Width', { exact: true }).fill('2048');
    await page.getByLabel('Height', { exact: true }).fill('2048');
    await page.getByLabel('Steps').fill('150');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    const cancel = page.getByRole('button', { name: 'Cancel: a very slow cathedral interior' });
    await cancel.click();
    await cancel.waitFor({ state: 'detached' });
    await (await openFilters(page)).getByLabel('Status filter').selectOption('cancelled');
    await expectGrid(page, ['a very slow cathedral interior']);
    await (await openFilters(page)).getByLabel('Status filter').selectOption('');
  });

  it('a job against a stopped provider shows its error, and Retry works once the provider is back', async () => {
    const { page } = app;
    // Turn on AUTOMATIC1111 in Settings (it points at a dead port).
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const card = page.getByRole('article', { name: /AUTOMATIC1111|A1111/ });
    await card.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByLabel('Provider', { exact: true }).selectOption('a1111');
    await page.getByLabel('Prompt', { exact: true }).fill('a portrait that cannot render yet');
    await page
      .getByRole('form', { name: 'Composer' })
      .getByRole('button', { name: /^Generate/ })
      .click();
    await (await openFilters(page)).getByLabel('Status filter').selectOption('failed');
    await expectGrid(page, ['a portrait that cannot render yet']);
    const failedCard = page.locator('.card', {
      has: page.getByRole('button', { name: 'a portrait that cannot render yet' }),
    });
    // Its one line starts the message; the whole message is its tooltip (and in the details).
    await expect(failedCard.locator('.tile-status').textContent()).resolves.toBe('Failed');
    await expect(failedCard.locator('.tile-message').getAttribute('title')).resolves.toMatch(
      /reach|connect|unavailable|refused/i,
    );
    // A failure is a compact card: narrower than it is tall, its message on one line, never as big as a picture.
    const failedBox = (await failedCard.boundingBox())!;
    expect(failedBox.width / failedBox.height).toBeLessThan(0.7);
    expect((await failedCard.locator('.tile-message').boundingBox())!.height).toBeLessThan(20);
    // "Hide failures" takes it out of the wall of pictures and keeps the pictures.
    await (await openFilters(page)).getByLabel('Status filter').selectOption('no-failures');
    await waitFor(
      async () =>
        (await failedCard.count()) === 0 &&
        (await page
          .getByRole('button', { name: 'a quiet harbour at dawn with fishing boats', exact: true })
          .count()) === 1,
      'failures hidden and pictures kept',
    );
    await (await openFilters(page)).getByLabel('Status filter').selectOption('failed');
    await expectGrid(page, ['a portrait that cannot render yet']);
    await page
      .getByRole('status')
      .filter({ hasText: /unavailable/ })
      .first()
      .waitFor();

    // The server that comes back runs with --api-auth: the user name and password from Settings must reach it.
    const secret = 'pw-e2e-never-shown';
    const fake = await startFakeA1111({ auth: { username: 'artist', password: secret } });
    try {
      // The banner leads to the fix.
      await page.getByRole('button', { name: 'Check settings' }).click();
      await card.getByLabel('Base URL').fill(fake.url);
      await card.getByLabel('User name (optional)').fill('artist');
      await card.getByLabel(/^Password/).fill(secret);
      await card.getByRole('button', { name: 'Save' }).click();
      await page.getByText('saved.').first().waitFor();
      // Write-only: the page shows that a password is stored, never the password.
      await card.getByText('password set').waitFor();
      expect(await card.getByLabel(/^Password/).inputValue()).toBe('');
      expect(JSON.stringify(await apiCall(app.host, 'settings.get', {}))).not.toContain(secret);
      await page.getByRole('button', { name: 'Close', exact: true }).click();
      await page.getByRole('button', { name: 'Retry: a portrait that cannot render yet' }).click();
      await (await openFilters(page)).getByLabel('Status filter').selectOption('succeeded');
      // Exactly the card, with its picture: a substring would also match the live job's Cancel button.
      const retried = page
        .getByRole('button', { name: 'a portrait that cannot render yet', exact: true })
        .locator('img.thumb');
      await waitFor(async () => (await retried.count()) === 1, 'the retried job to succeed', 30_000);
      expect(fake.generationRequests().length).toBeGreaterThan(0);
    } finally {
      await fake.close();
      await (await openFilters(page)).getByLabel('Status filter').selectOption('');
    }
  }, 60_000);
});
