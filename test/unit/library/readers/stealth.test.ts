import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { readStealth } from '../../../../electron/library/readers/stealth.js';
import { stealthPng } from '../../../fixtures/images/stealth-pixels.js';
import { insertChunks, tEXt } from '../../media/helpers.js';

const INFOTEXT =
  'a paper crane, <lora:origami:0.7>\nNegative prompt: text\nSteps: 24, Sampler: Euler a, CFG scale: 5, Seed: 99, Size: 64x48, Model: animagine';

describe('A1111 stealth reader', () => {
  for (const mode of ['alpha', 'rgb'] as const) {
    for (const gzip of [false, true]) {
      it(`reads ${gzip ? 'gzip' : 'plain'} settings hidden in the ${mode} lowest bits`, async () => {
        const png = await stealthPng(INFOTEXT, { mode, gzip });
        const read = await readImageMetadata(png);
        expect(read.source).toBe('a1111');
        expect(read.settings).toEqual({
          prompt: 'a paper crane, <lora:origami:0.7>',
          negativePrompt: 'text',
          steps: 24,
          sampler: 'Euler a',
          guidance: 5,
          seed: '99',
          width: 64,
          height: 48,
          model: 'animagine',
          loras: [{ name: 'origami', weight: 0.7 }],
        });
        expect(read.raw).toEqual([{ key: 'stealth', text: INFOTEXT }]);
      });
    }
  }

  it('survives a lossless WebP re-encode (sites that strip chunks)', async () => {
    const webp = new Uint8Array(
      await sharp(await stealthPng(INFOTEXT, { mode: 'alpha', gzip: true }))
        .webp({ lossless: true, exact: true })
        .toBuffer(),
    );
    const read = await readImageMetadata(webp);
    expect(read.format).toBe('webp');
    expect(read.settings.prompt).toBe('a paper crane, <lora:origami:0.7>');
  });

  it('reads NovelAI settings hidden as JSON', async () => {
    const hidden = JSON.stringify({
      Software: 'NovelAI',
      Description: 'a lantern',
      Comment: JSON.stringify({ steps: 28, seed: 5 }),
    });
    const read = await readImageMetadata(await stealthPng(hidden, { mode: 'alpha', gzip: true }));
    expect(read.source).toBe('novelai');
    expect(read.settings).toEqual({ prompt: 'a lantern', steps: 28, seed: '5' });
  });

  it('is not tried when the chunks already say what made the image', async () => {
    const png = insertChunks(await stealthPng(INFOTEXT, { mode: 'alpha', gzip: false }), [
      tEXt('parameters', 'chunk prompt\nSteps: 5, Seed: 1, Sampler: Euler'),
    ]);
    const read = await readImageMetadata(png);
    expect(read.settings.prompt).toBe('chunk prompt');
    expect(read.raw.map((r) => r.key)).toEqual(['parameters']);
  });

  it('refuses a length that is larger than the image holds, and finds nothing in plain pixels', async () => {
    const png = await stealthPng('x', { mode: 'alpha', gzip: false, width: 16, height: 16 });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    // Bit 128 of the stream is bit 23 of the 32-bit length: claim 2^23 + 8 bits, far more than 256 pixels hold.
    const p = 128;
    const at = ((p % info.height) * info.width + Math.floor(p / info.height)) * 4 + 3;
    data[at] = data[at]! | 1;
    const lying = new Uint8Array(
      await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
        .png()
        .toBuffer(),
    );
    expect(await readStealth(lying)).toEqual({
      problems: [expect.stringMatching(/claim 8388616 bits, more than the image holds/)],
    });
    const plain = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 4, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    expect(await readStealth(plain)).toEqual({ problems: [] });
  });
});

describe('stealth in real files', () => {
  it('a NovelAI V4.5 WebP hides the same settings in its alpha channel as in its EXIF (test/fixtures/real/novelai)', async () => {
    const webp = readFileSync(new URL('../../../fixtures/real/novelai/novelai-curated.webp', import.meta.url));
    const hidden = await readStealth(new Uint8Array(webp));
    expect(hidden.problems).toEqual([]);
    const json = JSON.parse(hidden.text!) as { Software: string; Comment: string };
    expect(json.Software).toBe('NovelAI');
    expect(JSON.parse(json.Comment)).toMatchObject({ seed: 880673757, steps: 23, sampler: 'k_euler_ancestral' });
  });
});
