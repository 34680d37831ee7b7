/**
 * `npm run bench -- ui-reread [--files N]`: the gallery while the background re-read runs after an upgrade. N small
 * generated PNGs (A1111 text, each distinct) are imported into a headless host in its own process; the library is
 * then set back to version-1 reads (what an older Atelier left) and the host restarted, so every file is read again
 * in the background while Debian's Chromium scrolls the grid. It prints the frame rate during the re-read and how
 * fast the re-read went.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
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

interface Reread {
  state: string;
  left: number;
  imported: number;
  done: number;
  failed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function run(args: string[]): Promise<void> {
  const files = option(args, '--files', 100_000);
  const same = args.includes('--same');
  const dataDir = await tempDir('atelier-bench-reread-');
  const source = await tempDir('atelier-bench-reread-src-');
  const renderer = await buildRenderer();
  try {
    const base = new Uint8Array(
      await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 90, g: 110, b: 140 } } })
        .png()
        .toBuffer(),
    );
    let t0 = performance.now();
    for (let i = 0; i < files; i += 1) {
      const dir = join(source, 'outputs', `day-${String(Math.floor(i / 1000)).padStart(3, '0')}`);
      if (i % 1000 === 0) await mkdir(dir, { recursive: true });
      await writeFile(
        join(dir, `${String(i).padStart(6, '0')}.png`),
        insertChunks(base, [tEXt('parameters', a1111Parameters(`a study of light number ${i}`, i))]),
      );
    }
    console.error(`generated ${files} files in ${Math.round(performance.now() - t0)} ms`);

    let host = await startServeProcess(dataDir, renderer.dir);
    t0 = performance.now();
    const { import: started } = await hostApi<{ import: { id: string } }>(host, 'library.import', {
      paths: [join(source, 'outputs')],
    });
    for (;;) {
      const { items } = await hostApi<{ items: Array<{ id: string; status: string; imported: number }> }>(
        host,
        'library.imports',
        {},
      );
      const item = items.find((i) => i.id === started.id)!;
      if (item.status !== 'running') break;
      await sleep(1_000);
    }
    const importMs = performance.now() - t0;
    console.error(`imported in ${Math.round(importMs / 1000)} s`);
    // The same scrolls with nothing running in the background: the re-read's cost is the difference.
    const quiet = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    let baseline: {
      reading: Awaited<ReturnType<typeof scrollFrames>>;
      fling: Awaited<ReturnType<typeof scrollFrames>>;
    };
    try {
      await quiet.page.goto(host.url);
      await quiet.page.locator('.grid-canvas .card').first().waitFor({ timeout: 60_000 });
      baseline = {
        reading: await scrollFrames(quiet.page, 8_000, 33),
        fling: await scrollFrames(quiet.page, 5_000, 400),
      };
    } finally {
      await quiet.close();
    }
    await host.stop();

    // What an older Atelier left: every imported job read by version 1, and (unless --same) read differently than
    // the readers read it now, so every file is rewritten and announced: the worst case for the grid.
    const db = new Database(join(dataDir, 'atelier.db'));
    const aged = db
      .prepare(
        same
          ? 'UPDATE jobs SET reader_version = 1 WHERE reader_version IS NOT NULL'
          : `UPDATE jobs SET reader_version = 1, request_json = json_set(request_json, '$.steps', 1)
             WHERE reader_version IS NOT NULL`,
      )
      .run().changes;
    db.close();

    host = await startServeProcess(dataDir, renderer.dir);
    const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      const { page } = browser;
      await page.goto(host.url);
      await page.locator('.grid-canvas .card').first().waitFor({ timeout: 60_000 });
      // The re-read starts with the start-up passes, a few seconds after the first page.
      for (;;) {
        const status = await hostApi<Reread>(host, 'library.rereadStatus', {});
        if (status.state === 'running' || status.left === 0) break;
        await sleep(250);
      }
      const before = await hostApi<Reread>(host, 'library.rereadStatus', {});
      const t1 = performance.now();
      const reading = await scrollFrames(page, 8_000, 33);
      const fling = await scrollFrames(page, 5_000, 400);
      const after = await hostApi<Reread>(host, 'library.rereadStatus', {});
      const rate = ((after.done - before.done) / (performance.now() - t1)) * 1000;
      const kind = same ? 'each reading as before' : 'each reading differently, so rewritten and announced';
      console.log(
        `\nAtelier UI during the re-read of ${aged.toLocaleString('en')} imported files (A1111 PNGs, ${kind}), Chromium headless, host in its own process\n`,
      );
      const frames = (run: Awaited<ReturnType<typeof scrollFrames>>) =>
        `${run.fps.toFixed(1)} fps, ${(run.dropped * 100).toFixed(1)}% dropped`;
      console.log('| measure | nothing in the background | during the re-read | during / before | target |');
      console.log('|---|---|---|---|---|');
      console.log(
        `| scroll at reading speed (33 px/frame) | ${frames(baseline.reading)} | ${frames(reading)} | ${(reading.fps / baseline.reading.fps).toFixed(2)} | 55+ fps |`,
      );
      console.log(
        `| fling (400 px/frame) | ${frames(baseline.fling)} | ${frames(fling)} | ${(fling.fps / baseline.fling.fps).toFixed(2)} | 55+ fps |`,
      );
      console.log('\n| measure | result | target |\n|---|---|---|');
      console.log(`| re-read rate while scrolling | ${rate.toFixed(0)} files/s | background, no target |`);
      console.log(
        `| the re-read when scrolling ended | ${after.done.toLocaleString('en')} re-read, ${after.failed} not read, ${after.left.toLocaleString('en')} to go (${after.state}) | running: the scroll saw it |`,
      );
      console.log(
        `| the import before (for scale) | ${files.toLocaleString('en')} files in ${(importMs / 1000).toFixed(0)} s | — |`,
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
