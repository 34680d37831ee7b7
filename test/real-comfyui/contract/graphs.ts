/** The API graphs the contract drives a server with (the standard text-to-image wiring of websockets_api_example.py). */
export type Graph = Record<string, { class_type?: string; inputs: Record<string, unknown> }>;

/** The models the kit's setup.sh writes; the fake is started with the same names for the contract. */
export const KIT_CHECKPOINTS = ['atelier-tiny-sd15-taesd.safetensors', 'atelier-tiny-sd15.safetensors'];
export const KIT_CHECKPOINT = 'atelier-tiny-sd15.safetensors';
export const KIT_UPSCALER = 'atelier-tiny-esrgan-2x.safetensors';

export interface Txt2Img {
  seed?: number;
  steps?: number;
  width?: number;
  height?: number;
  batch?: number;
  prefix?: string;
  prompt?: string;
  sampler?: string;
  scheduler?: string;
}

export function txt2img(o: Txt2Img = {}): Graph {
  return {
    '3': {
      class_type: 'KSampler',
      inputs: {
        seed: o.seed ?? 1,
        steps: o.steps ?? 2,
        cfg: 7,
        sampler_name: o.sampler ?? 'euler',
        scheduler: o.scheduler ?? 'normal',
        denoise: 1,
        model: ['4', 0],
        positive: ['6', 0],
        negative: ['7', 0],
        latent_image: ['5', 0],
      },
    },
    '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: KIT_CHECKPOINT } },
    '5': {
      class_type: 'EmptyLatentImage',
      inputs: { width: o.width ?? 64, height: o.height ?? 64, batch_size: o.batch ?? 1 },
    },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: o.prompt ?? 'a red fox', clip: ['4', 1] } },
    '7': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
    '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
    '9': { class_type: 'SaveImage', inputs: { filename_prefix: o.prefix ?? 'Contract', images: ['8', 0] } },
  };
}

/** Image-to-image (and, with a mask, a masked edit with a batch): LoadImage → VAEEncode, as Atelier's default graph. */
export function imageGraph(image: string, mask?: string, count = 1, prompt = 'a red fox'): Graph {
  const g = txt2img({ seed: 5, prompt });
  delete g['5'];
  g['10'] = { class_type: 'LoadImage', inputs: { image } };
  g['11'] = { class_type: 'VAEEncode', inputs: { pixels: ['10', 0], vae: ['4', 2] } };
  let latent: [string, number] = ['11', 0];
  if (mask !== undefined) {
    g['12'] = { class_type: 'LoadImageMask', inputs: { image: mask, channel: 'red' } };
    g['13'] = { class_type: 'SetLatentNoiseMask', inputs: { samples: latent, mask: ['12', 0] } };
    latent = ['13', 0];
  }
  if (count > 1) {
    g['14'] = { class_type: 'RepeatLatentBatch', inputs: { samples: latent, amount: count } };
    latent = ['14', 0];
  }
  g['3']!.inputs = { ...g['3']!.inputs, denoise: 0.75, latent_image: latent };
  return g;
}

export function upscaleGraph(image: string, width: number, height: number, factor: number, model?: string): Graph {
  const g: Graph = { '10': { class_type: 'LoadImage', inputs: { image } } };
  if (model !== undefined) {
    g['20'] = { class_type: 'UpscaleModelLoader', inputs: { model_name: model } };
    g['21'] = { class_type: 'ImageUpscaleWithModel', inputs: { upscale_model: ['20', 0], image: ['10', 0] } };
    g['22'] = {
      class_type: 'ImageScale',
      inputs: {
        image: ['21', 0],
        upscale_method: 'lanczos',
        width: width * factor,
        height: height * factor,
        crop: 'disabled',
      },
    };
    g['9'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Contract_upscale', images: ['22', 0] } };
  } else {
    g['21'] = { class_type: 'ImageScaleBy', inputs: { image: ['10', 0], upscale_method: 'lanczos', scale_by: factor } };
    g['9'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Contract_upscale', images: ['21', 0] } };
  }
  return g;
}

/** Graphs the server refuses, each for one of validate_prompt's shapes. */
export function invalidGraphs(): Record<string, Graph> {
  const edit = (change: (g: Graph) => void): Graph => {
    const g = txt2img();
    change(g);
    return g;
  };
  return {
    bad_checkpoint: edit((g) => (g['4']!.inputs.ckpt_name = 'x.safetensors')),
    steps_not_a_number: edit((g) => (g['3']!.inputs.steps = '{{steps}}')),
    sampler_and_width: edit((g) => {
      g['3']!.inputs.sampler_name = 'nope';
      g['5']!.inputs.width = 4;
    }),
    scheduler_short_list: edit((g) => (g['3']!.inputs.scheduler = 'nope')),
    cfg_too_big: edit((g) => (g['3']!.inputs.cfg = 1000)),
    unknown_class: edit((g) => (g['9']!.class_type = 'NoSuchNode')),
    no_output: edit((g) => delete g['9']),
    missing_input: edit((g) => delete g['3']!.inputs.seed),
    link_to_missing_node: edit((g) => (g['3']!.inputs.model = ['99', 0])),
    type_mismatch: edit((g) => (g['8']!.inputs.vae = ['4', 1])),
    node_without_class_type: edit((g) => (g['10'] = { inputs: {} })),
  };
}

/** Two outputs: SaveImage 9 (valid) and SaveImage 11 fed by a LoadImage of a file the server does not have. */
export function twoBranchGraph(prompt: string, missingFile = 'not-there.png'): Graph {
  const g = txt2img({ prompt, seed: 11 });
  g['10'] = { class_type: 'LoadImage', inputs: { image: missingFile } };
  g['11'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Contract_branch', images: ['10', 0] } };
  return g;
}

/** The SaveImage branch reads a file the server does not have; a PreviewImage of the sampled image is valid and runs. */
export function droppedSaveGraph(prompt: string): Graph {
  const g = txt2img({ prompt, seed: 12 });
  g['10'] = { class_type: 'LoadImage', inputs: { image: 'not-there.png' } };
  g['9']!.inputs.images = ['10', 0];
  g['12'] = { class_type: 'PreviewImage', inputs: { images: ['8', 0] } };
  return g;
}
