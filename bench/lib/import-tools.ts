/**
 * What each tool writes into its files, for the import bench: a unique prompt (with a unique searchable word) and
 * seed per file, in the keys and layouts of docs/metadata-formats.md, and where each tool saves its outputs.
 */
import { asciiComment, buildExif, unicodeComment } from '../../test/fixtures/images/tiff-exif.js';

export const KINDS = [
  'a1111-png',
  'a1111-jpeg',
  'a1111-webp',
  'comfyui-png',
  'invokeai-png',
  'fooocus-png',
  'novelai-png',
  'swarmui-png',
  'plain-png',
] as const;
export type Kind = (typeof KINDS)[number];
export type Damage = 'empty' | 'truncated' | 'not-an-image';

/** Share of each kind in 100 files: roughly what a person who used several tools has on disk. */
const WEIGHTS: Record<Kind, number> = {
  'a1111-png': 28,
  'a1111-jpeg': 8,
  'a1111-webp': 6,
  'comfyui-png': 24,
  'invokeai-png': 8,
  'fooocus-png': 7,
  'novelai-png': 6,
  'swarmui-png': 6,
  'plain-png': 7,
};
const SLOTS: Kind[] = KINDS.flatMap((k) => Array.from({ length: WEIGHTS[k] }, () => k));
/** One file in this many is damaged (empty, cut short, or not an image under an image's name). */
export const DAMAGED_EVERY = 250;

export function kindOf(i: number): Kind {
  // 61 is coprime with 100: consecutive files cycle through every slot, so any prefix has the same mix.
  return SLOTS[(i * 61 + 17) % SLOTS.length]!;
}

export function damageOf(i: number): Damage | null {
  if (i % DAMAGED_EVERY !== DAMAGED_EVERY - 7) return null;
  return (['empty', 'truncated', 'not-an-image'] as const)[Math.floor(i / DAMAGED_EVERY) % 3]!;
}

const SUBJECTS = [
  'fox',
  'lighthouse',
  'teapot',
  'castle',
  'robot',
  'forest spirit',
  'dragon',
  'portrait of a knight',
  'night city',
  'tea garden',
  'clipper ship',
  'snow owl',
  'mountain pass',
  'calico cat',
  'river delta',
];
const STYLES = [
  'watercolor',
  'oil painting',
  'pixel art',
  'photograph',
  'ink sketch',
  'isometric render',
  'low poly',
  'charcoal drawing',
  'studio lighting',
  'cinematic still',
];
const MOODS = [
  'at dawn',
  'in the rain',
  'under neon lights',
  'in winter',
  'at golden hour',
  'in fog',
  'at night',
  'in spring',
];
const LORAS = ['inkwash', 'filmgrain', 'detailtweaker', 'paperart'];
const MODELS = ['sd_xl_base_1.0', 'juggernautXL_v9', 'dreamshaper_8', 'ponyDiffusionV6XL', 'realisticVision_v51'];

/** The word that makes file i findable by search, and nothing else: `uid123x` is no substring of `uid1123x`. */
export const tokenOf = (i: number): string => `uid${i}x`;

export interface Spec {
  i: number;
  prompt: string;
  negative: string;
  seed: number;
  model: string;
  width: number;
  height: number;
}

export function specOf(i: number, width: number, height: number): Spec {
  const h = (i * 2654435761) >>> 0;
  const lora = LORAS[h % LORAS.length]!;
  const prompt = `${STYLES[h % STYLES.length]} of a ${SUBJECTS[(h >>> 4) % SUBJECTS.length]} ${MOODS[(h >>> 8) % MOODS.length]}, highly detailed, ${tokenOf(i)} <lora:${lora}:0.${(h % 9) + 1}>`;
  return {
    i,
    prompt,
    negative: 'blurry, lowres, watermark',
    seed: 100_000 + ((i * 7919) % 4_000_000_000),
    model: MODELS[(h >>> 12) % MODELS.length]!,
    width,
    height,
  };
}

export function a1111Text(s: Spec): string {
  return (
    `${s.prompt}\nNegative prompt: ${s.negative}\nSteps: 30, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 7, Seed: ${s.seed}, ` +
    `Size: ${s.width}x${s.height}, Model hash: 6ce0161689, Model: ${s.model}, Lora hashes: "inkwash: 0a1b2c3d4e5f", Version: v1.10.1`
  );
}

