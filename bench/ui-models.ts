/**
 * The Models screen in Chromium: `npm run bench -- ui-models [--models 2000] [--jobs 20000] [--runs 5]`.
 * Seeds a library over `--models` checkpoints and LoRAs (bench/lib/model-library-seed.ts, with real thumbnail files),
 * a fake A1111 listing every one, the headless host in its own process; then times M → the screen listing every entry
 * with the previews in view painted (first opening, and again), and scrolling the whole list at a fling and at
 * reading speed. Target: < 300 ms to the list with its previews; scrolling 55+ fps.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { buildRenderer, launchBrowser, rm, tempDir } from '../test/e2e/harness.js';
import { startFakeA1111 } from '../test/fakes/a1111.js';
import { startServeProcess } from '../test/fixtures/serve-process.js';
import { openStore } from '../electron/db/store.js';
import { frameStats, formatFrames, percentile } from './lib/frame-stats.js';
import { hostApi } from './lib/host-api.js';
import { seedModelLibrary, seededServerLists } from './lib/model-library-seed.js';
import { printTable } from './lib/text-table.js';

const TARGET_MS = 300;
const TARGET_FPS = 55;
/** Distinct thumbnails the seeded images share (each a real WebP the host serves). */
const THUMBS = 64;
/** Past the background fetch's delay and idle wait (renderer/src/models/ModelsNavLink.tsx). */
const SETTLE_MS = 5_000;

function flag(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? Math.trunc(value) : fallback;
}

/** Gives every seeded image one of THUMBS real thumbnails, so a preview is a picture to fetch, decode and paint. */
async function writeThumbnails(dataDir: string): Promise<void> {
  mkdirSync(join(dataDir, 'thumbs', 'bench'), { recursive: true });
  for (let k = 0; k < THUMBS; k++) {
    const hue = (k * 47) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="384" height="384"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},50%,25%)"/></linearGradient></defs><rect width="384" height="384" fill="url(#g)"/><circle cx="${100 + k * 3}" cy="140" r="${40 + (k % 5) * 8}" fill="hsl(${(hue + 180) % 360},70%,80%)"/></svg>`;
    await sharp(Buffer.from(svg))
      .webp({ quality: 80 })
      .toFile(join(dataDir, 'thumbs', 'bench', `${k}.webp`));
  }
  const db = new Database(join(dataDir, 'atelier.db'));
  db.prepare(`UPDATE images SET thumb_path = 'thumbs/bench/' || (rowid % ${THUMBS}) || '.webp'`).run();
  db.close();
}

/** The fake server's lists: every seeded checkpoint with its sha256, every LoRA with training metadata. */
// Strings, not functions: tsx would wrap named inner functions in a helper the page does not have.
const OPEN_AND_WAIT = `(async () => {
  const t0 = performance.now();
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'm', bubbles: true }));
  const ready = () => {
    const head = document.querySelector('.models-head');
    const scroll = document.querySelector('.models-scroll');
    if (head === null || scroll === null || !/ENTRIES/.test(head.textContent.toUpperCase())) return null;
    const box = scroll.getBoundingClientRect();
    const inView = [...scroll.querySelectorAll('.model-card')].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    if (inView.length === 0) return null;
    const imgs = inView.map((c) => c.querySelector('img')).filter((i) => i !== null);
    if (!imgs.every((i) => i.complete && i.naturalWidth > 0)) return null;
    return { cards: inView.length, previews: imgs.length, text: head.querySelector('.muted').textContent };
  };
  return await new Promise((resolve) => {
    const tick = () => {
      const done = ready();
      if (done !== null) resolve({ ms: performance.now() - t0, ...done });
      else if (performance.now() - t0 > 30000) resolve({ ms: NaN, cards: 0, previews: 0, text: 'timed out' });
      else requestAnimationFrame(tick);
    };
    tick();
  });
})()`;

const CLOSE = `(async () => {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'm', bubbles: true }));
  await new Promise((resolve) => { const tick = () => document.querySelector('.models-screen') === null ? resolve(null) : requestAnimationFrame(tick); tick(); });
})()`;

const scrollScript = (step: number, maxFrames: number) => `(async () => {
  const el = document.querySelector('.models-scroll');
  el.scrollTop = 0;
  const frames = [];
  let last = performance.now();
  await new Promise((resolve) => {
    const tick = (t) => {
      frames.push(t - last);
      last = t;
      el.scrollTop += ${step};
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1 || frames.length >= ${maxFrames}) resolve(null);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return { frames: frames.slice(2), reached: el.scrollTop, height: el.scrollHeight, dom: document.getElementsByTagName('*').length };
})()`;

