import { describe, expect, it } from 'vitest';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import type { ImageSource } from '../../../../electron/library/readers/types.js';
import { baseWebp, webpWith } from '../../../fixtures/images/containers.js';
import { buildExif } from '../../../fixtures/images/tiff-exif.js';
import { insertChunks, makePng, tEXt } from '../../media/helpers.js';

const A1111 = 'a moth on a lamp\nNegative prompt: dust\nSteps: 30, Sampler: Euler, CFG scale: 7, Seed: 5, Size: 64x64';
const COMFY_GRAPH = JSON.stringify({
  '3': {
    class_type: 'KSampler',
    inputs: {
      seed: 18446744073709551615n.toString(),
      steps: 25,
      cfg: 6.5,
      sampler_name: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    },
  },
  '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'dream.safetensors' } },
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 832, height: 1216, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: 'a glass harbour at night', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['4', 1] } },
  '9': { class_type: 'SaveImage', inputs: { images: ['8', 0] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
}).replace('"18446744073709551615"', '18446744073709551615');
const FOOOCUS = JSON.stringify({
  prompt: 'a lantern',
  negative_prompt: '',
  full_prompt: ['a lantern, warm light'],
  full_negative_prompt: ['cold'],
  steps: 30,
  guidance_scale: 4,
  seed: '9007199254740993',
  sampler: 'dpmpp_2m_sde_gpu',
  scheduler: 'karras',
  resolution: '(896, 1152)',
  base_model: 'juggernaut.safetensors',
});
const SWARM = JSON.stringify({
  sui_image_params: {
    prompt: 'a fox in a library',
    negativeprompt: 'text',
    model: 'flux-dev',
    seed: 77,
    steps: 20,
    cfgscale: 1,
    width: 1024,
    height: 1024,
  },
});
const INVOKE = JSON.stringify({
  positive_prompt: 'a brass owl',
  negative_prompt: 'noise',
  seed: 42,
  steps: 28,
  cfg_scale: 7.5,
  scheduler: 'euler_a',
  width: 768,
  height: 768,
  model: { name: 'sdxl-base', hash: 'abc123' },
});
const NOVELAI = JSON.stringify({
  steps: 28,
  sampler: 'k_euler_ancestral',
  seed: 1234,
  scale: 5,
  uc: 'lowres',
  width: 832,
  height: 1216,
});

async function png(texts: Array<[string, string]>): Promise<Uint8Array> {
  return insertChunks(
    await makePng(16, 16),
    texts.map(([k, v]) => tEXt(k, v)),
  );
}

describe('every generator through one entry point', () => {
  const cases: Array<[string, () => Promise<Uint8Array>, ImageSource, Record<string, unknown>]> = [
    [
      'AUTOMATIC1111 parameters',
      () => png([['parameters', A1111]]),
      'a1111',
      { prompt: 'a moth on a lamp', seed: '5', steps: 30 },
    ],
    [
      'ComfyUI graph (64-bit seed)',
      () => png([['prompt', COMFY_GRAPH]]),
      'comfyui',
      { prompt: 'a glass harbour at night', seed: '18446744073709551615', model: 'dream.safetensors', width: 832 },
    ],
    [
      'Fooocus JSON in parameters is Fooocus, not A1111 text',
      () =>
        png([
          ['parameters', FOOOCUS],
          ['fooocus_scheme', 'fooocus'],
        ]),
      'fooocus',
      { seed: '9007199254740993', steps: 30, width: 896 },
    ],
    [
      'SwarmUI JSON in parameters is SwarmUI, not A1111 text',
      () => png([['parameters', SWARM]]),
      'swarmui',
      { prompt: 'a fox in a library', model: 'flux-dev', seed: '77' },
    ],
    [
      'InvokeAI 3 metadata',
      () => png([['invokeai_metadata', INVOKE]]),
      'invokeai',
      { prompt: 'a brass owl', seed: '42', modelHash: 'abc123' },
    ],
    [
      'NovelAI',
      () =>
        png([
          ['Software', 'NovelAI'],
          ['Description', 'a cat knight'],
          ['Comment', NOVELAI],
        ]),
      'novelai',
      { prompt: 'a cat knight', negativePrompt: 'lowres', seed: '1234' },
    ],
    [
      'ComfyUI in WebP EXIF Make/Model',
      async () =>
        webpWith(await baseWebp(16, 16), 16, 16, {
          exif: buildExif({ Make: `workflow:{"nodes":[],"links":[]}`, Model: `prompt:${COMFY_GRAPH}` }),
        }),
      'comfyui',
      { prompt: 'a glass harbour at night', seed: '18446744073709551615' },
    ],
  ];
  for (const [name, make, source, expected] of cases) {
    it(name, async () => {
      const read = await readImageMetadata(await make());
      expect(read.source).toBe(source);
      expect(read.settings).toMatchObject(expected);
    });
  }
});
