import type { GenerateRequest, ProviderCapabilities } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { assetBaseName } from '../../../shared/mapping/asset-names.js';
import { formatSeed, seedToBigInt } from '../../../shared/seed.js';
import { LORA_TAG_UNSAFE } from '../lora-text.js';
import type { ProviderConfig } from '../types.js';
import { credentials } from './connection.js';
import { a1111Operations, validateA1111Operation } from './operations.js';

/** A1111 seeds its RNG with a 32-bit value: -1 (random) or 0 … 2^32-1. */
const A1111_MAX_SEED = 0xffffffffn;
/**
 * The API defaults differ from the UI (steps 50, sampler "Euler"), so these are always sent
 * (docs/provider-protocols.md §7.7).
 */
export const A1111_DEFAULTS = { steps: 20, cfgScale: 7, sampler: 'Euler a', scheduler: 'Automatic' } as const;
const SAMPLERS = [
  'Euler a',
  'Euler',
  'DPM++ 2M',
  'DPM++ SDE',
  'DPM++ 2M SDE',
  'DPM++ 3M SDE',
  'UniPC',
  'DDIM',
  'Heun',
  'LMS',
];

export function capabilities(config: ProviderConfig): ProviderCapabilities {
  return {
    sizes: {
      min: 64,
      max: 2048,
      multipleOf: 8,
      presets: [
        [512, 512],
        [768, 768],
        [1024, 1024],
        [832, 1216],
        [1216, 832],
        [896, 1152],
        [1152, 896],
      ],
    },
    maxCount: 10,
    steps: { min: 1, max: 150, default: A1111_DEFAULTS.steps },
    guidance: { min: 1, max: 30, default: A1111_DEFAULTS.cfgScale },
    seed: true,
    negativePrompt: true,
    maxPartialImages: 3,
    outputFormats: ['png'],
    operations: a1111Operations(config),
    samplers: SAMPLERS,
    loras: true,
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

export function validate(request: GenerateRequest, config: ProviderConfig): void {
  credentials(config);
  validateA1111Operation(request, config);
  validateLoras(request);
  // An upscale's size is its source's times the factor; the request's width and height do not apply.
  if (request.upscale !== undefined) return;
  const caps = capabilities(config);
  if (request.width > caps.sizes.max || request.height > caps.sizes.max)
    throw invalid(`A1111 sizes go up to ${caps.sizes.max}x${caps.sizes.max} here.`, 'width');
  if (request.width % 8 !== 0 || request.height % 8 !== 0)
    throw invalid(`A1111 needs a width and height divisible by 8 (got ${request.width}x${request.height}).`, 'width');
  if (request.guidance !== undefined && request.guidance < 1)
    throw invalid('A1111 needs a CFG scale of at least 1.', 'guidance');
  if (request.seed !== undefined && seedToBigInt(request.seed) > A1111_MAX_SEED) {
    const message =
      `A1111 seeds go up to ${A1111_MAX_SEED} (a 32-bit number); ${formatSeed(request.seed)} is ` +
      `larger. Nothing was sent.`;
    // `fields` puts the message under the Composer's seed field (a 64-bit seed reused from a ComfyUI image lands here).
    throw new AppError('invalid_request', message, { details: { field: 'seed', fields: { seed: message } } });
  }
  if (request.quality !== undefined)
    throw invalid('A1111 has no quality setting: use steps and the sampler instead.', 'quality');
  if (request.background !== undefined) throw invalid('A1111 has no background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png')
    throw invalid('Atelier asks A1111 for PNG only.', 'outputFormat');
}

/** A LoRA tag is `<lora:name:weight>`: a name holding `:`, `<` or `>` would be read as something else. */
function validateLoras(request: GenerateRequest): void {
  (request.loras ?? []).forEach((lora, index) => {
    const name = assetBaseName(lora.name);
    if (name === '' || LORA_TAG_UNSAFE.test(name))
      throw invalid(
        `A1111 cannot use the LoRA “${lora.name}”: its <lora:name:weight> tag cannot hold a name with “:”, “<” or “>”. ` +
          'Rename the file on the server.',
        `loras.${index}.name`,
      );
  });
}