interface Opened {
  ms: number;
  cards: number;
  previews: number;
  text: string;
}

export async function run(args: string[]): Promise<void> {
  const models = flag(args, 'models', 2_000);
  const jobs = flag(args, 'jobs', 20_000);
  const runs = flag(args, 'runs', 5);
  const checkpoints = Math.ceil(models / 2);
  const loras = models - checkpoints;
  const dataDir = await tempDir('atelier-bench-ui-models-');
  const renderer = await buildRenderer();
  const fake = await startFakeA1111({ library: seededServerLists(checkpoints, loras) });
  try {
    openStore({ dataDir }).close();
    seedModelLibrary(join(dataDir, 'atelier.db'), { jobs, checkpoints, loras, now: Date.now() });
    await writeThumbnails(dataDir);
    console.error(`seeded ${jobs.toLocaleString('en')} jobs over ${models.toLocaleString('en')} models and LoRAs`);
    const host = await startServeProcess(dataDir, renderer.dir);
    const browser = await launchBrowser({
      viewport: { width: 1440, height: 900 },
      extraArgs: ['--disable-dev-shm-usage'],
    });
    try {
      await hostApi(host, 'settings.update', { providers: { a1111: { enabled: true, baseUrl: fake.url } } });
      const refreshed = await hostApi<{ models: number }>(host, 'models.refresh', {});
      const { page } = browser;
      const start = async () => {
        await page.goto(host.url);
        await page.locator('.card img').first().waitFor({ timeout: 60_000 });
      };
      // M as soon as the gallery shows: the library is asked for on opening (cold in the engine too).
      await start();
      const first = (await page.evaluate(OPEN_AND_WAIT)) as Opened;
      // M once the page has settled: the library was fetched in the background (ModelsNavLink.tsx).
      await start();
      await page.waitForTimeout(SETTLE_MS);
      const settled = (await page.evaluate(OPEN_AND_WAIT)) as Opened;
      const again: Opened[] = [];
      for (let i = 0; i < runs; i++) {
        await page.evaluate(CLOSE);
        again.push((await page.evaluate(OPEN_AND_WAIT)) as Opened);
      }
      const fling = (await page.evaluate(scrollScript(400, 2_000))) as {
        frames: number[];
        reached: number;
        height: number;
        dom: number;
      };
      const reading = (await page.evaluate(scrollScript(33, 600))) as {
        frames: number[];
        reached: number;
        height: number;
        dom: number;
      };
      const againMs = again.map((o) => o.ms);
      const flingStats = frameStats(fling.frames);
      const readingStats = frameStats(reading.frames);
      const met = (ok: boolean) => (ok ? 'yes' : 'NO');
      printTable(
        `Models screen, ${first.text.trim()} (${refreshed.models.toLocaleString('en')} files listed by the fake A1111), ${jobs.toLocaleString('en')} jobs, Chromium headless 1440×900`,
        ['measure', 'result', 'target', 'met'],
        [
          [
            'M as the gallery first shows → every entry listed, previews in view painted',
            `${first.ms.toFixed(0)} ms (${first.cards} cards, ${first.previews} previews in view)`,
            `(cold engine)`,
            '—',
          ],
          [
            'M once the page has settled (library fetched at idle) → the same',
            `${settled.ms.toFixed(0)} ms (${settled.cards} cards, ${settled.previews} previews in view)`,
            `< ${TARGET_MS} ms`,
            met(settled.ms < TARGET_MS),
          ],
          [
            `the same, opened again (p50 / worst of ${againMs.length})`,
            againMs.length === 0
              ? '—'
              : `${percentile(againMs, 50).toFixed(0)} / ${Math.max(...againMs).toFixed(0)} ms`,
            `< ${TARGET_MS} ms`,
            met(againMs.every((ms) => ms < TARGET_MS)),
          ],
          [
            `scroll the whole list, fling (400 px/frame, reached ${fling.reached} of ${fling.height} px)`,
            formatFrames(flingStats),
            `${TARGET_FPS}+ fps`,
            met(flingStats.medianFps >= TARGET_FPS),
          ],
          [
            'scroll at reading speed (33 px/frame)',
            formatFrames(readingStats),
            `${TARGET_FPS}+ fps`,
            met(readingStats.medianFps >= TARGET_FPS),
          ],
          ['DOM nodes after scrolling', String(reading.dom), '< 3,000', met(reading.dom < 3_000)],
        ],
      );
    } finally {
      await browser.close();
      await host.stop();
    }
  } finally {
    await fake.close();
    await renderer.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}
