import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../../../shared/contract.js';
import { embedSettings } from '../../../../electron/media/png/embed-settings.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, baseWebp, jpegWith, webpWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif } from '../../../fixtures/images/tiff-exif.js';
import { insertChunks, iTXt, makePng, tEXt } from '../../media/helpers.js';

const XMP = (d: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang="x-default">${d}</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>`;

describe('Atelier reader', () => {
  it("reads Atelier's own chunk ahead of its A1111 parameters, with the seed the run used", async () => {
    const request: GenerateRequest = {
      provider: 'builtin',
      prompt: 'a red fox',
      negativePrompt: 'blur',
      width: 32,
      height: 24,
      count: 1,
      steps: 12,
      guidance: 4,
      sampler: 'Euler',
    };
    const png = embedSettings(await makePng(32, 24), {
      request,
      jobId: 'job-1',
      index: 0,
      provider: 'builtin',
      model: 'sdxl-turbo',
      seed: 9007199254740991,
      width: 32,
      height: 24,
      createdAt: 1,
      appVersion: '0.1.0',
    });
    const read = await readImageMetadata(png);
    expect(read.source).toBe('atelier');
    expect(read.settings).toEqual({
      prompt: 'a red fox',
      negativePrompt: 'blur',
      seed: '9007199254740991',
      steps: 12,
      guidance: 4,
      sampler: 'Euler',
      model: 'sdxl-turbo',
      width: 32,
      height: 24,
    });
    expect(read.raw.map((r) => r.key)).toEqual(['parameters', 'atelier']);
  });
});

describe('NovelAI reader', () => {
  it('reads Description, Source and the Comment JSON', async () => {
    const comment = JSON.stringify({
      steps: 28,
      sampler: 'k_euler_ancestral',
      seed: 3847562910,
      scale: 5.5,
      uc: 'lowres, bad hands',
      width: 832,
      height: 1216,
      noise_schedule: 'karras',
      strength: 0.7,
    });
    const png = insertChunks(await makePng(), [
      tEXt('Title', 'NovelAI generated image'),
      tEXt('Description', 'a girl reading under a tree'),
      tEXt('Software', 'NovelAI'),
      tEXt('Source', 'Stable Diffusion XL C1E1DE52'),
      tEXt('Comment', comment),
    ]);
    const read = await readImageMetadata(png);
    expect(read.source).toBe('novelai');
    expect(read.settings).toEqual({
      prompt: 'a girl reading under a tree',
      negativePrompt: 'lowres, bad hands',
      seed: '3847562910',
      steps: 28,
      guidance: 5.5,
      sampler: 'k_euler_ancestral',
      scheduler: 'karras',
      model: 'Stable Diffusion XL C1E1DE52',
      width: 832,
      height: 1216,
    });
  });

  it('keeps the prompt when the Comment is not JSON, and says so', async () => {
    const png = insertChunks(await makePng(), [
      tEXt('Software', 'NovelAI'),
      tEXt('Description', 'a boat'),
      tEXt('Comment', '{broken'),
    ]);
    const read = await readImageMetadata(png);
    expect(read.source).toBe('novelai');
    expect(read.settings).toEqual({ prompt: 'a boat' });
    expect(read.problems).toEqual(['The NovelAI Comment is not valid JSON.']);
  });
});

describe('EasyDiffusion reader', () => {
  const keys: Array<[string, string]> = [
    ['prompt', 'a castle on a hill'],
    ['negative_prompt', 'fog'],
    ['seed', '1234567'],
    ['num_inference_steps', '25'],
    ['guidance_scale', '7.5'],
    ['sampler_name', 'dpmpp_2m'],
    ['width', '768'],
    ['height', '512'],
    ['use_stable_diffusion_model', 'sd-v1-5'],
    ['use_lora_model', 'moody'],
    ['lora_alpha', '0.6'],
  ];
  const expected = {
    prompt: 'a castle on a hill',
    negativePrompt: 'fog',
    seed: '1234567',
    steps: 25,
    guidance: 7.5,
    sampler: 'dpmpp_2m',
    width: 768,
    height: 512,
    model: 'sd-v1-5',
    loras: [{ name: 'moody', weight: 0.6 }],
  };

  it('reads one PNG text per setting', async () => {
    const read = await readImageMetadata(
      insertChunks(
        await makePng(),
        keys.map(([k, v]) => tEXt(k, v)),
      ),
    );
    expect(read.source).toBe('easydiffusion');
    expect(read.settings).toEqual(expected);
  });

  it('reads the same keys as JSON in a JPEG UserComment', async () => {
    const exif = buildExif({ UserComment: asciiComment(JSON.stringify(Object.fromEntries(keys))) });
    const read = await readImageMetadata(jpegWith(await baseJpeg(), { exif }));
    expect(read.source).toBe('easydiffusion');
    expect(read.settings).toEqual(expected);
  });
});

describe('Midjourney reader', () => {
  it('reads the prompt and --flags of a web download, the Job ID kept in the raw text', async () => {
    const description =
      'a koi pond in autumn, ukiyo-e --ar 16:9 --v 6.1 --no people, boats --seed 4242 --stylize 250 Job ID: 8b6a2c1e-4f3d-4e2a-9c1b-0a1b2c3d4e5f';
    const read = await readImageMetadata(
      insertChunks(await makePng(), [iTXt('Description', description, false), tEXt('Author', 'artist')]),
    );
    expect(read.source).toBe('midjourney');
    expect(read.settings).toEqual({
      prompt: 'a koi pond in autumn, ukiyo-e',
      negativePrompt: 'people, boats',
      seed: '4242',
      model: 'Midjourney v6.1',
    });
    expect(read.raw[0]).toEqual({ key: 'Description', text: description });
  });

  it('names niji models', async () => {
    const read = await readImageMetadata(
      insertChunks(await makePng(), [
        tEXt('Description', 'a fox --niji 6 Job ID: 8b6a2c1e-4f3d-4e2a-9c1b-0a1b2c3d4e5f'),
      ]),
    );
    expect(read.settings).toEqual({ prompt: 'a fox', model: 'niji 6' });
  });
});

describe('generic description reader', () => {
  it('keeps EXIF ImageDescription of a JPEG as the description, not as a prompt', async () => {
    const read = await readImageMetadata(
      jpegWith(await baseJpeg(), { exif: buildExif({ ImageDescription: 'a quiet harbour at dawn' }) }),
    );
    expect(read.source).toBe('unknown');
    expect(read.description).toBe('a quiet harbour at dawn');
    expect(read.settings).toEqual({});
  });

  it('reads XMP dc:description from a WebP, entities decoded', async () => {
    const read = await readImageMetadata(webpWith(await baseWebp(8, 8), 8, 8, { xmp: XMP('salt &amp; pepper') }));
    expect(read.description).toBe('salt & pepper');
  });

  it('reads a PNG Comment, and ignores a camera name', async () => {
    const png = await readImageMetadata(insertChunks(await makePng(), [tEXt('Comment', 'made for the zine')]));
    expect(png.description).toBe('made for the zine');
    const camera = await readImageMetadata(
      jpegWith(await baseJpeg(), { exif: buildExif({ ImageDescription: 'OLYMPUS DIGITAL CAMERA' }) }),
    );
    expect(camera.description).toBeUndefined();
  });
});
