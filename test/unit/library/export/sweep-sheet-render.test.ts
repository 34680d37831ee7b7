/** A sweep's page drawn from real PNGs: cells fitted and letterboxed, empty cells named, labels really drawn. */
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readChunks } from '../../../../electron/media/png/chunks.js';
import { readTextChunks } from '../../../../electron/media/png/text-chunks.js';
import { baseSettingsLine, renderSweepSheet } from '../../../../electron/library/export/sweep-sheet-render.js';
import type { Rect } from '../../../../electron/library/export/sweep-sheet-layout.js';
import { MAX_SHEET_PIXELS, MAX_SHEET_SIDE } from '../../../../electron/library/export/sweep-sheet-layout.js';
import { SHEET_COLOURS } from '../../../../electron/library/export/sweep-sheet-labels.js';
import type { SweepSheetChunk } from '../../../../electron/library/export/sweep-sheet-metadata.js';
import { BLUE, GREEN, RED, imageId, job, solidPng, sweep } from './sweep-sheet-fixture.js';

interface Pixels {
  data: Buffer;
  width: number;
  channels: number;
}

async function pixels(png: Uint8Array): Promise<Pixels> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, channels: info.channels };
}

function at(p: Pixels, x: number, y: number): { r: number; g: number; b: number } {
  const i = (Math.round(y) * p.width + Math.round(x)) * p.channels;
  return { r: p.data[i]!, g: p.data[i + 1]!, b: p.data[i + 2]! };
}

const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }): boolean =>
  Math.abs(a.r - b.r) <= 6 && Math.abs(a.g - b.g) <= 6 && Math.abs(a.b - b.b) <= 6;

const rgb = (hex: string) => ({
  r: parseInt(hex.slice(1, 3), 16),
  g: parseInt(hex.slice(3, 5), 16),
  b: parseInt(hex.slice(5, 7), 16),
});

/** How many pixels inside the rect pass the test. */
function count(p: Pixels, rect: Rect, test: (c: { r: number; g: number; b: number }) => boolean): number {
  let n = 0;
  for (let y = rect.top; y < rect.top + rect.height; y += 1)
    for (let x = rect.left; x < rect.left + rect.width; x += 1) if (test(at(p, x, y))) n += 1;
  return n;
}

const light = (c: { r: number; g: number; b: number }): boolean => c.r > 150 && c.g > 150 && c.b > 150;
const alert = (c: { r: number; g: number; b: number }): boolean => c.r > 180 && c.g < 170 && c.b < 170;

function chunkOf(png: Uint8Array): SweepSheetChunk {
  const text = readTextChunks(readChunks(png)).find((t) => t.keyword === 'atelier-sweep');
  return JSON.parse(text!.text) as SweepSheetChunk;
}

