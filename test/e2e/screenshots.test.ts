import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeA1111, type FakeA1111 } from '../fakes/a1111.js';
import type { ReadResult } from '../../electron/library/originals/read-pool.js';
import { rm, screenshot, tempDir, type Host, openApp, type App } from './harness.js';
import { apiCall, waitFor } from './helpers.js';

/**
 * The screens a person sees most, each in the light and the dark theme, saved as
 * test-results/screenshots/gallery-<name>-<light|dark>.png. Every shot first asserts the state it claims, so a shot
 * of the wrong thing fails the test. Elements are found by role, label and the grid's stable selectors
 * (`.grid-scroll`, `.card[data-id]`, `img.thumb`), never by layout, so the shots survive grid changes.
 */
const SCHEMES = ['light', 'dark'] as const;
const RUNNING = 'a heron standing in a misty marsh at dawn';
/** Four takes of one prompt (different seeds): what a person compares. */
const VARIANT = 'amber desert dunes at sunset, golden haze';
const VARIANT_SEEDS = [11, 12, 13, 14];
/** The rest of the history, at the true aspect ratios people render: square, 2:3, 3:2, 16:9, 9:16. */
const HISTORY: Array<{ prompt: string; width: number; height: number }> = [
  { prompt: 'crimson sunset over the ocean, rolling waves', width: 512, height: 512 },
  { prompt: 'emerald forest ridges at dawn', width: 512, height: 768 },
  { prompt: 'neon cyberpunk skyline at night', width: 896, height: 504 },
  { prompt: 'a glacier under violet stars', width: 504, height: 896 },
  { prompt: 'teal lake with glowing orbs', width: 512, height: 512 },
  { prompt: 'synthwave galaxy rings, magenta nebula', width: 512, height: 768 },
  { prompt: 'lavender garden in the mist', width: 504, height: 896 },
  { prompt: 'cobalt sea waves at dusk', width: 896, height: 504 },
];
const IMPORT_FOLDER = 'sketchbook';
const IMPORT_TOTAL = 40;
/** The import reads these first files, then waits at the gate: it is held at exactly HELD_AT of IMPORT_TOTAL. */
const HELD_AT = 12;

let app: App;
let outside: string;
let fake: FakeA1111;
let runningId: string;
let releaseImport: () => void = () => undefined;
const importGate = new Promise<void>((resolve) => (releaseImport = resolve));
const ids = new Map<string, string>();

/** The page's globals this file's page callbacks touch (the file is typed for Node). */
interface PageWindow {
  document: {
    body: unknown;
    elementFromPoint(x: number, y: number): { closest(selector: string): unknown } | null;
  };
  getComputedStyle(element: unknown): { backgroundColor: string };
  requestAnimationFrame(cb: () => void): void;
  innerWidth: number;
  innerHeight: number;
}
interface ImgEl {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number; width: number; height: number };
}

