import {
  type GenerateRequest,
  type OperationCapabilities,
  type ProviderCapabilities,
  operationOf,
} from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

/**
 * Request rules differ per model family (docs/provider-protocols.md §1.3). Unknown names come from compatible servers.
 */
export type OpenAIFamily = 'gpt-image' | 'gpt-image-2' | 'dall-e-3' | 'dall-e-2' | 'compatible';

export const OPENAI_MODELS = ['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'gpt-image-2', 'dall-e-3'] as const;
export const DEFAULT_OPENAI_MODEL = 'gpt-image-1';

export function familyOf(model: string): OpenAIFamily {
  if (model.startsWith('gpt-image-2')) return 'gpt-image-2';
  if (model.startsWith('gpt-image-') || model.startsWith('chatgpt-image')) return 'gpt-image';
  if (model.startsWith('dall-e-3')) return 'dall-e-3';
  if (model.startsWith('dall-e-2')) return 'dall-e-2';
  return 'compatible';
}

/** GPT image models only: streaming, partial previews, quality/background/format. */
export function isGptImage(family: OpenAIFamily): boolean {
  return family === 'gpt-image' || family === 'gpt-image-2';
}

const GPT_SIZES: [number, number][] = [
  [1024, 1024],
  [1536, 1024],
  [1024, 1536],
];
const DALLE3_SIZES: [number, number][] = [
  [1024, 1024],
  [1792, 1024],
  [1024, 1792],
];
const DALLE2_SIZES: [number, number][] = [
  [256, 256],
  [512, 512],
  [1024, 1024],
];
/** gpt-image-2: both sides divisible by 16, aspect within 1:3..3:1, at most 3840x2160 worth of pixels. */
const GPT2_MAX_EDGE = 3840;
const GPT2_MAX_PIXELS = 3840 * 2160;

const PROMPT_LIMIT: Record<OpenAIFamily, number> = {
  'gpt-image': 32_000,
  'gpt-image-2': 32_000,
  'dall-e-3': 4_000,
  'dall-e-2': 1_000,
  compatible: 32_000,
};

const LABEL: Record<OpenAIFamily, string> = {
  'gpt-image': 'GPT image models',
  'gpt-image-2': 'gpt-image-2',
  'dall-e-3': 'DALL·E 3',
  'dall-e-2': 'DALL·E 2',
  compatible: 'this OpenAI-compatible model',
};

const NO_UPSCALE =
  'OpenAI cannot upscale: its image API only makes and edits images. Upscale with AUTOMATIC1111, ComfyUI or the ' +
  'built-in provider.';

/**
 * What each model does with an image (docs/provider-protocols.md §1.4): GPT image models edit freely, DALL·E 2 only
 * inside a mask.
 */
export function openAIOperations(family: OpenAIFamily): OperationCapabilities {
  const upscale = { supported: false, reason: NO_UPSCALE };
  switch (family) {
    case 'gpt-image':
    case 'gpt-image-2':
      return { img2img: { supported: true }, inpaint: { supported: true }, upscale };
    case 'dall-e-2': {
      return {
        img2img: {
          supported: false,
          reason:
            'DALL·E 2 changes an image only where a mask says: paint the area to repaint, or use a GPT image model.',
        },
        inpaint: { supported: true },
        upscale,
      };
    }
    case 'dall-e-3': {
      const reason =
        'DALL·E 3 makes images from text only: it cannot take an image. Choose gpt-image-1 (or DALL·E 2 for a masked ' +
        'edit).';
      return { img2img: { supported: false, reason }, inpaint: { supported: false, reason }, upscale };
    }
    case 'compatible': {
      const reason =
        'Atelier sends images only to OpenAI’s own image models (GPT image, DALL·E 2); this OpenAI-compatible model ' +
        'may not take one.';
      return { img2img: { supported: false, reason }, inpaint: { supported: false, reason }, upscale };
    }
  }
}

export function openAICapabilities(model: string): ProviderCapabilities {
  const family = familyOf(model);
  switch (family) {
    case 'gpt-image':
      return {
        sizes: { min: 1024, max: 1536, multipleOf: 16, fixed: GPT_SIZES, presets: GPT_SIZES },
        maxCount: 10,
        seed: false,
        negativePrompt: false,
        maxPartialImages: 3,
        qualities: ['auto', 'low', 'medium', 'high'],
        backgrounds: ['auto', 'transparent', 'opaque'],
        outputFormats: ['png', 'jpeg', 'webp'],
        operations: openAIOperations(family),
      };
    case 'gpt-image-2':
      return {
        sizes: {
          min: 64,
          max: GPT2_MAX_EDGE,
          multipleOf: 16,
          presets: [...GPT_SIZES, [2048, 2048], [2560, 1440], [1440, 2560]],
        },
        maxCount: 10,
        seed: false,
        negativePrompt: false,
        maxPartialImages: 3,
        qualities: ['auto', 'low', 'medium', 'high'],
        backgrounds: ['auto', 'opaque'],
        outputFormats: ['png', 'jpeg', 'webp'],
        operations: openAIOperations(family),
      };
    case 'dall-e-3':
      return {
        sizes: { min: 1024, max: 1792, multipleOf: 16, fixed: DALLE3_SIZES, presets: DALLE3_SIZES },
        maxCount: 1,
        seed: false,
        negativePrompt: false,
        maxPartialImages: 0,
        qualities: ['standard', 'hd'],
        outputFormats: ['png'],
        operations: openAIOperations(family),
      };
    case 'dall-e-2':
      return {
        sizes: { min: 256, max: 1024, multipleOf: 16, fixed: DALLE2_SIZES, presets: DALLE2_SIZES },
        maxCount: 10,
        seed: false,
        negativePrompt: false,
        maxPartialImages: 0,
        qualities: ['standard'],
        outputFormats: ['png'],
        operations: openAIOperations(family),
      };
    case 'compatible':
      return {
        sizes: { min: 64, max: 4096, multipleOf: 8, presets: [[512, 512], ...GPT_SIZES] },
        maxCount: 10,
        seed: false,
        negativePrompt: false,
        maxPartialImages: 0,
        outputFormats: ['png'],
        operations: openAIOperations(family),
      };
  }
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** Everything OpenAI would reject for this model, caught before a request (and a bill) happens. */
export function validateOpenAIRequest(request: GenerateRequest, model: string): void {
  const family = familyOf(model);
  const caps = openAICapabilities(model);
  const label = LABEL[family];
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  if ('operation' in op && (op.operation === 'img2img' || op.operation === 'inpaint' || op.operation === 'upscale')) {
    const support = caps.operations[op.operation];
    if (!support.supported)
      throw invalid(
        support.reason ?? `${label} cannot do this.`,
        op.operation === 'upscale' ? 'upscale' : 'inputImage',
      );
  }
  if (request.prompt.length > PROMPT_LIMIT[family]) {
    throw invalid(
      `${label} accept prompts of at most ${PROMPT_LIMIT[family].toLocaleString('en-US')} characters.`,
      'prompt',
    );
  }
  const { width, height } = request;
  if (caps.sizes.fixed !== undefined) {
    if (!caps.sizes.fixed.some(([w, h]) => w === width && h === height)) {
      const list = caps.sizes.fixed.map(([w, h]) => `${w}x${h}`).join(', ');
      throw invalid(`${label} make images of ${list} only, not ${width}x${height}.`, 'width');
    }
  } else if (family === 'gpt-image-2') {
    if (width % 16 !== 0 || height % 16 !== 0)
      throw invalid(`gpt-image-2 needs a width and height divisible by 16 (got ${width}x${height}).`, 'width');
    if (width > GPT2_MAX_EDGE || height > GPT2_MAX_EDGE || width * height > GPT2_MAX_PIXELS) {
      throw invalid(`gpt-image-2 makes images of at most 3840x2160 pixels (got ${width}x${height}).`, 'width');
    }
    if (width > height * 3 || height > width * 3)
      throw invalid(`gpt-image-2 needs an aspect ratio between 1:3 and 3:1 (got ${width}x${height}).`, 'width');
  } else if (width % caps.sizes.multipleOf !== 0 || height % caps.sizes.multipleOf !== 0) {
    throw invalid(`Width and height must be multiples of ${caps.sizes.multipleOf} for ${label}.`, 'width');
  }
  if (request.count > caps.maxCount) {
    throw invalid(
      family === 'dall-e-3'
        ? 'DALL·E 3 makes one image per request: set the count to 1.'
        : `${label} make at most ${caps.maxCount} images per request.`,
      'count',
    );
  }
  if (request.negativePrompt !== undefined && request.negativePrompt.trim() !== '') {
    throw invalid('OpenAI has no negative prompt: describe what you want instead.', 'negativePrompt');
  }
  if (request.seed !== undefined)
    throw invalid('OpenAI does not take a seed, so results cannot be repeated exactly.', 'seed');
  if (request.steps !== undefined) throw invalid('OpenAI does not take a step count.', 'steps');
  if (request.guidance !== undefined) throw invalid('OpenAI does not take a guidance scale.', 'guidance');
  if (request.sampler !== undefined) throw invalid('OpenAI does not take a sampler.', 'sampler');
  if (request.quality !== undefined && !(caps.qualities ?? []).includes(request.quality)) {
    const allowed = caps.qualities === undefined ? 'no quality setting' : `quality ${caps.qualities.join(', ')}`;
    throw invalid(`${label} take ${allowed}, not "${request.quality}".`, 'quality');
  }
  if (request.background !== undefined && !(caps.backgrounds ?? []).includes(request.background)) {
    throw invalid(
      family === 'gpt-image-2' && request.background === 'transparent'
        ? 'gpt-image-2 cannot make transparent backgrounds.'
        : `${label} do not take a background setting.`,
      'background',
    );
  }
  if (request.outputFormat !== undefined && !caps.outputFormats.includes(request.outputFormat)) {
    throw invalid(`${label} return ${caps.outputFormats.join(', ')} only.`, 'outputFormat');
  }
  if (request.background === 'transparent' && request.outputFormat === 'jpeg') {
    throw invalid('A transparent background needs PNG or WebP output, not JPEG.', 'background');
  }
  if (request.partialImages !== undefined && request.partialImages > caps.maxPartialImages) {
    throw invalid(
      caps.maxPartialImages === 0
        ? `${label} do not stream partial previews.`
        : `At most ${caps.maxPartialImages} partial previews.`,
      'partialImages',
    );
  }
}

/** The JSON body for POST /v1/images/generations; every GPT-image-only field is left out for DALL·E and vice versa. */
export function generationBody(request: GenerateRequest, model: string): Record<string, unknown> {
  const family = familyOf(model);
  const body: Record<string, unknown> = {
    model,
    prompt: request.prompt,
    n: request.count,
    size: `${request.width}x${request.height}`,
  };
  if (isGptImage(family)) {
    if (request.quality !== undefined) body.quality = request.quality;
    if (request.background !== undefined) body.background = request.background;
    if (request.outputFormat !== undefined) body.output_format = request.outputFormat;
    if (request.partialImages !== undefined && request.partialImages > 0) {
      body.stream = true;
      body.partial_images = request.partialImages;
    }
  } else {
    // DALL·E defaults to short-lived URLs; compatible servers (LocalAI) too unless asked for b64_json.
    body.response_format = 'b64_json';
    if (family === 'dall-e-3' && request.quality !== undefined) body.quality = request.quality;
  }
  return body;
}