describe('renderSweepSheet', () => {
  it('fits each picture into its box at its aspect, names failed and missing cells, and draws the labels', async () => {
    const bytes = new Map([
      [imageId(1), await solidPng(512, 512, RED)],
      [imageId(2), await solidPng(768, 512, GREEN)],
      [imageId(3), await solidPng(512, 768, BLUE)],
    ]);
    const detail = sweep(
      [
        { field: 'guidance', values: ['3', '7', '12'] },
        { field: 'loraWeight', lora: 'detail-tweaker', values: ['0.2', '1.0'] },
      ],
      [
        { x: 0, y: 0, z: 0, job: job(1, 'succeeded', { width: 512, height: 512 }) },
        { x: 1, y: 0, z: 0, job: job(2, 'succeeded', { width: 768, height: 512 }) },
        { x: 2, y: 0, z: 0, job: job(3, 'succeeded', { width: 512, height: 768 }) },
        { x: 0, y: 1, z: 0, job: job(4, 'failed', null) },
        { x: 1, y: 1, z: 0, job: null },
        // Its original is gone from the disk: drawn as missing.
        { x: 2, y: 1, z: 0, job: job(6, 'succeeded', { width: 512, height: 512 }) },
      ],
    );
    const sheet = await renderSweepSheet(detail, 0, {
      readImage: async (id) => bytes.get(id) ?? null,
      appVersion: '9.9.9',
    });
    const meta = await sharp(sheet.png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', sheet.width, sheet.height]);
    const p = await pixels(sheet.png);
    const { cells } = sheet.layout;
    const centre = (r: Rect) => at(p, r.left + r.width / 2, r.top + r.height / 2);
    const box = rgb(SHEET_COLOURS.letterbox);

    // Square box (the first picture's aspect): the square fills it, the wide one is letterboxed above and below, the tall one at the sides.
    const [square, wide, tall] = cells[0]!;
    expect(square!.width).toBe(square!.height);
    expect(near(centre(square!), RED)).toBe(true);
    expect(near(at(p, square!.left + 2, square!.top + 2), RED)).toBe(true);
    expect(near(centre(wide!), GREEN)).toBe(true);
    expect(near(at(p, wide!.left + wide!.width / 2, wide!.top + 3), box)).toBe(true);
    expect(near(at(p, wide!.left + 3, wide!.top + wide!.height / 2), GREEN)).toBe(true);
    expect(near(centre(tall!), BLUE)).toBe(true);
    expect(near(at(p, tall!.left + 3, tall!.top + tall!.height / 2), box)).toBe(true);
    expect(near(at(p, tall!.left + tall!.width / 2, tall!.top + 3), BLUE)).toBe(true);

    // "failed" in the alert colour; "missing" in the muted one, never the alert.
    const [failed, gone, unread] = cells[1]!;
    expect(count(p, failed!, alert)).toBeGreaterThan(20);
    for (const cell of [gone!, unread!]) {
      expect(count(p, cell, alert)).toBe(0);
      expect(count(p, cell, (c) => c.r > 120 && c.r < 200 && Math.abs(c.r - c.b) < 30)).toBeGreaterThan(20);
    }

    // Labels are drawn: light text in each header, and nothing light in an unlabelled gap.
    for (const rect of [...sheet.layout.xHeaders, sheet.layout.title, sheet.layout.xField, sheet.layout.yField])
      expect(count(p, rect, light)).toBeGreaterThan(10);
    for (const rect of sheet.layout.yHeaders) expect(count(p, rect, light)).toBeGreaterThan(10);
    const gap: Rect = { left: 0, top: 0, width: 3, height: sheet.height };
    expect(count(p, gap, light)).toBe(0);

    expect(chunkOf(sheet.png).cells.map((c) => c.shown)).toEqual([
      'image',
      'image',
      'image',
      'failed',
      'missing',
      'missing',
    ]);
  });

  it('draws one Z page: only that page’s cells, and the page named in the record', async () => {
    const red = await solidPng(64, 64, RED);
    const blue = await solidPng(64, 64, BLUE);
    const detail = sweep(
      [
        { field: 'steps', values: ['10', '20'] },
        { field: 'sampler', values: ['euler'] },
        { field: 'model', values: ['a', 'b'] },
      ],
      [
        { x: 0, y: 0, z: 0, job: job(1, 'succeeded', { width: 64, height: 64 }) },
        { x: 1, y: 0, z: 0, job: job(2, 'succeeded', { width: 64, height: 64 }) },
        { x: 0, y: 0, z: 1, job: job(3, 'succeeded', { width: 64, height: 64 }) },
        { x: 1, y: 0, z: 1, job: job(4, 'running', null) },
      ],
    );
    const sheet = await renderSweepSheet(detail, 1, {
      readImage: async (id) => (id === imageId(3) ? blue : red),
      appVersion: '1',
    });
    const p = await pixels(sheet.png);
    const [first, second] = sheet.layout.cells[0]!;
    expect(near(at(p, first!.left + first!.width / 2, first!.top + first!.height / 2), BLUE)).toBe(true);
    expect(count(p, second!, (c) => near(c, RED) || near(c, BLUE))).toBe(0);
    const chunk = chunkOf(sheet.png);
    expect(chunk).toMatchObject({ z: 1, pages: 2 });
    expect(chunk.cells.map((c) => [c.jobId, c.shown])).toEqual([
      [job(3, 'succeeded', null).id, 'image'],
      [job(4, 'running', null).id, 'pending'],
    ]);
  });

  it('keeps a big grid within the sheet size cap by drawing smaller cells', async () => {
    const big = await solidPng(512, 512, GREEN);
    const columns = 20;
    const rows = 2;
    const cells: Parameters<typeof sweep>[1] = [];
    for (let y = 0; y < rows; y += 1)
      for (let x = 0; x < columns; x += 1)
        cells.push({ x, y, z: 0, job: job(y * columns + x, 'succeeded', { width: 512, height: 512 }) });
    const detail = sweep(
      [
        { field: 'seed', values: Array.from({ length: columns }, (_, i) => String(i)) },
        { field: 'guidance', values: Array.from({ length: rows }, (_, i) => String(i)) },
      ],
      cells,
    );
    const sheet = await renderSweepSheet(detail, 0, { readImage: async () => big, appVersion: '1' });
    expect(sheet.width).toBeLessThanOrEqual(MAX_SHEET_SIDE);
    expect(sheet.height).toBeLessThanOrEqual(MAX_SHEET_SIDE);
    expect(sheet.width * sheet.height).toBeLessThanOrEqual(MAX_SHEET_PIXELS);
    const last = sheet.layout.cells[rows - 1]![columns - 1]!;
    expect(last.width).toBeLessThan(512);
    const p = await pixels(sheet.png);
    expect(near(at(p, last.left + last.width / 2, last.top + last.height / 2), GREEN)).toBe(true);
  }, 60_000);

  it('makes a valid sheet whatever the names and values say, recording them exactly', async () => {
    const tiny = await solidPng(64, 48, RED);
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constantFrom('<script>&amp;"\'</svg>', ']]><!--', '\u0000\u0008\ufffe\ud800', 'x'.repeat(5_000)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: hostile,
          values: fc.array(hostile, { minLength: 1, maxLength: 3 }),
          row: hostile,
          prompt: hostile,
          lora: hostile,
        }),
        async ({ name, values, row, prompt, lora }) => {
          const detail = sweep(
            [
              { field: 'prompt', values },
              { field: 'loraWeight', lora, values: [row] },
            ],
            values.map((_, x) => ({ x, y: 0, z: 0, job: job(x, 'succeeded', { width: 64, height: 48 }) })),
            { name },
          );
          detail.base = { ...detail.base, prompt: prompt === '' ? 'p' : prompt, model: lora };
          const sheet = await renderSweepSheet(detail, 0, { readImage: async () => tiny, appVersion: '1' });
          const meta = await sharp(sheet.png).metadata();
          expect(meta.width).toBe(sheet.width);
          const chunk = chunkOf(sheet.png);
          expect(chunk.sweep.name).toBe(name);
          expect(chunk.axes[0]!.values).toEqual(values);
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it('sums up the base settings on one line, leaving what an axis varies to its header', () => {
    const { base } = sweep([], []);
    expect(baseSettingsLine(base)).toBe(
      'a lighthouse at dusk · sdxl-base · 20 steps · CFG 7 · euler · seed 42 · 512×512 · LoRA detail-tweaker 0.5 · builtin',
    );
    expect(
      baseSettingsLine(base, [
        { field: 'steps', values: ['1'] },
        { field: 'loraWeight', lora: 'detail-tweaker', values: ['1'] },
        { field: 'size', values: ['64x64'] },
      ]),
    ).toBe('a lighthouse at dusk · sdxl-base · CFG 7 · euler · seed 42 · LoRA detail-tweaker · builtin');
  });
});