/** A partial preview as a sampler shows it: the scene's colours, blurred and grainy, sharper each frame. */
async function previewFrames(width: number, height: number): Promise<Buffer[]> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs>
        <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#2b3a67"/><stop offset="0.55" stop-color="#e29a6b"/><stop offset="1" stop-color="#3f5e4a"/>
        </linearGradient>
        <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2"/><feColorMatrix type="saturate" values="0"/>
          <feComponentTransfer><feFuncA type="linear" slope="0.35"/></feComponentTransfer></filter>
      </defs>
      <rect width="100%" height="100%" fill="url(#sky)"/>
      <circle cx="${width * 0.62}" cy="${height * 0.42}" r="${width * 0.12}" fill="#ffd9a0"/>
      <path d="M0 ${height * 0.7} Q ${width * 0.5} ${height * 0.6} ${width} ${height * 0.72} L ${width} ${height} L 0 ${height} Z" fill="#28402f"/>
      <rect x="${width * 0.3}" y="${height * 0.45}" width="${width * 0.05}" height="${height * 0.3}" fill="#1c2421"/>
      <rect width="100%" height="100%" filter="url(#grain)"/>
    </svg>`,
  );
  return Promise.all([18, 10, 5].map((sigma) => sharp(svg).blur(sigma).png().toBuffer()));
}

/** A gallery of distinct files to import: gradients in many hues and shapes, at several aspect ratios. */
async function importFiles(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const shapes: Array<[number, number]> = [
    [480, 480],
    [400, 600],
    [600, 400],
    [640, 360],
    [360, 640],
  ];
  for (let i = 0; i < IMPORT_TOTAL; i += 1) {
    const [w, h] = shapes[i % shapes.length]!;
    const hue = (i * 47) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <defs><radialGradient id="g" cx="${30 + ((i * 13) % 40)}%" cy="${25 + ((i * 7) % 50)}%" r="90%">
        <stop offset="0" stop-color="hsl(${hue},80%,72%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},55%,22%)"/>
      </radialGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <circle cx="${w * 0.7}" cy="${h * 0.35}" r="${Math.min(w, h) * 0.14}" fill="hsl(${(hue + 60) % 360},90%,85%)" opacity="0.8"/>
    </svg>`;
    await writeFile(
      join(dir, `study-${String(i).padStart(2, '0')}.png`),
      await sharp(Buffer.from(svg)).png().toBuffer(),
    );
  }
}

/** Runs a job on the built-in generator and waits for it; returns its id. */
async function seed(host: Host, prompt: string, width: number, height: number, seedValue?: number): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width,
    height,
    count: 1,
    steps: 20,
    ...(seedValue === undefined ? {} : { seed: seedValue }),
  });
  return job.id;
}

beforeAll(async () => {
  const frames = previewFrames(512, 768);
  outside = await tempDir('atelier-e2e-shots-out-');
  await importFiles(join(outside, IMPORT_FOLDER));
  const preview = await frames;
  // Held running for the whole file: 150 steps of a second each, a new preview at every step.
  fake = await startFakeA1111({
    scenario: {
      kind: 'success',
      stepMs: 1_000,
      previewEvery: 1,
      preview: (step) => preview[Math.min(step, preview.length) - 1]!,
    },
  });
  app = await openApp({
    prefix: 'atelier-e2e-shots-',
    host: {
      engine: {
        // The import of IMPORT_FOLDER reads its first HELD_AT files, then waits until the test lets it go on.
        wrapImportRead: async (path: string, read: (p: string) => Promise<ReadResult>) => {
          const index = Number(/^study-(\d+)\.png$/.exec(basename(path))?.[1] ?? -1);
          if (index >= HELD_AT) await importGate;
          return read(path);
        },
      },
    },
    seed: async (host) => {
      await apiCall(host, 'settings.update', { providers: { a1111: { enabled: true, baseUrl: fake.url } } });
      // Oldest first, so the newest (the variants) lead the grid.
      // Fixed seeds: the same pictures on every run, so the artifacts can be compared run to run.
      for (const [i, h] of HISTORY.entries())
        ids.set(h.prompt, await seed(host, h.prompt, h.width, h.height, 7_001 + i));
      for (const s of VARIANT_SEEDS) ids.set(`${VARIANT} #${s}`, await seed(host, VARIANT, 768, 512, s));
      await waitFor(
        async () => {
          const { items } = await apiCall(host, 'jobs.list', { limit: 50, view: 'all' });
          return items.length === ids.size && items.every((j) => j.status === 'succeeded');
        },
        'the history to render',
        60_000,
      );
      const { job } = await apiCall(host, 'jobs.submit', {
        provider: 'a1111',
        prompt: RUNNING,
        width: 512,
        height: 768,
        count: 1,
        steps: 150,
      });
      runningId = job.id;
      await waitFor(
        async () => (await apiCall(host, 'jobs.get', { id: runningId })).status === 'running',
        'the A1111 job to start',
        15_000,
      );
    },
    browser: { viewport: { width: 1440, height: 900 } },
  });
}, 150_000);

