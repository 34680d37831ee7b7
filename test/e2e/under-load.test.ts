/**
 * The headless host as users run it (runServe with --data-dir, its library host included), used the normal way:
 * the page logs no console error and meets no 4xx from load to generate, view and favourite, nor when it asks for a
 * job's last preview as the job ends; and Generate pressed twice 50–250 ms apart, as a real double click, queues one
 * job 5 times out of 5 while a CPU burner keeps the machine busy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/create-engine.js';
import { defaultProviders } from '../../electron/engine/default-providers.js';
import { createFileKeyring } from '../../electron/engine/file-keyring.js';
import { runServe, type ServeHandle } from '../../electron/serve/run.js';
import { createHeldProvider, heldEntry } from '../fakes/held-provider.js';
import { buildRenderer, launchBrowser, rm, tempDir, type Browser, type Host } from './harness.js';
import { apiCall, expectGrid, waitFor, type ImageLike } from './helpers.js';

const TOKEN = 'e2e-load-token-0123456789';
const held = createHeldProvider('held');

let renderer: Awaited<ReturnType<typeof buildRenderer>>;
let root: string;
let handle: ServeHandle;
let host: Host;
let browser: Browser;
/** Every console error and every 4xx/5xx answer the page met, from its first load on. */
const problems: string[] = [];

/** What the page itself sent to jobs.submit, counted where it happens (a wrapped fetch), so nothing is in flight unseen. */
interface Submits {
  started: number;
  settled: number;
}

