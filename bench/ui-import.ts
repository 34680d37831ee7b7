/**
 * `npm run bench -- ui-import [--files N] [--kb K]`: the gallery while a big import streams in. A headless host in
 * its own process on an empty library, Debian's Chromium on its page; an import of N generated PNGs (about K kB
 * each, every one distinct) starts, and the bench measures when the first imported image shows in the grid and how
 * smoothly the grid scrolls while the rest arrive and their thumbnails are made.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildRenderer, launchBrowser, rm, tempDir } from '../test/e2e/harness.js';
import { startServeProcess } from '../test/fixtures/serve-process.js';
import { a1111Parameters } from '../test/fixtures/images/tool-files.js';
import { insertChunks, tEXt } from '../test/unit/media/helpers.js';
import { hostApi } from './lib/host-api.js';
import { scrollFrames } from './lib/page-frames.js';

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? Number(args[at + 1]) : fallback;
}

/** One noisy PNG of about `kb` kB: noise does not compress, so the size is what the pixels weigh. */
async function basePng(kb: number): Promise<Uint8Array> {
  const side = Math.max(64, Math.round(Math.sqrt((kb * 1024) / 3)));
  const pixels = randomBytes(side * side * 3);
  return new Uint8Array(
    await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
}

export async function run(args: string[]): Promise<void> {
  const files = option(args, '--files', 3_000);
  const kb = option(args, '--kb', 1_024);
  const dataDir = await tempDir('atelier-bench-ui-import-');
  const source = await tempDir('atelier-bench-ui-import-src-');
  const renderer = await buildRenderer();
  try {
    const base = await basePng(kb);
    const t0 = performance.now();
    for (let i = 0; i < files; i += 1) {
      const dir = join(source, 'outputs', `day-${String(Math.floor(i / 500)).padStart(2, '0')}`);
      if (i % 500 === 0) await mkdir(dir, { recursive: true });
      await writeFile(
        join(dir, `${String(i).padStart(6, '0')}.png`),
        insertChunks(base, [tEXt('parameters', a1111Parameters(`a study of light number ${i}`, i))]),
      );
    }
    console.error(
      `generated ${files} files of ${Math.round(base.length / 1024)} kB in ${Math.round(performance.now() - t0)} ms`,
    );
    const host = await startServeProcess(dataDir, renderer.dir);
    const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      const { page } = browser;
      await page.goto(host.url);
      await page.getByText('Your gallery is empty').waitFor();
      const started = performance.now();
      const { import: summary } = (await hostApi(host, 'library.import', {
        paths: [join(source, 'outputs')],
      })) as { import: { id: string } };
      await page.locator('.grid-canvas .card').first().waitFor({ timeout: 30_000 });
      const firstCardMs = performance.now() - started;
      // Scroll while the import runs: first at reading speed (every row mounts its cards), then a fling.
      const reading = await scrollFrames(page, 8_000, 33);
      const fling = await scrollFrames(page, 5_000, 400);
      const during = (await hostApi(host, 'library.imports', {})) as {
        items: Array<{
          id: string;
          imported: number;
          found: number;
          duplicates: number;
          failed: number;
          skipped: number;
          status: string;
        }>;
      };
      const state = during.items.find((i) => i.id === summary.id)!;
      console.log(
        `\nAtelier UI during an import: ${files.toLocaleString('en')} PNGs of ~${kb} kB, Chromium headless, host in its own process\n`,
      );
      console.log('| measure | result | target |\n|---|---|---|');
      console.log(
        `| first imported image in the grid (from library.import) | ${Math.round(firstCardMs)} ms | < 1000 ms |`,
      );
      console.log(
        `| scroll at reading speed (33 px/frame) during the import | ${reading.fps.toFixed(1)} fps, ${(reading.dropped * 100).toFixed(1)}% dropped | 55+ fps |`,
      );
      console.log(
        `| fling (400 px/frame) during the import | ${fling.fps.toFixed(1)} fps, ${(fling.dropped * 100).toFixed(1)}% dropped | 55+ fps |`,
      );
      const counts = `${state.imported.toLocaleString('en')} imported, ${state.duplicates} duplicates, ${state.failed + state.skipped} not read, of ${state.found.toLocaleString('en')}`;
      console.log(
        `| the import when scrolling ended | ${counts} (${state.status}) | running: the scroll saw it stream |`,
      );
    } finally {
      await browser.close();
      await host.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(source, { recursive: true, force: true });
    await renderer.remove();
  }
}
