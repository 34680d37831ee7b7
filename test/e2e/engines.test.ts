import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfyUI, type FakeComfy } from '../fakes/comfyui.js';
import { transcript } from '../fakes/comfyui-nodes.js';
import { startLocalEngine, type LocalServer } from '../fakes/local-engines.js';
import { closedPort, openApp, screenshot, type App } from './harness.js';
import { apiCall } from './helpers.js';
import { seriousViolations } from './axe.js';

// Fakes on free loopback ports stand in for the usual ones (only test/integration/engine/discovery.test.ts binds those).
let app: App;
let comfy: FakeComfy;
let swarm: LocalServer;

beforeAll(async () => {
  comfy = await startFakeComfyUI();
  swarm = await startLocalEngine('swarmui', { version: '0.9.7.0' });
  const nothing = await closedPort();
  app = await openApp({
    prefix: 'atelier-e2e-engines-',
    host: {
      engine: {
        engineCandidates: [
          { port: Number(new URL(comfy.url).port), kind: 'comfyui', name: 'ComfyUI' },
          { port: swarm.port, kind: 'swarmui', name: 'SwarmUI' },
          { port: nothing, kind: 'a1111', name: 'AUTOMATIC1111' },
        ],
      },
    },
    browser: { viewport: { width: 1280, height: 900 } },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await comfy?.close();
  await swarm?.close();
});

const emptyState = () => app.page.getByRole('status').filter({ hasText: 'Your gallery is empty' });

describe('a new library’s empty gallery', () => {
  it('offers three ways to start: an engine found here, a hosted key, or the placeholder generator', async () => {
    const empty = emptyState();
    await empty.waitFor();
    for (const name of ['Connect an engine on this computer', 'Add a hosted key…', 'Try the placeholder generator'])
      await empty.getByRole('button', { name, exact: true }).waitFor();
    expect(await empty.textContent()).toContain('without AI');
    await screenshot(app.page, 'engines-empty-state');
  });

  it('the placeholder generator is chosen in the composer, which says plainly what it draws, and takes the keyboard', async () => {
    const { page } = app;
    await page.getByLabel('Provider', { exact: true }).selectOption('openai');
    await emptyState().getByRole('button', { name: 'Try the placeholder generator' }).click();
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('builtin');
    await page.getByText('Placeholder scenes, no AI — for trying Atelier out').first().waitFor();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document
            .activeElement?.className ?? '',
      ),
    ).toContain('prompt');
  });

  it('Connect an engine looks on this computer, names what it found with its version, and connects ComfyUI in one click', async () => {
    const { page } = app;
    await emptyState().getByRole('button', { name: 'Connect an engine on this computer' }).click();
    const found = page.getByRole('group', { name: 'Engines on this computer' });
    const comfyRow = found.locator('li[data-kind="comfyui"]');
    await comfyRow.waitFor();
    expect(await comfyRow.textContent()).toContain(`ComfyUI ${transcript().comfyuiVersion} ${comfy.url}`);
    const swarmRow = found.locator('li[data-kind="swarmui"]');
    expect(await swarmRow.textContent()).toContain('SwarmUI 0.9.7.0');
    expect(await swarmRow.textContent()).toContain('Atelier cannot drive SwarmUI yet');
    await swarmRow.getByRole('button', { name: 'import its output folder' }).waitFor();
    expect(await swarmRow.getByRole('button', { name: /^Connect/ }).count()).toBe(0);
    await screenshot(page, 'engines-found-in-empty-state');
    expect(await seriousViolations(page)).toEqual([]);

    await comfyRow.getByRole('button', { name: `Connect ComfyUI at ${comfy.url}` }).click();
    await comfyRow.getByText('Connected', { exact: true }).waitFor();
    const settings = await apiCall(app.host, 'settings.get', {});
    expect(settings.providers['comfyui']).toMatchObject({ enabled: true, baseUrl: comfy.url });
    await screenshot(page, 'engines-connected');
  });
});

describe('Settings → Providers', () => {
  it('opens at Hosted from the empty state, with cards grouped by where they run and the built-in said plainly', async () => {
    const { page } = app;
    await emptyState().getByRole('button', { name: 'Add a hosted key…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.waitFor();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ===
        'providers-hosted',
    );
    const groups = dialog.locator('section[data-group]');
    const shown = await groups.evaluateAll((sections) =>
      sections.map((s) => [
        s.querySelector('h4')?.textContent,
        [...s.querySelectorAll('article.provider-card')].map((a) => a.getAttribute('aria-label')),
      ]),
    );
    // The groups hold whatever kinds this build's settings contain: local engines first, then the hosted APIs.
    expect(shown[0]).toEqual(['On this computer', ['Built-in (offline)', 'AUTOMATIC1111 / Forge', 'ComfyUI']]);
    expect(shown[1]![0]).toBe('Hosted');
    expect(shown[1]![1]).toEqual(expect.arrayContaining(['OpenAI', 'Google Gemini', 'Black Forest Labs FLUX']));
    const builtin = dialog.getByRole('article', { name: 'Built-in (offline)' });
    expect(await builtin.textContent()).toContain('Placeholder scenes, no AI — for trying Atelier out');
    await screenshot(page, 'settings-hosted-group');
  });

  it('Find engines on this computer sits at the top of Providers and shows ComfyUI as connected', async () => {
    const { page } = app;
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const find = dialog.getByRole('group', { name: 'Engines on this computer' });
    await find.getByRole('button', { name: 'Find engines on this computer' }).click();
    const comfyRow = find.locator('li[data-kind="comfyui"]');
    await comfyRow.getByText('Connected', { exact: true }).waitFor();
    await find.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-find-engines');
    expect(await seriousViolations(page, 'dialog.settings')).toEqual([]);
  });
});
