/** The settings a sheet carries: A1111's infotext with its X/Y/Z plot entries, and Atelier's sweep record. */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { parseParameters } from '../../../../electron/media/png/a1111-parameters.js';
import { readChunks } from '../../../../electron/media/png/chunks.js';
import { readTextChunks } from '../../../../electron/media/png/text-chunks.js';
import { renderSweepSheet } from '../../../../electron/library/export/sweep-sheet-render.js';
import { csvValues, sheetParameters } from '../../../../electron/library/export/sweep-sheet-metadata.js';
import { GREEN, imageId, job, solidPng, sweep } from './sweep-sheet-fixture.js';

const axes = sweep(
  [
    { field: 'guidance', values: ['3', '7'] },
    { field: 'loraWeight', lora: 'detail-tweaker', values: ['0.2', '1'] },
    { field: 'prompt', values: ['lighthouse', 'castle, at night'] },
  ],
  [],
);

describe('sheet metadata', () => {
  it('writes the base settings and the axes in the words of A1111’s X/Y/Z plot', () => {
    const parsed = parseParameters(sheetParameters(axes, '2.0.0'));
    expect(parsed).toMatchObject({ prompt: 'a lighthouse at dusk', steps: 20, sampler: 'euler', cfgScale: 7 });
    expect(parsed.params).toMatchObject({
      Seed: '42',
      Size: '512x512',
      Model: 'sdxl-base',
      Script: 'X/Y/Z plot',
      'X Type': 'CFG Scale',
      'X Values': '3, 7',
      'Y Type': 'LoRA weight (detail-tweaker)',
      'Y Values': '0.2, 1',
      'Z Type': 'Prompt S/R',
      'Z Values': 'lighthouse, "castle, at night"',
      Version: 'Atelier 2.0.0',
    });
  });

  it('quotes a value holding a comma or a quote as CSV', () => {
    expect(csvValues(['a', 'b, c', 'say "hi"'])).toBe('a, "b, c", "say ""hi"""');
  });

  it('embeds both chunks before the pixels, the sweep record naming each cell’s job', async () => {
    const detail = sweep(
      [{ field: 'steps', values: ['10', '20'] }],
      [
        { x: 0, y: 0, z: 0, job: job(1, 'succeeded', { width: 64, height: 64 }) },
        { x: 1, y: 0, z: 0, job: job(2, 'failed', null) },
      ],
    );
    const png = await solidPng(64, 64, GREEN);
    const sheet = await renderSweepSheet(detail, 0, { readImage: async () => png, appVersion: '2.0.0' });
    const chunks = readChunks(sheet.png);
    const firstData = chunks.findIndex((c) => c.type === 'IDAT');
    const texts = readTextChunks(chunks.slice(0, firstData));
    expect(texts.map((t) => t.keyword)).toEqual(['parameters', 'atelier-sweep']);
    expect(parseParameters(texts[0]!.text).params).toMatchObject({ 'X Type': 'Steps', 'X Values': '10, 20' });
    const record = JSON.parse(texts[1]!.text) as Record<string, unknown>;
    expect(record).toMatchObject({
      format: 'atelier-sweep/1',
      app: 'Atelier',
      version: '2.0.0',
      sweep: { id: detail.id, name: detail.name, createdAt: detail.createdAt },
      z: 0,
      pages: 1,
      axes: detail.axes,
      base: detail.base,
      cells: [
        { x: 0, y: 0, z: 0, jobId: job(1, 'succeeded', null).id, imageId: imageId(1), shown: 'image' },
        { x: 1, y: 0, z: 0, jobId: job(2, 'failed', null).id, imageId: null, shown: 'failed' },
      ],
    });
    // Still a PNG every reader opens.
    expect((await sharp(sheet.png).metadata()).format).toBe('png');
  });
});