export const a1111JpegExif = (s: Spec): Uint8Array => buildExif({ UserComment: unicodeComment(a1111Text(s)) });
export const a1111WebpExif = (s: Spec): Uint8Array => buildExif({ UserComment: asciiComment(a1111Text(s)) });

/** A 64-bit ComfyUI seed, kept exactly: beyond 2^53 for most files. */
const comfySeed = (s: Spec): string => (18_000_000_000_000_000_000n + BigInt(s.i) * 7_919n).toString();

export function comfyPrompt(s: Spec): string {
  return JSON.stringify({
    '3': {
      class_type: 'KSampler',
      inputs: {
        seed: 'SEED',
        steps: 25,
        cfg: 6.5,
        sampler_name: 'dpmpp_2m',
        scheduler: 'karras',
        denoise: 1,
        model: ['10', 0],
        positive: ['6', 0],
        negative: ['7', 0],
        latent_image: ['5', 0],
      },
    },
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: `${s.model}.safetensors` } },
    '5': { class_type: 'EmptyLatentImage', inputs: { width: s.width, height: s.height, batch_size: 1 } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: s.prompt, clip: ['10', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: s.negative, clip: ['10', 1] } },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } },
    '10': {
      class_type: 'LoraLoader',
      inputs: {
        lora_name: 'inkwash.safetensors',
        strength_model: 0.8,
        strength_clip: 0.8,
        model: ['4', 0],
        clip: ['4', 1],
      },
    },
  }).replace('"SEED"', comfySeed(s));
}

/** The UI workflow ComfyUI saves beside the API graph: most of a real ComfyUI PNG's metadata bytes. */
export function comfyWorkflow(s: Spec): string {
  const node = (id: number, type: string, widgets: unknown[], x: number) => ({
    id,
    type,
    pos: [x, 130 + (id % 3) * 220],
    size: { 0: 315, 1: 262 },
    flags: {},
    order: id,
    mode: 0,
    inputs: [
      { name: 'model', type: 'MODEL', link: id * 2 },
      { name: 'clip', type: 'CLIP', link: id * 2 + 1 },
    ],
    outputs: [{ name: 'OUT', type: 'LATENT', links: [id * 3], slot_index: 0 }],
    properties: { 'Node name for S&R': type },
    widgets_values: widgets,
  });
  return JSON.stringify({
    last_node_id: 10,
    last_link_id: 12,
    nodes: [
      node(3, 'KSampler', [comfySeed(s), 'randomize', 25, 6.5, 'dpmpp_2m', 'karras', 1], 860),
      node(4, 'CheckpointLoaderSimple', [`${s.model}.safetensors`], 20),
      node(5, 'EmptyLatentImage', [s.width, s.height, 1], 470),
      node(6, 'CLIPTextEncode', [s.prompt], 420),
      node(7, 'CLIPTextEncode', [s.negative], 420),
      node(8, 'VAEDecode', [], 1210),
      node(9, 'SaveImage', ['ComfyUI'], 1450),
      node(10, 'LoraLoader', ['inkwash.safetensors', 0.8, 0.8], 240),
    ],
    links: Array.from({ length: 12 }, (_, k) => [k + 1, 3 + (k % 8), 0, 4 + (k % 7), k % 2, 'MODEL']),
    groups: [],
    config: {},
    extra: { ds: { scale: 0.9, offset: [12.5, -40.25] } },
    version: 0.4,
  });
}

export function invokeaiMetadata(s: Spec): string {
  return JSON.stringify({
    generation_mode: 'txt2img',
    positive_prompt: s.prompt,
    negative_prompt: s.negative,
    width: s.width,
    height: s.height,
    seed: s.seed,
    rand_device: 'cpu',
    cfg_scale: 7.5,
    steps: 28,
    scheduler: 'euler_a',
    model: { key: 'e1f2', hash: 'blake3:abc123', name: s.model, base: 'sdxl', type: 'main' },
    loras: [{ model: { key: 'l1', name: 'inkwash', base: 'sdxl', type: 'lora' }, weight: 0.75 }],
    app_version: '4.2.9',
  });
}

