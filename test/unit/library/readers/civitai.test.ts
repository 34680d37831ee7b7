import { describe, expect, it } from 'vitest';
import { jsonAfter, readCivitai } from '../../../../electron/library/readers/civitai.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, jpegWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif } from '../../../fixtures/images/tiff-exif.js';

const RESOURCES =
  '[{"type":"checkpoint","modelVersionId":2514310,"modelName":"WAI-illustrious-SDXL","modelVersionName":"v16.0"},' +
  '{"type":"lora","weight":0.8,"modelVersionId":7,"modelName":"Detail, Tweaker","modelVersionName":"v1"}]';
const TEXT =
  'a fox, <lora:fur:0.5>\nNegative prompt: blur\nSteps: 25, Sampler: Euler a, CFG scale: 5, Seed: 1311178179, ' +
  `Size: 1024x1024, Clip skip: 2, Created Date: 2026-01-04T01:27:21Z, Civitai resources: ${RESOURCES}, Civitai metadata: {}`;

describe('Civitai reader', () => {
  it('reads a Civitai JPEG as civitai, the model from its resource list, through the whole read', async () => {
    const jpeg = jpegWith(await baseJpeg(), { exif: buildExif({ UserComment: asciiComment(TEXT) }) });
    const read = await readImageMetadata(jpeg);
    expect(read.source).toBe('civitai');
    expect(read.settings).toMatchObject({
      prompt: 'a fox, <lora:fur:0.5>',
      negativePrompt: 'blur',
      seed: '1311178179',
      steps: 25,
      guidance: 5,
      sampler: 'Euler a',
      model: 'WAI-illustrious-SDXL',
      width: 1024,
      height: 1024,
    });
  });

  it('takes the LoRAs from the resource list when the prompt names none, with their weights', () => {
    const read = readCivitai(new Map([['exif:UserComment', TEXT.replace(', <lora:fur:0.5>', '')]]));
    expect(read?.settings.loras).toEqual([{ name: 'Detail, Tweaker', weight: 0.8 }]);
  });

  it('keeps the prompt LoRAs when the prompt has them', () => {
    expect(readCivitai(new Map([['exif:UserComment', TEXT]]))?.settings.loras).toEqual([{ name: 'fur', weight: 0.5 }]);
  });

  it('leaves plain A1111 text and JSON to the other readers', () => {
    expect(readCivitai(new Map([['exif:UserComment', 'a\nSteps: 20, Seed: 1']]))).toBeUndefined();
    expect(readCivitai(new Map([['exif:UserComment', '{"Civitai resources: ": 1}']]))).toBeUndefined();
  });

  it('finds the JSON after a label across commas and brackets inside strings, and nothing when it never closes', () => {
    expect(jsonAfter('x: 1, L: [{"a":"],[{"}], y: 2', 'L:')).toEqual([{ a: '],[{' }]);
    expect(jsonAfter('L: [{"a":1}', 'L:')).toBeUndefined();
    expect(jsonAfter('L: 3', 'L:')).toBeUndefined();
  });
});

describe('Civitai JPEGs without the resource list', () => {
  it('are told by the job GUID the site writes as EXIF Software; a prompt may open with prompt editing', () => {
    const text =
      '[fox:wolf:0.4] in snow\nNegative prompt: blur\nSteps: 25, Sampler: Euler a, CFG scale: 5, Seed: 7, Size: 512x512';
    const read = readCivitai(
      new Map([
        ['exif:Software', '56c0ca36-7be1-4bce-a593-949f3ae4322e'],
        ['exif:UserComment', text],
      ]),
    );
    expect(read?.source).toBe('civitai');
    expect(read?.settings).toMatchObject({ prompt: '[fox:wolf:0.4] in snow', seed: '7', steps: 25 });
    expect(
      readCivitai(
        new Map([
          ['exif:Software', 'GIMP 2.10'],
          ['exif:UserComment', text],
        ]),
      ),
    ).toBeUndefined();
  });
});
