import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { baseJpeg, baseWebp, jpegWith, webpWith } from '../../../fixtures/images/containers.js';
import { asciiComment, buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';

const graph = JSON.stringify({
  '3': {
    class_type: 'KSampler',
    inputs: {
      seed: 8675309,
      steps: 18,
      cfg: 4,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    },
  },
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'exif.safetensors' } },
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 512, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'über den Wolken, 雲の上', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: 'fog', clip: ['4', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { images: ['8', 0] } },
});

let jpeg: Uint8Array;
let webp: Uint8Array;
beforeAll(async () => {
  jpeg = await baseJpeg(16, 16);
  webp = await baseWebp(16, 16);
});

const expectGraph = async (bytes: Uint8Array): Promise<void> => {
  const read = await readImageMetadata(bytes);
  expect(read.source).toBe('comfyui');
  expect(read.settings).toMatchObject({
    seed: '8675309',
    prompt: 'über den Wolken, 雲の上',
    model: 'exif.safetensors',
  });
};

describe('ComfyUI graphs in JPEG and WebP EXIF', () => {
  it('finds a `Prompt:`-prefixed graph in ImageDescription of a JPEG (Save Image Extended style)', async () => {
    await expectGraph(jpegWith(jpeg, { exif: buildExif({ ImageDescription: `Prompt: ${graph}` }) }));
  });

  it('finds `prompt:` in Model of a WebP (ComfyUI’s own WebP save) and `workflow:` in Make beside it', async () => {
    const exif = buildExif({ Make: 'workflow:{"nodes": [], "links": []}', Model: `prompt:${graph}` });
    await expectGraph(webpWith(webp, 16, 16, { exif }));
  });

  it('reads a UserComment graph in UTF-16 little- and big-endian, and in ASCII', async () => {
    const wrapped = `{"prompt": ${graph}}`;
    for (const comment of [unicodeComment(wrapped, 'le'), unicodeComment(wrapped, 'be'), asciiComment(wrapped)]) {
      await expectGraph(jpegWith(jpeg, { exif: buildExif({ UserComment: comment }) }));
    }
  });

  it('reads a graph whose UTF-16 landed in an ASCII tag (a NUL after every letter)', async () => {
    const utf16 = [...`prompt:${graph}`].map((c) => `${c}\0`).join('');
    const read = await readImageMetadata(jpegWith(jpeg, { exif: buildExif({ Model: utf16 }) }));
    expect(read.settings.seed).toBe('8675309');
  });

  it("Civitai's graph in UserComment: source civitai, settings traced, gaps filled from extraMetadata", async () => {
    const civitai = {
      ...JSON.parse(graph),
      extra: { airs: ['urn:air:sdxl:checkpoint:civitai:1@2'] },
      extraMetadata: JSON.stringify({ prompt: 'summary prompt', steps: 99, cfgScale: 4, width: 1024, height: 1024 }),
    };
    delete civitai['5'];
    const read = await readImageMetadata(
      jpegWith(jpeg, { exif: buildExif({ UserComment: unicodeComment(JSON.stringify(civitai), 'be') }) }),
    );
    expect(read.source).toBe('civitai');
    expect(read.settings).toMatchObject({ prompt: 'über den Wolken, 雲の上', steps: 18, width: 1024, height: 1024 });
  });
});

const REAL = join(import.meta.dirname, '../../../fixtures/real/comfyui');
const real = (name: string) => readImageMetadata(new Uint8Array(readFileSync(join(REAL, name))));

