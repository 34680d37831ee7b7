import { describe, expect, it } from 'vitest';
import { readFooocus } from '../../../../electron/library/readers/fooocus.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, jpegWith } from '../../../fixtures/images/containers.js';
import { buildExif } from '../../../fixtures/images/tiff-exif.js';

/** Fooocus 2.5 `parameters` in its own scheme: json.dumps of its metadata, keys sorted. */
function fooocusJson(seed = '1234567890123'): string {
  const meta = {
    adaptive_cfg: 7,
    base_model: 'juggernautXL_v8Rundiffusion.safetensors',
    base_model_hash: 'aeb7e9e689',
    full_negative_prompt: ['(worst quality, low quality:1.4)', 'blurry'],
    full_prompt: ['a knight in a misty forest', 'cinematic, dramatic light'],
    guidance_scale: 4,
    loras: [['sd_xl_offset_example-lora_1.0.safetensors', 0.1, '4852686128']],
    negative_prompt: 'blurry',
    performance: 'Speed',
    prompt: 'a knight in a misty forest',
    resolution: '(1152, 896)',
    sampler: 'dpmpp_2m_sde_gpu',
    scheduler: 'karras',
    seed: 'SEED',
    sharpness: 2,
    steps: 30,
    styles: "['Fooocus V2', 'Fooocus Enhance']",
    vae: 'Default (model)',
    version: 'Fooocus v2.5.5',
  };
  return JSON.stringify(meta).replace('"SEED"', seed);
}

const a1111Text = [
  'a knight in a misty forest',
  'Negative prompt: blurry',
  'Steps: 30, Sampler: DPM++ 2M SDE, Scheduler: karras, Seed: 18446744073709551615, Size: 1152x896, CFG scale: 4, Sharpness: 2, Model: juggernautXL_v8Rundiffusion, Model hash: aeb7e9e689, Lora hashes: "offset: 4852686128", Lora weights: "offset: 0.1", Version: Fooocus v2.5.5',
].join('\n');

const expected = {
  prompt: 'a knight in a misty forest\ncinematic, dramatic light',
  negativePrompt: '(worst quality, low quality:1.4)\nblurry',
  seed: '1234567890123',
  steps: 30,
  guidance: 4,
  sampler: 'dpmpp_2m_sde_gpu',
  scheduler: 'karras',
  model: 'juggernautXL_v8Rundiffusion.safetensors',
  modelHash: 'aeb7e9e689',
  width: 1152,
  height: 896,
  loras: [{ name: 'sd_xl_offset_example-lora_1.0.safetensors', weight: 0.1, hash: '4852686128' }],
};

