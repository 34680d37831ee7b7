/** A real sweep on the built-in provider, exported as a labelled sheet: into a folder, and kept for the headless download. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { readChunks } from '../../../electron/media/png/chunks.js';
import { readTextChunks } from '../../../electron/media/png/text-chunks.js';
import { parseParameters } from '../../../electron/media/png/a1111-parameters.js';
import { SHEETS_DIR } from '../../../electron/library/export/sweep-sheet-file.js';
import type { SweepSheetChunk } from '../../../electron/library/export/sweep-sheet-metadata.js';
import { startServer, type RunningServer } from '../../../electron/serve/server.js';
import type { SweepDetail } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { exportDone, readZip } from '../export/helpers.js';
import { startHarness, waitFor, waitForStatus, type Harness } from './harness.js';

const TOKEN = 'sheet-token-0123456789abcdefghijklmnopq';
const TERMINAL = ['succeeded', 'failed', 'cancelled', 'interrupted'];

let h: Harness | undefined;
let server: RunningServer | undefined;
const temps: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await h?.cleanup();
  h = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function chunksOf(png: Uint8Array): { parameters: string; record: SweepSheetChunk } {
  const texts = readTextChunks(readChunks(png));
  return {
    parameters: texts.find((t) => t.keyword === 'parameters')!.text,
    record: JSON.parse(texts.find((t) => t.keyword === 'atelier-sweep')!.text) as SweepSheetChunk,
  };
}

/** A 2 × 2 × 2 sweep of the built-in provider, every cell finished. */
async function finishedSweep(harness: Harness): Promise<SweepDetail> {
  const { sweep } = await harness.engine.handlers['sweeps.start']({
    base: { provider: 'builtin', prompt: 'a red fox in deep snow', width: 64, height: 96, count: 1, steps: 2 },
    axes: [
      { field: 'steps', values: '1, 2' },
      { field: 'guidance', values: '5, 9' },
      { field: 'seed', values: '11, 12' },
    ],
    name: 'Fox <steps> & "CFG"',
  });
  return waitFor(async () => {
    const detail = await harness.engine.handlers['sweeps.get']({ id: sweep.id });
    return detail.cells.every((c) => c.job !== null && TERMINAL.includes(c.job.status)) ? detail : undefined;
  }, 30_000);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('sweeps.sheet on a real sweep', () => {
  it('writes a page into a folder under the sweep’s name, never over a file, with its settings and cells embedded', async () => {
    h = await startHarness({ providers: undefined });
    const detail = await finishedSweep(h);
    expect(detail.cells.every((c) => c.job?.status === 'succeeded')).toBe(true);
    const folder = mkdtempSync(join(tmpdir(), 'atelier-sheet-folder-'));
    temps.push(folder);

    const first = await h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 1, folder });
    const again = await h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 1, folder });
    expect(first.path).toBe(join(folder, 'Fox -steps- & -CFG-z2.png'));
    expect(again.path).toBe(join(folder, 'Fox -steps- & -CFG-z2-2.png'));
    expect(first.download).toBeUndefined();

    const png = readFileSync(first.path!);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', first.width, first.height]);
    const { parameters, record } = chunksOf(png);
    expect(parseParameters(parameters).params).toMatchObject({
      'X Type': 'Steps',
      'X Values': '1, 2',
      'Y Type': 'CFG Scale',
      'Y Values': '5, 9',
      'Z Type': 'Seed',
      'Z Values': '11, 12',
    });
    expect(record).toMatchObject({ z: 1, pages: 2, sweep: { id: detail.id, name: 'Fox <steps> & "CFG"' } });
    const page = detail.cells.filter((c) => c.z === 1);
    expect(record.cells.map((c) => [c.x, c.y, c.jobId, c.imageId, c.shown])).toEqual(
      page.map((c) => [c.x, c.y, c.job!.id, c.job!.images[0]!.id, 'image']),
    );
  }, 60_000);

  it('refuses a page past the last, an unknown sweep, and a folder missing or inside the library', async () => {
    h = await startHarness({ providers: undefined });
    const detail = await finishedSweep(h);
    const past = await rejection(h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 2 }));
    expect(past.code).toBe('invalid_request');
    expect(past.message).toContain('2 pages');
    const unknown = await rejection(
      h.engine.handlers['sweeps.sheet']({ id: '0190c000-0000-7000-8000-0000000000ff', z: 0 }),
    );
    expect(unknown.code).toBe('not_found');
    // A folder that is not there, and Atelier's own data folder, are refused before anything is drawn.
    const absent = await rejection(
      h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 0, folder: join(h.dataDir, 'no-such-folder') }),
    );
    expect(absent.code).toBe('invalid_request');
    const own = await rejection(
      h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 0, folder: join(h.dataDir, 'library') }),
    );
    expect(own.message).toContain("inside Atelier's own data folder");
  }, 60_000);

  it('keeps a page for the headless host, which serves it only with the token, as a PNG download', async () => {
    h = await startHarness({ providers: undefined });
    const detail = await finishedSweep(h);
    const sheet = await h.engine.handlers['sweeps.sheet']({ id: detail.id, z: 0 });
    expect(sheet.path).toBeUndefined();
    expect(sheet.download).toMatch(/^\/api\/sweep-sheet\/fox-steps-cfg-z1-[0-9a-f]{12}\.png$/);
    const kept = readFileSync(join(h.dataDir, SHEETS_DIR, sheet.download!.split('/').pop()!));

    const rendererDir = join(h.dataDir, 'renderer-build');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Atelier</title>');
    server = await startServer({ engine: h.engine, rendererDir, token: TOKEN });
    const base = `http://127.0.0.1:${server.port}`;
    const auth = { authorization: `Bearer ${TOKEN}` };

    expect((await fetch(`${base}${sheet.download}`)).status).toBe(401);
    const response = await fetch(`${base}${sheet.download}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="fox-steps-cfg-z1.png"');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(kept)).toBe(true);
    expect(chunksOf(body).record.z).toBe(0);

    for (const name of ['nope-z1-0000000000aa.png', '..%2Fatelier.db', 'x.png']) {
      const missing = await fetch(`${base}/api/sweep-sheet/${name}`, { headers: auth });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    }
  }, 60_000);

  it('exports the sweep’s cells, and nothing else, as a ZIP of their originals (the search sweep:<id>)', async () => {
    h = await startHarness({ providers: undefined });
    const other = await h.engine.handlers['jobs.submit']({
      provider: 'builtin',
      prompt: 'not in the sweep',
      width: 64,
      height: 64,
      count: 1,
    });
    await waitForStatus(h.engine, other.job.id, ['succeeded'], 30_000);
    const detail = await finishedSweep(h);
    const folder = mkdtempSync(join(tmpdir(), 'atelier-sheet-zip-'));
    temps.push(folder);
    const { export: started } = await h.engine.handlers['export.start']({
      target: { query: { view: 'active', search: `sweep:${detail.id}` } },
      format: 'zip',
      folder,
      manifest: 'none',
    });
    const done = await exportDone(h.engine, started.id);
    expect(done.status).toBe('completed');
    const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
    const cells = detail.cells.map((c) =>
      sha(readFileSync(h!.engine.resolveMedia('image', c.job!.images[0]!.id)!.path)),
    );
    expect(new Set(readZip(done.path!).map((e) => sha(e.data)))).toEqual(new Set(cells));
  }, 60_000);
});
