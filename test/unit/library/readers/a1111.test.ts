import { describe, expect, it } from 'vitest';
import { a1111FromText, readA1111 } from '../../../../electron/library/readers/a1111.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, baseWebp, jpegWith, webpWith } from '../../../fixtures/images/containers.js';
import { buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';
import { insertChunks, iTXt, makePng, tEXt } from '../../media/helpers.js';

const INFOTEXT = [
  'a lighthouse at dusk, <lora:oilPaint_v2:0.8>, (film grain:1.2), <lora:detailer:0.45>',
  'Negative prompt: blurry, lowres',
  'Steps: 28, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 6.5, Seed: 18446744073709551615, Size: 832x1216, ' +
    'Model hash: 31e35c80fc, Model: sd_xl_base_1.0, Denoising strength: 0.4, ' +
    'Lora hashes: "oilPaint_v2: a1b2c3d4e5f6, detailer: 0f0f0f0f0f0f", Version: v1.10.1',
].join('\n');

const EXPECTED = {
  prompt: 'a lighthouse at dusk, <lora:oilPaint_v2:0.8>, (film grain:1.2), <lora:detailer:0.45>',
  negativePrompt: 'blurry, lowres',
  seed: '18446744073709551615',
  steps: 28,
  guidance: 6.5,
  sampler: 'DPM++ 2M',
  scheduler: 'Karras',
  model: 'sd_xl_base_1.0',
  modelHash: '31e35c80fc',
  width: 832,
  height: 1216,
  denoise: 0.4,
  loras: [
    { name: 'oilPaint_v2', weight: 0.8, hash: 'a1b2c3d4e5f6' },
    { name: 'detailer', weight: 0.45, hash: '0f0f0f0f0f0f' },
  ],
};

describe('A1111 / Forge reader', () => {
  it('reads the PNG parameters chunk into every field, the 64-bit seed exactly', async () => {
    const read = await readImageMetadata(insertChunks(await makePng(16, 16), [tEXt('parameters', INFOTEXT)]));
    expect(read.source).toBe('a1111');
    expect(read.settings).toEqual(EXPECTED);
    expect(read.problems).toEqual([]);
    expect(read.raw).toEqual([{ key: 'parameters', text: INFOTEXT }]);
  });

  it('reads a non-Latin prompt from an iTXt parameters chunk', async () => {
    const text = '夕暮れの灯台\nSteps: 20, Sampler: Euler a, Seed: 7, Size: 512x512';
    const read = await readImageMetadata(insertChunks(await makePng(), [iTXt('parameters', text, false)]));
    expect(read.settings.prompt).toBe('夕暮れの灯台');
    expect(read.settings.seed).toBe('7');
  });

  it('reads the EXIF UserComment of a JPEG (UTF-16 BE, as piexif writes)', async () => {
    const exif = buildExif({ UserComment: unicodeComment(INFOTEXT, 'be') });
    const read = await readImageMetadata(jpegWith(await baseJpeg(), { exif }));
    expect(read.format).toBe('jpeg');
    expect(read.source).toBe('a1111');
    expect(read.settings).toEqual(EXPECTED);
  });

  it('reads the EXIF UserComment of a WebP (UTF-16 LE)', async () => {
    const exif = buildExif({ UserComment: unicodeComment(INFOTEXT, 'le') }, 'II');
    const read = await readImageMetadata(webpWith(await baseWebp(24, 24), 24, 24, { exif }));
    expect(read.format).toBe('webp');
    expect(read.source).toBe('a1111');
    expect(read.settings).toEqual(EXPECTED);
  });

  it('names fields that do not parse and keeps the rest', async () => {
    const text = 'a cat\nSteps: many, Sampler: Euler, Seed: -1, Size: big, CFG scale: 7';
    const read = await readImageMetadata(insertChunks(await makePng(), [tEXt('parameters', text)]));
    expect(read.settings).toEqual({ prompt: 'a cat', sampler: 'Euler', guidance: 7 });
    expect(read.problems).toEqual([
      'Seed "-1" is not a whole number.',
      'Steps "many" is not a number.',
      'Size "big" is not WIDTHxHEIGHT.',
    ]);
  });

  it('does not claim JSON parameters (Fooocus, SwarmUI) nor a camera UserComment', async () => {
    const json = await readImageMetadata(insertChunks(await makePng(), [tEXt('parameters', '{"prompt": "x"}')]));
    expect(json.source).toBe('unknown');
    const camera = await readImageMetadata(
      jpegWith(await baseJpeg(), { exif: buildExif({ UserComment: unicodeComment('holiday 2019') }) }),
    );
    expect(camera.source).toBe('unknown');
    expect(camera.raw).toEqual([{ key: 'exif:UserComment', text: 'holiday 2019' }]);
  });
});

describe('A1111 hires fix and ADetailer passes', () => {
  const text = (extra: string) =>
    `a fox\nNegative prompt: blur\nSteps: 20, Sampler: DPM++ 2M, CFG scale: 5.5, Seed: 3888671826, Size: 1024x1024, Model: wai, ${extra}Version: v1.10.1`;

  it('the denoising strength of a hires fix belongs to the hires pass, with its size, steps and upscaler', () => {
    const read = a1111FromText(
      text('Denoising strength: 0.3, Hires upscale: 1.5, Hires steps: 10, Hires upscaler: R-ESRGAN 4x+ Anime6B, '),
    );
    expect(read.settings.denoise).toBeUndefined();
    expect(read.settings).toMatchObject({ width: 1024, height: 1024, steps: 20 });
    expect(read.passes).toEqual([
      {
        role: 'hires',
        classType: 'Hires fix: R-ESRGAN 4x+ Anime6B',
        settings: { denoise: 0.3, steps: 10, width: 1536, height: 1536 },
      },
    ]);
  });

  it('SD.Next names the size, Forge the hires CFG; ADetailer runs after as a detailer', () => {
    const read = a1111FromText(
      text(
        'Denoising strength: 0.3, Hires CFG Scale: 6, Hires size: 1536x1280, ADetailer model: face_yolov8n.pt, ADetailer denoising strength: 0.4, ADetailer prompt: smile, ',
      ),
    );
    expect(read.passes).toEqual([
      { role: 'hires', classType: 'Hires fix', settings: { denoise: 0.3, guidance: 6, width: 1536, height: 1280 } },
      { role: 'detailer', classType: 'ADetailer: face_yolov8n.pt', settings: { denoise: 0.4, prompt: 'smile' } },
    ]);
  });

  it('without a hires fix, the denoising strength is the image-to-image strength and there are no passes', () => {
    const read = a1111FromText(text('Denoising strength: 0.75, '));
    expect(read.settings.denoise).toBe(0.75);
    expect(read.passes).toBeUndefined();
  });

  it('a hires field that does not parse is named', () => {
    expect(a1111FromText(text('Hires steps: many, ')).problems).toContain('Hires steps: "many" could not be read');
  });
});

describe('A1111 text that is easy to mistake', () => {
  it('a prompt that starts with prompt editing brackets is A1111 text, not JSON', async () => {
    const text = '[dog:cat:0.0]\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 2607827426, Size: 512x512';
    const jpeg = jpegWith(await baseJpeg(), { exif: buildExif({ UserComment: unicodeComment(text) }) });
    const read = await readImageMetadata(jpeg);
    expect(read.source).toBe('a1111');
    expect(read.settings).toMatchObject({ prompt: '[dog:cat:0.0]', seed: '2607827426', steps: 20 });
  });

  it('JSON that parses is still left to the JSON readers, and so is a broken { without a params line', () => {
    expect(readA1111(new Map([['parameters', '[{"prompt": "x"}]']]))).toBeUndefined();
    expect(readA1111(new Map([['parameters', '{"prompt": "x", ']]))).toBeUndefined();
    expect(
      readA1111(new Map([['parameters', '{red|blue} car\nSteps: 20, Seed: 1, Sampler: Euler']]))?.settings.prompt,
    ).toBe('{red|blue} car');
  });

  it("a line after the params line (Dynamic Prompts' Template) does not hide the params", () => {
    const read = a1111FromText(
      'A diamond ring.\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 2602647927, Size: 512x512, Model hash: 9ca13f02\nTemplate:A diamond ring set on a {gold|platinum} band.',
    );
    expect(read.settings).toEqual({
      prompt: 'A diamond ring.',
      seed: '2602647927',
      steps: 20,
      guidance: 7,
      sampler: 'Euler a',
      modelHash: '9ca13f02',
      width: 512,
      height: 512,
    });
  });
});