afterAll(async () => {
  releaseImport();
  if (app !== undefined && runningId !== undefined)
    await apiCall(app.host, 'jobs.cancel', { id: runningId }).catch(() => undefined);
  await app?.close();
  await fake?.close();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

// A failed step must not leave its dialog or its window size over the next one.
afterEach(async () => {
  const { page } = app;
  for (let i = 0; i < 3 && (await page.locator('dialog[open]').count()) > 0; i += 1)
    await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
});

/** The page's ground: light or dark, read from what is painted rather than from a class. */
async function groundLuminance(): Promise<number> {
  const rgb = await app.page.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    return w.getComputedStyle(w.document.body).backgroundColor;
  });
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number];
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Shoots the current state in both themes; `check` asserts the state again in each before its shot. */
async function shootBoth(name: string, check: () => Promise<void>): Promise<void> {
  const { page } = app;
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    // The reduced-motion rule leaves a 0.01 ms transition on every property: read the ground once it has run.
    const dark = colorScheme === 'dark';
    await waitFor(
      async () => (await groundLuminance()) < 0.25 === dark && (await groundLuminance()) > 0.6 !== dark,
      `the ${colorScheme} theme`,
      5_000,
    );
    await check();
    // Two frames: the theme's colours painted, not half-way.
    await page.evaluate(() => {
      const w = globalThis as unknown as PageWindow;
      return new Promise<void>((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(resolve)));
    });
    await screenshot(page, `gallery-${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
}

/** Every `img` the locator finds has loaded real pixels. */
async function allLoaded(selector: string): Promise<boolean> {
  return app.page
    .locator(selector)
    .evaluateAll(
      (imgs) =>
        imgs.length > 0 &&
        imgs.every((i) => (i as unknown as ImgEl).complete && (i as unknown as ImgEl).naturalWidth > 0),
    );
}

const card = (key: string) => app.page.locator(`.grid-scroll .card[data-id="${ids.get(key)}"]`);

describe('gallery screenshots, light and dark', () => {
  it('main view: a mixed-aspect history and a running job with its partial preview', async () => {
    const { page } = app;
    await waitFor(
      async () =>
        (await page.locator('.grid-scroll img.thumb').count()) >= 8 && (await allLoaded('.grid-scroll img.thumb')),
      'the thumbnails to load',
      20_000,
    );
    // The history really holds pictures of several shapes: square, portrait, landscape, wide and tall.
    const ratios = await page
      .locator('.grid-scroll img.thumb')
      .evaluateAll((imgs) =>
        imgs.map((i) => (i as unknown as ImgEl).naturalWidth / (i as unknown as ImgEl).naturalHeight),
      );
    const shapes = new Set(
      ratios.map((r) =>
        r > 1.7 ? 'wide' : r > 1.2 ? 'landscape' : r > 0.8 ? 'square' : r > 0.6 ? 'portrait' : 'tall',
      ),
    );
    expect([...shapes].sort()).toEqual(['landscape', 'portrait', 'square', 'tall', 'wide']);
    const running = async () => {
      // The running job shows moving progress (step n of 150) and the sampler's newest preview, loaded.
      const bar = page.locator('[role="progressbar"]:not([aria-label^="Import"])').first();
      await bar.waitFor();
      await waitFor(async () => Number(await bar.getAttribute('aria-valuenow')) > 0, 'progress past 0 %', 10_000);
      await page
        .getByText(/\b\d+\s*(\/|of)\s*150\b/i)
        .first()
        .waitFor();
      await waitFor(() => allLoaded('img[src*="/media/preview/"]'), 'the partial preview to load', 10_000);
      expect((await apiCall(app.host, 'jobs.get', { id: runningId })).status).toBe('running');
    };
    await running();
    await page.mouse.move(0, 0);
    await shootBoth('main', running);
  }, 60_000);

  it('the viewer zoomed to 200 %', async () => {
    const { page } = app;
    const key = 'neon cyberpunk skyline at night';
    await card(key).locator('img.thumb').dblclick();
    const viewer = page.getByRole('dialog', { name: `Viewer: ${key}` });
    await viewer.waitFor();
    await waitFor(() => allLoaded('img.zoom-image'), 'the full image');
    await page.keyboard.press('Control+1');
    const pane = viewer.locator('.zoom-pane');
    await waitFor(async () => (await pane.getAttribute('data-zoom')) === '100', '1:1');
    const box = (await pane.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.45);
    // exp(462 × 0.0015) = 2: one wheel turn from 1:1 to 200 %, however Chromium splits it.
    await page.mouse.wheel(0, -462);
    await waitFor(async () => (await pane.getAttribute('data-zoom')) === '200', 'the zoom at 200 %', 5_000);
    await shootBoth('viewer-zoom', async () => {
      const level = viewer.getByRole('status', { name: 'Zoom level' });
      expect(await level.textContent()).toBe('200%');
      expect(await level.isVisible()).toBe(true);
    });
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  }, 60_000);

  it('Compare with two and with four images', async () => {
    const { page } = app;
    const variants = VARIANT_SEEDS.map((s) => `${VARIANT} #${s}`);
    const bar = page.getByRole('toolbar', { name: 'Selected images' });
    await card(variants[0]!).locator('img.thumb').click();
    await card(variants[1]!)
      .locator('img.thumb')
      .click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Compare 2 selected images' }).click();
    const two = page.getByRole('dialog', { name: 'Compare 2 images' });
    await two.waitFor();
    await waitFor(() => allLoaded('dialog img.zoom-image'), 'both images');
    await page.mouse.move(0, 0);
    await shootBoth('compare-2', async () => {
      expect(await two.locator('.zoom-pane').count()).toBe(2);
      // The seed differs (11 against 12) and is marked so; no row is only dashes.
      const table = two.getByRole('table', { name: 'Settings compared' });
      await table.locator('td[data-differs="true"]').first().waitFor();
      const rows = await Promise.all((await table.locator('tr').all()).map((tr) => tr.locator('td').allTextContents()));
      expect(rows.filter((cells) => cells.every((c) => c === '—'))).toEqual([]);
    });
    await page.keyboard.press('Escape');
    await two.waitFor({ state: 'detached' });

    await card(variants[0]!).locator('img.thumb').click();
    for (const v of variants.slice(1))
      await card(v)
        .locator('img.thumb')
        .click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Compare 4 selected images' }).click();
    const four = page.getByRole('dialog', { name: 'Compare 4 images' });
    await four.waitFor();
    await waitFor(
      async () =>
        (await page.locator('dialog img.zoom-image').count()) === 4 && (await allLoaded('dialog img.zoom-image')),
      'all four images',
    );
    await page.mouse.move(0, 0);
    await shootBoth('compare-4', async () => {
      expect(await four.locator('.zoom-pane').count()).toBe(4);
      // Four landscapes in a wide window: two rows of two, each drawn larger than in one row of four.
      const tops = await four
        .locator('figure.compare-pane')
        .evaluateAll((figs) => figs.map((f) => Math.round(f.getBoundingClientRect().top)));
      expect(new Set(tops).size).toBe(2);
    });
    await page.keyboard.press('Escape');
    await four.waitFor({ state: 'detached' });
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.waitFor({ state: 'detached' });
  }, 60_000);

  it('the composer drawer open at 1024×700, the gallery still in view', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1024, height: 700 });
    const toggle = page.getByRole('button', { name: /^Compose/ });
    await toggle.click();
    const prompt = page.getByLabel('Prompt', { exact: true });
    await prompt.fill('a lighthouse on a cobalt sea at dawn');
    await shootBoth('drawer-1024x700', async () => {
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await prompt.isVisible()).toBe(true);
      // At least one thumbnail is on screen and not under the drawer: the gallery stays first.
      const uncovered = await page.locator('.grid-scroll img.thumb').evaluateAll(
        (imgs) =>
          imgs.filter((i) => {
            const w = globalThis as unknown as PageWindow;
            const r = (i as unknown as ImgEl).getBoundingClientRect();
            const x = r.left + r.width / 2;
            const y = r.top + r.height / 2;
            if (x < 0 || y < 0 || x > w.innerWidth || y > w.innerHeight) return false;
            return w.document.elementFromPoint(x, y)?.closest('.grid-scroll') != null;
          }).length,
      );
      expect(uncovered).toBeGreaterThan(0);
    });
    await prompt.fill('');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await toggle.getAttribute('aria-expanded')) === 'false', 'the drawer to close');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  it('Settings', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.waitFor();
    await shootBoth('settings', async () => {
      // AUTOMATIC1111 was turned on for the running job: its card says what it is running.
      expect(
        await settings
          .getByRole('article', { name: /AUTOMATIC1111/ })
          .getByRole('checkbox')
          .first()
          .isChecked(),
      ).toBe(true);
      expect(await settings.getByRole('article', { name: /AUTOMATIC1111/ }).textContent()).toContain(
        `Running “${RUNNING.slice(0, 20)}`,
      );
    });
    await settings.getByRole('button', { name: 'Close', exact: true }).click();
    await settings.waitFor({ state: 'detached' });
  }, 60_000);

  it('a folder import in progress, held at 12 of 40', async () => {
    const { page } = app;
    // Made now, so the imported pictures sort first in "Newest first" and arrive in view.
    const folder = join(outside, IMPORT_FOLDER);
    const now = Date.now() / 1000;
    for (const name of await readdir(folder)) await utimes(join(folder, name), now, now);
    await page.getByRole('banner').getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import images' });
    await dialog.getByLabel('Folders or files, one a line').fill(folder);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('listitem', { name: `Import of ${IMPORT_FOLDER}` });
    await row.getByText(`Importing: ${HELD_AT} of ${IMPORT_TOTAL}`).waitFor({ timeout: 20_000 });
    // The first files are already in the grid, while the rest wait.
    const { items } = await apiCall(app.host, 'jobs.list', { limit: 100, view: 'all' });
    const imported = items.map((j) => j.id).filter((id) => id !== runningId && ![...ids.values()].includes(id));
    expect(imported).toHaveLength(HELD_AT);
    const importedThumbs = imported.map((id) => `.grid-scroll .card[data-id="${id}"] img.thumb`).join(', ');
    await waitFor(
      async () => (await page.locator(importedThumbs).count()) >= 4 && (await allLoaded(importedThumbs)),
      'imported thumbnails in the grid',
      20_000,
    );
    // The count of everything (images: a job without one, running or failed, adds none) has caught up with the
    // pictures that arrived (it refreshes a moment after them).
    const { active } = await apiCall(app.host, 'jobs.count', {});
    expect(active).toBe(
      (await apiCall(app.host, 'jobs.list', { limit: 100, view: 'all' })).items.reduce(
        (n, j) => n + j.images.length,
        0,
      ),
    );
    await page
      .getByRole('tab', { name: /^All/ })
      .getByText(String(active), { exact: true })
      .waitFor({ timeout: 10_000 });
    await page.mouse.move(0, 0);
    await shootBoth('import', async () => {
      expect(await row.getByRole('status').textContent()).toBe(`Importing: ${HELD_AT} of ${IMPORT_TOTAL}`);
      expect(Number(await row.getByRole('progressbar').getAttribute('aria-valuenow'))).toBe(
        Math.round((HELD_AT / IMPORT_TOTAL) * 100),
      );
      expect(await row.getByRole('button', { name: 'Pause' }).isVisible()).toBe(true);
    });
    releaseImport();
    await row.getByText(`Done: ${IMPORT_TOTAL} imported`).waitFor({ timeout: 30_000 });
  }, 60_000);
});
