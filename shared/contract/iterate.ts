/** Working from an image (image-to-image, masked edit, variations, upscale), presets and prompt history. */
import { z } from 'zod';
import { Id, ProviderId, int, num } from './common.js';

/** What a job did with its source image; `generate` has none. */
export const OPERATIONS = ['generate', 'img2img', 'inpaint', 'variation', 'upscale'] as const;
export const Operation = z.enum(OPERATIONS);
export type Operation = z.infer<typeof Operation>;

export const PROVIDER_KINDS = [
  'builtin',
  'openai',
  'gemini',
  'bfl',
  'fal',
  'replicate',
  'stability',
  'a1111',
  'comfyui',
  'runpod',
] as const;
export const ProviderKind = z.enum(PROVIDER_KINDS, {
  error: `A provider kind is one of ${PROVIDER_KINDS.join(', ')}.`,
});
export type ProviderKind = z.infer<typeof ProviderKind>;

/** `any:comfyui`: the scheduler picks a healthy instance of that kind when the job starts. */
export const ANY_PREFIX = 'any:';
export const AnyOfKind = z
  .string()
  .regex(
    new RegExp(`^${ANY_PREFIX}(${PROVIDER_KINDS.join('|')})$`),
    `any: names a kind: ${PROVIDER_KINDS.map((k) => ANY_PREFIX + k).join(', ')}.`,
  );
/** One instance by id, or any instance of one kind. */
export const ProviderTarget = z.union([ProviderId, AnyOfKind], {
  error: 'Choose a provider: an instance id such as comfyui, or any:<kind> such as any:comfyui.',
});

export function kindOfTarget(target: string): ProviderKind | undefined {
  if (!target.startsWith(ANY_PREFIX)) return undefined;
  const kind = target.slice(ANY_PREFIX.length);
  return (PROVIDER_KINDS as readonly string[]).includes(kind) ? (kind as ProviderKind) : undefined;
}

export const InputImage = z.strictObject({
  imageId: Id,
  /** How far the result may move from the input: 0 keeps it, 1 ignores it (A1111's denoising_strength). */
  strength: num('Strength', 0, 1).optional(),
});
export type InputImage = z.infer<typeof InputImage>;

/** The most library images one request may send as references (Gemini 3 Pro Image takes 14). */
export const MAX_REFERENCE_IMAGES = 14;
/** Library images the model looks at beside the prompt (a character, a style, an object), in the order given. */
export const ReferenceImages = z
  .array(z.strictObject({ imageId: Id }))
  .min(1, 'Leave referenceImages out rather than empty.')
  .max(MAX_REFERENCE_IMAGES, `At most ${MAX_REFERENCE_IMAGES} reference images.`);

/** A mask saved with `images.saveMask`: white repaints, black keeps. */
export const MaskRef = z.strictObject({ imageId: Id });

export const UPSCALE_FACTORS = [2, 4] as const;
export const UpscaleRequest = z.strictObject({
  imageId: Id,
  factor: z.union([z.literal(2), z.literal(4)], { error: 'Upscale by 2 or 4.' }),
  /** A1111's upscaler name or ComfyUI's upscale model; absent: the provider's best. */
  upscaler: z.string().min(1).max(200, 'An upscaler name is at most 200 characters.').optional(),
});
export type UpscaleRequest = z.infer<typeof UpscaleRequest>;

export const VariationOf = z.strictObject({ imageId: Id });

/** The fields a GenerateRequest gains for working from an image (merged into it in jobs.ts). */
export const IterateFields = {
  inputImage: InputImage.optional(),
  referenceImages: ReferenceImages.optional(),
  mask: MaskRef.optional(),
  upscale: UpscaleRequest.optional(),
  /** Same settings, new seeds: recorded as lineage; the request carries the settings itself. */
  variationOf: VariationOf.optional(),
  /** ComfyUI's scheduler, A1111's "Schedule type" (karras, exponential…). */
  scheduler: z.string().min(1).max(64, 'A scheduler name is at most 64 characters.').optional(),
};

/** One request's operation and source image, or a clear message when its parts conflict. */
export function operationOf(request: {
  inputImage?: { imageId: string } | undefined;
  mask?: { imageId: string } | undefined;
  upscale?: { imageId: string } | undefined;
  variationOf?: { imageId: string } | undefined;
  count?: number;
}): { operation: Operation; parentImageId?: string } | { error: string; field: string } {
  const { inputImage, mask, upscale, variationOf } = request;
  if (upscale !== undefined) {
    if (inputImage !== undefined || mask !== undefined)
      return { error: 'An upscale works on its own image: leave out the input image and the mask.', field: 'upscale' };
    if (variationOf !== undefined)
      return { error: 'An upscale is not a variation: leave out variationOf.', field: 'variationOf' };
    if (request.count !== undefined && request.count !== 1)
      return { error: 'An upscale makes one image: set count to 1.', field: 'count' };
    return { operation: 'upscale', parentImageId: upscale.imageId };
  }
  if (mask !== undefined && inputImage === undefined)
    return { error: 'A mask needs the image it paints over: add inputImage.', field: 'mask' };
  if (inputImage !== undefined && variationOf !== undefined)
    return { error: 'Use either an input image or variationOf, not both.', field: 'variationOf' };
  if (mask !== undefined && inputImage !== undefined)
    return { operation: 'inpaint', parentImageId: inputImage.imageId };
  if (inputImage !== undefined) return { operation: 'img2img', parentImageId: inputImage.imageId };
  if (variationOf !== undefined) return { operation: 'variation', parentImageId: variationOf.imageId };
  return { operation: 'generate' };
}

