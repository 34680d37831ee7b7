/**
 * `npm run bench -- ui-list [jobs] [rows to scroll]`: the compact list view over a seeded library (100,000 jobs by
 * default), headless Chromium: first thumbnails, fling and reading-speed scroll, DOM nodes and heap after scroll.
 */
import { seedLargeLibrary } from '../test/fixtures/large-library.js';
import { buildRenderer, launchBrowser, rm, tempDir } from '../test/e2e/harness.js';
import { startServeProcess } from '../test/fixtures/serve-process.js';

/** One list row's height (LIST_ROW_HEIGHT in renderer/src/gallery/list-row.ts). */
const ROW = 56;

export async function run(args: string[]): Promise<void> {
  const total = Number(args[0] ?? 100_000);
  const scrollRows = Number(args[1] ?? 5_000);
  const dataDir = await tempDir('atelier-bench-ui-list-');
  const renderer = await buildRenderer();
  try {
    const seeding = Date.now();
    await seedLargeLibrary(dataDir, total, 300);
    console.error(`seeded ${total.toLocaleString('en')} jobs in ${Math.round((Date.now() - seeding) / 1000)} s`);
    const host = await startServeProcess(dataDir, renderer.dir);
    const browser = await launchBrowser({
      viewport: { width: 1440, height: 900 },
      extraArgs: ['--disable-dev-shm-usage', '--enable-precise-memory-info'],
    });
    try {
      const { page } = browser;
      // The person chose the list in an earlier session.
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
          'atelier.layout',
          'list',
        ),
      );
      const t0 = Date.now();
      await page.goto(host.url);
      await page.waitForFunction(
        () => {
          const img = (
            globalThis as unknown as {
              document: { querySelector(s: string): { complete: boolean; naturalWidth: number } | null };
            }
          ).document.querySelector('.list-canvas .list-thumb img');
          return img !== null && img.complete && img.naturalWidth > 0;
        },
        undefined,
        { timeout: 30_000, polling: 'raf' },
      );
      const firstPaintMs = Date.now() - t0;

      // A string, not a function: tsx would wrap named inner functions in a helper the page does not have.
      const scrollRun = async (rows: number, step: number) => {
        const result = (await page.evaluate(`(async () => {
          const el = document.querySelector('.list-scroll');
          const target = ${rows} * ${ROW};
          const frames = [];
          let last = performance.now();
          let travelled = 0;
          await new Promise((resolve) => {
            function tick(t) {
              frames.push(t - last);
              last = t;
              el.scrollTop += ${step};
              travelled += ${step};
              if (travelled >= target || frames.length > 30000) resolve();
              else requestAnimationFrame(tick);
            }
            requestAnimationFrame(tick);
          });
          return { frames, reached: el.scrollTop, rows: document.querySelectorAll('.list-row').length };
        })()`)) as { frames: number[]; reached: number; rows: number };
        const durations = result.frames.slice(1);
        const totalMs = durations.reduce((x, y) => x + y, 0);
        return {
          fps: (durations.length / totalMs) * 1000,
          dropped: durations.filter((d) => d > (1000 / 60) * 1.5).length / durations.length,
          reached: result.reached,
        };
      };
      console.error(`first thumbnails in ${firstPaintMs} ms; flinging`);
      const fling = await scrollRun(scrollRows, 400);
      const reading = await scrollRun(Math.min(600, scrollRows), 33);
      const domNodes = await page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { getElementsByTagName(s: string): { length: number } } }
          ).document.getElementsByTagName('*').length,
      );
      const heap = await page.evaluate(
        () =>
          (globalThis as unknown as { performance: { memory?: { usedJSHeapSize: number } } }).performance.memory
            ?.usedJSHeapSize ?? NaN,
      );
      const rowsOut = [
        ['first thumbnails painted', `${firstPaintMs} ms`, '< 1000 ms'],
        [
          `scroll ${scrollRows.toLocaleString('en')} rows, fling (400 px/frame)`,
          `${fling.fps.toFixed(1)} fps, ${(fling.dropped * 100).toFixed(1)}% dropped, reached ${fling.reached} px`,
          '55+ fps, < 5% dropped',
        ],
        [
          `scroll ${Math.min(600, scrollRows)} rows, reading speed (33 px/frame)`,
          `${reading.fps.toFixed(1)} fps, ${(reading.dropped * 100).toFixed(1)}% dropped`,
          '55+ fps, < 5% dropped',
        ],
        ['DOM nodes after scroll', String(domNodes), '< 1,500'],
        ['JS heap after scroll', `${(heap / 1024 / 1024).toFixed(1)} MB`, '< 150 MB'],
      ];
      console.log(
        `\nAtelier list view bench: ${total.toLocaleString('en')} jobs, 300 distinct images, Chromium headless\n`,
      );
      console.log('| measure | result | target |\n|---|---|---|');
      for (const [a, b, c] of rowsOut) console.log(`| ${a} | ${b} | ${c} |`);
    } finally {
      await browser.close();
      await host.stop();
    }
  } finally {
    await renderer.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}