export function fooocusParameters(s: Spec): string {
  return JSON.stringify({
    prompt: s.prompt,
    negative_prompt: s.negative,
    full_prompt: [s.prompt, 'cinematic, sharp focus'],
    full_negative_prompt: [s.negative],
    steps: 30,
    guidance_scale: 4,
    seed: String(9_007_199_254_740_993n + BigInt(s.i)),
    sampler: 'dpmpp_2m_sde_gpu',
    scheduler: 'karras',
    resolution: `(${s.width}, ${s.height})`,
    base_model: `${s.model}.safetensors`,
    base_model_hash: '1f2e3d4c5b',
    loras: [['sd_xl_offset_example-lora_1.0.safetensors', 0.1]],
    version: 'Fooocus v2.5.5',
  });
}

export function novelaiTexts(s: Spec): Array<[string, string]> {
  return [
    ['Title', 'AI generated image'],
    ['Description', s.prompt],
    ['Software', 'NovelAI'],
    ['Source', 'NovelAI Diffusion V3 4BDE2A90'],
    [
      'Comment',
      JSON.stringify({
        prompt: s.prompt,
        steps: 28,
        height: s.height,
        width: s.width,
        scale: 5,
        uncond_scale: 1,
        cfg_rescale: 0,
        seed: s.seed,
        n_samples: 1,
        sampler: 'k_euler_ancestral',
        uc: s.negative,
      }),
    ],
  ];
}

export function swarmParameters(s: Spec): string {
  return JSON.stringify({
    sui_image_params: {
      prompt: s.prompt,
      negativeprompt: s.negative,
      model: s.model,
      seed: s.seed,
      steps: 20,
      cfgscale: 7,
      width: s.width,
      height: s.height,
      sampler: 'euler',
      scheduler: 'normal',
      loras: ['inkwash'],
      loraweights: ['0.8'],
      swarm_version: '0.9.4',
    },
    sui_extra_data: { date: '2026-11-03', prep_time: '0.01 sec', generation_time: '4.20 sec' },
  });
}

/** Where tool `kind` saves its i-th output (relative to the generated root), dated across nine days. */
export function pathOf(kind: Kind | 'damaged', i: number, n: number, seed: number): string {
  const day = `2026-11-0${1 + Math.min(8, Math.floor((i * 9) / Math.max(1, n)))}`;
  const num = String(i).padStart(5, '0');
  switch (kind) {
    case 'a1111-png':
    case 'damaged':
      return `stable-diffusion-webui/outputs/${i % 5 === 0 ? 'img2img-images' : 'txt2img-images'}/${day}/${num}-${seed}.png`;
    case 'a1111-jpeg':
      return `stable-diffusion-webui/outputs/txt2img-images/${day}/${num}-${seed}.jpg`;
    case 'a1111-webp':
      return `stable-diffusion-webui/outputs/txt2img-images/${day}/${num}-${seed}.webp`;
    case 'comfyui-png':
      // ComfyUI writes one flat folder unless the workflow names a sub-folder.
      return i % 4 === 0 ? `ComfyUI/output/portraits/ComfyUI_${num}_.png` : `ComfyUI/output/ComfyUI_${num}_.png`;
    case 'invokeai-png':
      return `invokeai/outputs/images/${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}-${num}.png`;
    case 'fooocus-png':
      return `Fooocus/outputs/${day}/${day}_12-00-00_${num}.png`;
    case 'novelai-png':
      return `Downloads/novelai/${day}/${num}.png`;
    case 'swarmui-png':
      return `SwarmUI/Output/local/raw/${day}/${num}-swarm.png`;
    case 'plain-png':
      return `Pictures/edits/${day}/edit-${num}.png`;
  }
}

/**
 * The top-level folders in the order the importer walks them (by name, upper case first) and the kinds in each:
 * files are read in the order they are found, so the time between crossings is each tool's own rate.
 */
export const FOLDERS: Array<{ folder: string; kinds: Array<Kind | 'damaged'> }> = [
  { folder: 'ComfyUI', kinds: ['comfyui-png'] },
  { folder: 'Downloads (NovelAI)', kinds: ['novelai-png'] },
  { folder: 'Fooocus', kinds: ['fooocus-png'] },
  { folder: 'Pictures (no metadata)', kinds: ['plain-png'] },
  { folder: 'SwarmUI', kinds: ['swarmui-png'] },
  { folder: 'invokeai', kinds: ['invokeai-png'] },
  {
    folder: 'stable-diffusion-webui (A1111 PNG/JPEG/WebP)',
    kinds: ['a1111-png', 'a1111-jpeg', 'a1111-webp', 'damaged'],
  },
];