/** Whether a provider can do an operation, and when not, why (the button shows it). */
export const OperationSupport = z.object({ supported: z.boolean(), reason: z.string().optional() });
export type OperationSupport = z.infer<typeof OperationSupport>;
export const OperationCapabilities = z.object({
  img2img: OperationSupport,
  inpaint: OperationSupport,
  upscale: OperationSupport.extend({
    /** Named upscalers the server offers (A1111's /sdapi/v1/upscalers, ComfyUI's upscale models). */
    upscalers: z.array(z.string()).optional(),
  }),
});
export type OperationCapabilities = z.infer<typeof OperationCapabilities>;

/** A provider that works from text only: every operation says so, with its reason. */
export function textOnlyOperations(reason: string): OperationCapabilities {
  return {
    img2img: { supported: false, reason },
    inpaint: { supported: false, reason },
    upscale: { supported: false, reason },
  };
}

/** A mask painted in the viewer: a PNG the size of its source image, white where to repaint. */
export const SaveMask = z.strictObject({
  imageId: Id,
  /** base64 PNG, at most 24 MB encoded. */
  png: z.string().min(1, 'The mask is empty.').max(32_000_000, 'A mask is at most 24 MB.'),
});
export const SavedMask = z.object({
  maskId: Id,
  width: z.number().int(),
  height: z.number().int(),
  coverage: z.number().min(0).max(1),
});

const Name = z.string().trim().min(1, 'Give the preset a name.').max(100, 'A preset name is at most 100 characters.');

/** Saved composer settings; a template with {prompt} wraps what the person types. */
export const PresetFields = z.strictObject({
  name: Name,
  provider: ProviderTarget.optional(),
  model: z.string().min(1).max(200).optional(),
  width: int('Width', 64, 4096).optional(),
  height: int('Height', 64, 4096).optional(),
  steps: int('Steps', 1, 150).optional(),
  guidance: num('Guidance', 0, 30).optional(),
  sampler: z.string().min(1).max(64).optional(),
  scheduler: z.string().min(1).max(64).optional(),
  negativePrompt: z.string().max(32_000).optional(),
  template: z.string().max(32_000, 'A template is at most 32,000 characters.').optional(),
});
export const SavePreset = PresetFields.extend({ id: Id.optional() });
export const Preset = PresetFields.extend({
  id: Id,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  source: z.enum(['atelier', 'styles.csv']),
});
export type Preset = z.infer<typeof Preset>;

export const ImportStyles = z.strictObject({
  csv: z.string().min(1, 'The styles file is empty.').max(5_000_000, 'A styles file is at most 5 MB.'),
});
export const ImportedStyles = z.object({
  imported: z.number().int(),
  updated: z.number().int(),
  skipped: z.array(z.object({ line: z.number().int(), reason: z.string() })),
});

export const PromptHistoryQuery = z.strictObject({
  search: z.string().max(1_000).optional(),
  limit: int('Limit', 1, 500).default(100),
});
export const PromptHistory = z.object({
  items: z.array(z.object({ prompt: z.string(), usedAt: z.number().int(), uses: z.number().int() })),
});

/** A new instance of a kind (another ComfyUI on the network). Its id is made from the kind. */
export const AddProvider = z.strictObject({
  kind: ProviderKind,
  name: z.string().trim().min(1, 'Name the server.').max(100, 'A name is at most 100 characters.'),
  baseUrl: z
    .string()
    .max(2048)
    .regex(
      /^https?:\/\/[^\s/?#]+[^\s]*$/i,
      'A base URL starts with http:// or https://, like http://192.168.1.20:8188.',
    )
    .optional(),
  concurrency: int('Concurrency', 1, 16).optional(),
});

export const INSTANCE_HEALTH = ['unknown', 'up', 'down'] as const;
export const InstanceHealth = z.object({
  state: z.enum(INSTANCE_HEALTH),
  /** When it was last seen answering, or went down. */
  since: z.number().int().optional(),
  /** Down: when it is probed next (backoff). */
  nextProbeAt: z.number().int().optional(),
  message: z.string().max(500).optional(),
  /** Jobs running on it now. */
  running: z.array(Id),
  /** The model it last ran (a server keeps it loaded). */
  loadedModel: z.string().optional(),
});
export type InstanceHealth = z.infer<typeof InstanceHealth>;