describe('ComfyUI real files: the first pass and the passes after it', () => {
  it('SDXL base + refiner (ComfyUI_examples): base model and seed, the refiner a pass', async () => {
    const read = await real('sdxl-base-refiner.png');
    expect(read.settings).toMatchObject({ model: 'sd_xl_base_1.0.safetensors', seed: '6767725640732', steps: 25 });
    expect(read.passes?.map((p) => [p.role, p.settings.model])).toEqual([['refiner', 'sd_xl_refiner_1.0.safetensors']]);
  });

  it('hires fix with ESRGAN (ComfyUI_examples): 12 steps first, then the upscale and the 14-step pass', async () => {
    const read = await real('hires-fix-esrgan.png');
    expect(read.settings).toMatchObject({ steps: 12, seed: '251225068430076', width: 768, height: 768 });
    expect(read.passes?.map((p) => [p.role, p.classType, p.settings.steps ?? p.settings.model])).toEqual([
      ['upscale', 'ImageUpscaleWithModel', 'RealESRGAN_x4plus.pth'],
      ['hires', 'KSampler', 14],
    ]);
  });

  it('Anima with SamplerCustomAdvanced hires (sd-metadata): 24 steps first, 14 after the upscale', async () => {
    const read = await real('sdmeta-comfyui-anima.png');
    expect(read.settings).toMatchObject({ steps: 24, width: 1216, height: 832 });
    expect(read.passes?.map((p) => [p.role, p.settings.steps ?? null])).toEqual([
      ['upscale', null],
      ['hires', 14],
    ]);
  });

  it('Stable Cascade (ComfyUI_examples): stage C is the first pass, stage B (conditioned on its latent) after it', async () => {
    const read = await real('stable-cascade-two-stage.png');
    expect(read.settings).toMatchObject({ model: 'stable_cascade_stage_c.safetensors', steps: 20, width: 1024 });
    expect(read.passes?.map((p) => [p.settings.model, p.settings.steps])).toEqual([
      ['stable_cascade_stage_b.safetensors', 10],
    ]);
    expect(read.alternatives).toBeUndefined();
  });

  it("rgthree's Context nodes (rgthree's docs): model, prompts, seed and latent through the bus", async () => {
    const read = await real('rgthree-context-hires.png');
    expect(read.settings).toMatchObject({
      seed: '883703990502425',
      model: 'juggernaut_aftermath.safetensors',
      width: 512,
    });
    expect(read.settings.prompt).toMatch(/^full body portrait RAW photo/);
    expect(read.passes?.map((p) => [p.role, p.settings.steps ?? null])).toEqual([
      ['upscale', null],
      ['hires', 30],
    ]);
  });

  it('Efficiency workflows alone: the SDXL tuple gives model and prompts, scripts are passes after the sampler', async () => {
    const tuple = await real('efficiency-sdxl-tuple.png');
    expect(tuple.settings).toMatchObject({ seed: '238710419612190', steps: 35, width: 1216, height: 832 });
    expect(tuple.settings.model).toBe('SDXL\\colossusProjectXLSFW_v202BakedVAE.safetensors');
    expect(tuple.settings.prompt).toMatch(/^award winning character concept art/);
    const hires = await real('efficiency-hires-fix-script.png');
    expect(hires.settings).toMatchObject({ seed: '1106939166727686', steps: 20 });
    expect(hires.passes?.map((p) => [p.role, p.classType, p.settings.seed, p.settings.steps])).toEqual([
      ['hires', 'HighRes-Fix Script', '914146367174090', 12],
    ]);
    const tiled = await real('efficiency-tiled-upscaler-script.png');
    expect(tiled.settings.seed).toBe('980056807522009');
    expect(tiled.passes?.map((p) => [p.role, p.settings.seed])).toEqual([['upscale', '444264914855361']]);
  });

  it('reads the graph of every save node’s JPEG and WebP (SaveImage Plus, Save Image Extended, core WebP)', async () => {
    const files = [
      'sdmeta-comfyui-saveimage-plus.jpg',
      'sdmeta-comfyui-saveimage-plus.webp',
      'sdmeta-comfyui-save-image-extended.jpeg',
      'sdmeta-comfyui-save-image-extended.webp',
      'sdmeta-comfyui-animated-webp.webp',
      'wan-core-webp-save.webp',
    ];
    for (const file of files) {
      const read = await real(file);
      expect([file, read.source, typeof read.settings.seed, typeof read.settings.prompt]).toEqual([
        file,
        'comfyui',
        'string',
        'string',
      ]);
    }
  });
});

describe("readImageMetadata hands a person's node rules to the ComfyUI reader", () => {
  it('a JPEG whose graph uses a custom sampler: its seed is read only with the rule', async () => {
    const custom = JSON.parse(graph);
    custom['3'].class_type = 'TotallyCustomSampler';
    custom['3'].inputs = { ...custom['3'].inputs, the_seed: 4242 };
    delete custom['3'].inputs.seed;
    const bytes = jpegWith(jpeg, {
      exif: buildExif({ UserComment: unicodeComment(`{"prompt": ${JSON.stringify(custom)}}`, 'le') }),
    });
    expect((await readImageMetadata(bytes)).settings.seed).toBeUndefined();
    const read = await readImageMetadata(bytes, {
      comfyNodeRules: [{ classType: 'TotallyCustomSampler', input: 'the_seed', field: 'seed' }],
    });
    expect(read.settings.seed).toBe('4242');
  });
});