beforeAll(async () => {
  renderer = await buildRenderer();
  root = await tempDir('atelier-e2e-load-');
  handle = await runServe(
    ['--data-dir', join(root, 'lib'), '--port', '0', '--token', TOKEN, '--renderer-dir', renderer.dir],
    {
      createEngine: (options) =>
        createEngine(
          { ...options },
          { maintenanceIntervalMs: 0, providers: [...defaultProviders(), heldEntry(held, 1)] },
        ),
      createKeyring: createFileKeyring,
      stdout: () => undefined,
      stderr: () => undefined,
      env: { XDG_CONFIG_HOME: join(root, 'config'), HOME: root },
    },
  );
  host = {
    engine: handle.engine,
    server: handle.server,
    dataDir: join(root, 'lib'),
    url: handle.server.url,
    origin: `http://127.0.0.1:${handle.server.port}`,
    stop: () => handle.shutdown(),
  };
  browser = await launchBrowser();
  await browser.context.addInitScript(() => {
    const page = globalThis as unknown as {
      fetch: (url: string, init?: unknown) => Promise<unknown>;
      atelierSubmits: Submits;
    };
    const counts: Submits = { started: 0, settled: 0 };
    page.atelierSubmits = counts;
    const fetch = page.fetch.bind(globalThis);
    page.fetch = (url, init) => {
      if (!String(url).endsWith('/api/jobs.submit')) return fetch(url, init);
      counts.started += 1;
      return fetch(url, init).finally(() => (counts.settled += 1));
    };
  });
  browser.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  browser.page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  browser.page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await browser.page.goto(host.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await handle?.shutdown();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  await renderer?.remove();
});

const generate = (page: Browser['page']) =>
  page.getByRole('form', { name: 'Composer' }).getByRole('button', { name: /^Generate/ });

async function jobsWithPrompt(prompt: string): Promise<number> {
  return (await apiCall(host, 'jobs.list', { view: 'all', limit: 200 })).items.filter((j) => j.prompt === prompt)
    .length;
}

describe('normal use', () => {
  it('load, generate with previews, view and favourite: no console error, no 4xx', async () => {
    const { page } = browser;
    const prompt = 'a tidal pool under a quiet moon';
    await page.getByLabel('Prompt', { exact: true }).fill(prompt);
    // Long enough for partial previews to come and go before the picture lands.
    await page.getByLabel('Steps').fill('60');
    await generate(page).click();
    await expectGrid(page, [prompt]);
    const card = page.locator('.card', { has: page.getByRole('button', { name: prompt, exact: true }) });
    await waitFor(async () => (await card.locator('.thumb.live').count()) === 0, 'the job to finish rendering', 30_000);
    await waitFor(
      () =>
        card
          .locator('img.thumb')
          .evaluate((img) => (img as unknown as ImageLike).complete && (img as unknown as ImageLike).naturalWidth > 0),
      'the thumbnail to load',
    );
    await page.getByRole('button', { name: prompt, exact: true }).dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${prompt}` });
    await viewer.waitFor();
    await page.keyboard.press('f');
    await viewer.getByRole('button', { name: '♥ Favorite' }).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    const [job] = (await apiCall(host, 'jobs.list', { view: 'all', limit: 10 })).items.filter(
      (j) => j.prompt === prompt,
    );
    expect(job?.favorite).toBe(true);
    expect(problems).toEqual([]);
  }, 90_000);
});

describe('a job’s last preview', () => {
  it('asked for just as the job ends (a busy page), it is still there: no 404', async () => {
    const { page } = browser;
    const prompt = 'a lantern whose last preview comes as it ends';
    const isPreview = (url: string | URL) => new URL(url).pathname.startsWith('/media/preview/');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The page's request for the preview reaches the host only once the job has ended there: a page that asks late.
    await page.route(isPreview, async (route) => {
      await released;
      await route.continue();
    });
    try {
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'held',
        prompt,
        width: 256,
        height: 256,
        count: 1,
      });
      const running = await held.started(prompt);
      const asked = page.waitForRequest((request) => isPreview(request.url()));
      await running.step(1, 2);
      await asked;
      running.finish();
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
        'the job to end on the host',
      );
      const answered = page.waitForResponse((response) => isPreview(response.url()));
      release();
      expect((await answered).status()).toBe(200);
    } finally {
      release();
      await page.unroute(isPreview);
    }
    expect(problems).toEqual([]);
  });
});

describe('Generate under load', () => {
  it('a real double click (two clicks 50–250 ms apart) queues one job, 5 of 5, while a CPU burner runs', async () => {
    const { page } = browser;
    await page.getByLabel('Steps').fill('4');
    const burners: ChildProcess[] = [];
    try {
      // One spinning process per core, each stopping by itself after two minutes at the latest.
      for (let i = 0; i < availableParallelism(); i += 1) {
        burners.push(
          spawn(process.execPath, ['-e', 'const end = Date.now() + 120_000; while (Date.now() < end);'], {
            stdio: 'ignore',
          }),
        );
      }
      // Real input carries the moment it happened, however late a busy machine delivers it: so do these clicks.
      const input = await browser.context.newCDPSession(page);
      const click = async (x: number, y: number, at: number): Promise<void> => {
        for (const type of ['mousePressed', 'mouseReleased'] as const) {
          await input.send('Input.dispatchMouseEvent', {
            type,
            x,
            y,
            button: 'left',
            clickCount: 1,
            timestamp: at / 1000,
          });
        }
      };
      for (const gap of [50, 100, 150, 200, 250]) {
        const prompt = `a double click, ${gap} ms apart`;
        await page.getByLabel('Prompt', { exact: true }).fill(prompt);
        const button = generate(page);
        await button.scrollIntoViewIfNeeded();
        const box = (await button.boundingBox())!;
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        await input.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
        const first = Date.now();
        await click(x, y, first);
        // The gap between the two presses is the input itself, not a wait for an outcome.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, first + gap - Date.now())));
        await click(x, y, first + gap);
        // Both presses are handled once their clicks are; every submit the page started has its answer.
        await waitFor(
          async () => {
            const { started, settled } = await page.evaluate(
              () => (globalThis as unknown as { atelierSubmits: Submits }).atelierSubmits,
            );
            return started > 0 && started === settled;
          },
          'every submit the page sent to be answered',
          30_000,
        );
        expect(await jobsWithPrompt(prompt), `jobs queued by a double click ${gap} ms apart`).toBe(1);
      }
    } finally {
      for (const burner of burners) burner.kill('SIGKILL');
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
