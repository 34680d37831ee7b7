import { type ApiGraph, defaultWorkflow } from './workflow.js';

/** What the default image-to-image graph starts from: strength 0.75 unless the request says (A1111's default too). */
export const DEFAULT_STRENGTH = 0.75;

/**
 * The default image-to-image graph (docs/provider-protocols.md §9): the txt2img graph of §3.2 with EmptyLatentImage
 * replaced by LoadImage → VAEEncode, the sampler's denoise from {{denoise}}. With a mask, LoadImageMask →
 * SetLatentNoiseMask limits the noise to the white area, and ImageCompositeMasked pastes the decoded result over the
 * source only there, so the VAE round trip cannot soften what the mask keeps.
 */
export function defaultImageWorkflow(options: { mask: boolean; count: number }): ApiGraph {
  const graph = defaultWorkflow();
  delete graph['5'];
  graph['10'] = { class_type: 'LoadImage', inputs: { image: '{{input_image}}' } };
  graph['11'] = { class_type: 'VAEEncode', inputs: { pixels: ['10', 0], vae: ['4', 2] } };
  let latent: [string, number] = ['11', 0];
  if (options.mask) {
    graph['12'] = { class_type: 'LoadImageMask', inputs: { image: '{{mask}}', channel: 'red' } };
    graph['13'] = { class_type: 'SetLatentNoiseMask', inputs: { samples: latent, mask: ['12', 0] } };
    latent = ['13', 0];
  }
  // VAEEncode of one image is a batch of one; N results need N latents (each gets its own noise from the seed).
  if (options.count > 1) {
    graph['14'] = { class_type: 'RepeatLatentBatch', inputs: { samples: latent, amount: '{{batch_size}}' } };
    latent = ['14', 0];
  }
  graph['3']!.inputs = { ...graph['3']!.inputs, denoise: '{{denoise}}', latent_image: latent };
  if (options.mask) {
    let destination: [string, number] = ['10', 0];
    // ImageCompositeMasked trims the source batch to the destination's, so the source image is repeated first.
    if (options.count > 1) {
      graph['16'] = { class_type: 'RepeatImageBatch', inputs: { image: destination, amount: '{{batch_size}}' } };
      destination = ['16', 0];
    }
    graph['15'] = {
      class_type: 'ImageCompositeMasked',
      inputs: { destination, source: ['8', 0], x: 0, y: 0, resize_source: false, mask: ['12', 0] },
    };
    graph['9']!.inputs = { ...graph['9']!.inputs, images: ['15', 0] };
  }
  return graph;
}

/**
 * The upscale graph: LoadImage → ImageUpscaleWithModel (then ImageScale to the exact size, since a model has its own
 * fixed factor) when the server has an upscale model, else ImageScaleBy with Lanczos. No checkpoint is loaded.
 */
export function upscaleWorkflow(input: {
  image: string;
  width: number;
  height: number;
  factor: number;
  model?: string;
}): ApiGraph {
  const graph: ApiGraph = { '10': { class_type: 'LoadImage', inputs: { image: input.image } } };
  if (input.model !== undefined) {
    graph['20'] = { class_type: 'UpscaleModelLoader', inputs: { model_name: input.model } };
    graph['21'] = { class_type: 'ImageUpscaleWithModel', inputs: { upscale_model: ['20', 0], image: ['10', 0] } };
    graph['22'] = {
      class_type: 'ImageScale',
      inputs: {
        image: ['21', 0],
        upscale_method: 'lanczos',
        width: input.width * input.factor,
        height: input.height * input.factor,
        crop: 'disabled',
      },
    };
    graph['9'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Atelier_upscale', images: ['22', 0] } };
  } else {
    graph['21'] = {
      class_type: 'ImageScaleBy',
      inputs: { image: ['10', 0], upscale_method: 'lanczos', scale_by: input.factor },
    };
    graph['9'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Atelier_upscale', images: ['21', 0] } };
  }
  return graph;
}