describe('Fooocus reader', () => {
  it('reads the PNG fooocus scheme (full prompts, resolution, LoRAs)', () => {
    const texts = new Map([
      ['parameters', fooocusJson('"1234567890123"')],
      ['fooocus_scheme', 'fooocus'],
    ]);
    expect(readFooocus(texts)).toEqual({ source: 'fooocus', settings: expected, problems: [] });
  });

  it('keeps a 64-bit seed exactly, whether written as a string or a number', () => {
    for (const seed of ['"18446744073709551615"', '18446744073709551615']) {
      const texts = new Map([
        ['parameters', fooocusJson(seed)],
        ['fooocus_scheme', 'fooocus'],
      ]);
      expect(readFooocus(texts)?.settings.seed).toBe('18446744073709551615');
    }
  });

  it('reads the a1111 scheme as Fooocus, the seed exact and LoRAs from Lora weights/hashes', () => {
    const read = readFooocus(
      new Map([
        ['parameters', a1111Text],
        ['fooocus_scheme', 'a1111'],
      ]),
    );
    expect(read).toEqual({
      source: 'fooocus',
      settings: {
        prompt: 'a knight in a misty forest',
        negativePrompt: 'blurry',
        seed: '18446744073709551615',
        steps: 30,
        guidance: 4,
        sampler: 'DPM++ 2M SDE',
        scheduler: 'karras',
        model: 'juggernautXL_v8Rundiffusion',
        modelHash: 'aeb7e9e689',
        width: 1152,
        height: 896,
        loras: [{ name: 'offset', weight: 0.1, hash: '4852686128' }],
      },
      problems: [],
    });
  });

  it('reads an a1111-scheme prompt that starts with a brace as text, not as damaged JSON', () => {
    const text = a1111Text.replace('a knight in a misty forest', '{red|blue} cloak, a knight');
    const read = readFooocus(
      new Map([
        ['parameters', text],
        ['fooocus_scheme', 'a1111'],
      ]),
    );
    expect(read?.settings.prompt).toBe('{red|blue} cloak, a knight');
    expect(read?.problems).toEqual([]);
  });

  it('reads JPEG/WebP EXIF: UserComment data, MakerNote scheme, Software "Fooocus …"', () => {
    const texts = new Map([
      ['exif:UserComment', fooocusJson('"1234567890123"')],
      ['exif:MakerNote', 'fooocus'],
      ['exif:Software', 'Fooocus v2.5.5'],
    ]);
    expect(readFooocus(texts)?.settings).toEqual(expected);
    const a1111 = new Map([
      ['exif:UserComment', a1111Text],
      ['exif:MakerNote', 'a1111'],
      ['exif:Software', 'Fooocus v2.5.5'],
    ]);
    expect(readFooocus(a1111)?.settings.seed).toBe('18446744073709551615');
  });

  it('names a resolution it cannot read and a damaged JSON, never reading the JSON as A1111 text', () => {
    const texts = new Map([
      ['parameters', fooocusJson('"7"').replace('(1152, 896)', 'big')],
      ['fooocus_scheme', 'fooocus'],
    ]);
    const read = readFooocus(texts);
    expect(read?.settings.width).toBeUndefined();
    expect(read?.settings.seed).toBe('7');
    expect(read?.problems).toEqual(['resolution: "big" could not be read']);
    const damaged = readFooocus(
      new Map([
        ['parameters', '{"prompt": "a kni'],
        ['fooocus_scheme', 'fooocus'],
      ]),
    );
    expect(damaged).toEqual({ source: 'fooocus', settings: {}, problems: ['parameters: not a JSON object'] });
  });

  it('answers undefined for A1111 and SwarmUI parameters without the Fooocus marks', () => {
    expect(readFooocus(new Map([['parameters', a1111Text]]))).toBeUndefined();
    expect(readFooocus(new Map([['parameters', '{"sui_image_params": {"prompt": "a"}}']]))).toBeUndefined();
    expect(
      readFooocus(
        new Map([
          ['exif:UserComment', a1111Text],
          ['exif:Software', 'GIMP 2.10'],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('Fooocus JPEG', () => {
  it('reads the UserComment and MakerNote Pillow writes into IFD0 (modules/meta_parser.py get_exif), in either scheme', async () => {
    const a1111 =
      'a fox\nNegative prompt: blur\nSteps: 30, Sampler: DPM++ 2M SDE, Seed: 7, Size: 1152x896, Version: Fooocus v2.5.5';
    const ifd0Ascii = { 0x9286: a1111, 0x927c: 'a1111' };
    const jpeg = jpegWith(await baseJpeg(), { exif: buildExif({ Software: 'Fooocus v2.5.5', ifd0Ascii }) });
    const read = await readImageMetadata(jpeg);
    expect(read.raw.find((r) => r.key === 'exif:MakerNote')?.text).toBe('a1111');
    expect(read.source).toBe('fooocus');
    expect(read.settings).toMatchObject({ prompt: 'a fox', negativePrompt: 'blur', seed: '7', steps: 30 });
  });
});

describe('older Fooocus PNGs', () => {
  it('read the JSON of a PNG Comment (prompt, base_model, cfg, width and height) as Fooocus', () => {
    const comment = JSON.stringify({
      prompt: 'a goldfish',
      negative_prompt: 'blur',
      base_model: 'sd_xl_base_1.0_0.9vae.safetensors',
      sampler: 'dpmpp_2m_sde_gpu',
      seed: 6952411511246973023n.toString(),
      cfg: 7,
      steps: 30,
      width: 1152,
      height: 896,
    });
    const read = readFooocus(new Map([['Comment', comment]]));
    expect(read?.source).toBe('fooocus');
    expect(read?.settings).toMatchObject({
      prompt: 'a goldfish',
      negativePrompt: 'blur',
      model: 'sd_xl_base_1.0_0.9vae.safetensors',
      sampler: 'dpmpp_2m_sde_gpu',
      seed: '6952411511246973023',
      guidance: 7,
      steps: 30,
      width: 1152,
      height: 896,
    });
  });

  it('leave a NovelAI Comment (Software beside it) and a plain caption alone', () => {
    expect(
      readFooocus(
        new Map([
          ['Comment', '{"base_model":"x"}'],
          ['Software', 'NovelAI'],
        ]),
      ),
    ).toBeUndefined();
    expect(readFooocus(new Map([['Comment', 'a photo of base_model']]))).toBeUndefined();
  });
});
