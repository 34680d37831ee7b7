/**
 * Working from an image, the pure part: which actions the chosen provider can do (and why not), and the request
 * each action submits (image-to-image, masked edit, variations, upscale).
 */
import type { ImageSummary, ProviderCapabilities, ProviderInfo, StoredRequest } from '../../../shared/contract';
import type { RequestWithoutKey } from '../composer/composer';
import { resolveTarget } from '../composer/composer-targets';
import { capabilitiesFor } from '../composer/capabilities-for';
import { MAX_REFERENCE_IMAGES } from '../common/contract-constants';

export type IterateAction = 'useAsInput' | 'edit' | 'variations' | 'upscale2' | 'upscale4' | 'addReference';

export const ITERATE_ACTIONS: readonly IterateAction[] = [
  'useAsInput',
  'edit',
  'variations',
  'upscale2',
  'upscale4',
  'addReference',
];

export const ACTION_LABELS: Record<IterateAction, string> = {
  useAsInput: 'Use as input',
  edit: 'Edit…',
  variations: 'Variations',
  upscale2: 'Upscale ×2',
  upscale4: 'Upscale ×4',
  addReference: 'Add as reference',
};

/** The keys (keyboard.ts maps them), as the tooltips and the help show them. */
export const ACTION_KEYS: Record<IterateAction, string> = {
  useAsInput: 'I',
  edit: 'E',
  variations: 'V',
  upscale2: 'U',
  upscale4: 'Shift+U',
  addReference: 'Shift+R',
};

/** A1111's usual denoising strength: the composition stays, the details change. */
export const DEFAULT_STRENGTH = 0.75;
/** Variations made at once when the composer asks for a single image. */
export const DEFAULT_VARIATIONS = 4;

/** The image the composer's next Generate works from. */
export interface WorkingFrom {
  imageId: string;
  jobId: string;
  strength: number;
  width: number;
  height: number;
}

export interface Support {
  enabled: boolean;
  /** Why not, in words a person understands (shown as the button's tooltip and beside it). */
  reason?: string;
  /** When it can: how this provider does it (the tooltip), from its capabilities. */
  note?: string;
}

/** The provider a target names: an instance id, or `any:<kind>` (its first turned-on instance stands for the kind). */
export function providerFor(providers: readonly ProviderInfo[], target: string): ProviderInfo | undefined {
  return resolveTarget(target, providers);
}

/** Variations run where the source ran when that provider is on; else on the composer's. */
export function variationProvider(
  providers: readonly ProviderInfo[],
  sourceProvider: string,
  composerProvider: string,
): ProviderInfo | undefined {
  const own = providerFor(providers, sourceProvider);
  if (own?.enabled === true) return own;
  const chosen = providerFor(providers, composerProvider);
  return chosen?.enabled === true ? chosen : undefined;
}

function operationOfAction(action: IterateAction): 'img2img' | 'inpaint' | 'upscale' | null {
  if (action === 'useAsInput') return 'img2img';
  if (action === 'edit') return 'inpaint';
  if (action === 'upscale2' || action === 'upscale4') return 'upscale';
  return null;
}

/** Whether an action can run on `provider` (the composer's, or for variations the one variationProvider picked). */
export function actionSupport(
  action: IterateAction,
  provider: ProviderInfo | undefined,
  image: Pick<ImageSummary, 'thumbPending'> | undefined,
  model?: string,
): Support {
  if (image === undefined) return { enabled: false, reason: 'This job has no finished image to work from.' };
  if (provider === undefined) return { enabled: false, reason: 'Turn on a provider in Settings first.' };
  if (!provider.enabled)
    return {
      enabled: false,
      reason: `${provider.name} is turned off: turn it on in Settings, or choose another provider.`,
    };
  const operation = operationOfAction(action);
  if (operation === null) return { enabled: true };
  // A model that can do less (or more) than the provider's default says so itself (OpenAI's dall-e-3 takes no image).
  const operations = capabilitiesFor(provider, model).operations;
  const support = operations[operation];
  if (support.supported)
    return support.reason === undefined ? { enabled: true } : { enabled: true, note: support.reason };
  return { enabled: false, reason: support.reason ?? `${provider.name} cannot do this.` };
}

/** A size the provider accepts nearest to the source's: snapped to its step and range, or its fixed size of the same shape. */
export function fitSize(width: number, height: number, caps: ProviderCapabilities | undefined): [number, number] {
  if (caps === undefined) return [clamp(width, 64, 4096), clamp(height, 64, 4096)];
  const { min, max, multipleOf, fixed } = caps.sizes;
  if (fixed !== undefined && fixed.length > 0) {
    const ratio = width / height;
    return [...fixed].sort(
      (a, b) => Math.abs(Math.log(a[0] / a[1] / ratio)) - Math.abs(Math.log(b[0] / b[1] / ratio)),
    )[0]!;
  }
  // A source larger than the provider takes keeps its shape, scaled down to fit.
  const scale = Math.min(1, max / Math.max(width, height));
  const snap = (v: number) => clamp(Math.round((v * scale) / multipleOf) * multipleOf, min, max);
  return [snap(width), snap(height)];
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** The composer's request, working from the chosen image when there is one (image-to-image). */
export function withInputImage(request: RequestWithoutKey, from: WorkingFrom | null): RequestWithoutKey {
  if (from === null) return request;
  return { ...request, inputImage: { imageId: from.imageId, strength: from.strength } };
}

/** A masked edit: the composer's settings (its prompt, else the source's), the source image and the saved mask. */
export function inpaintRequest(
  base: RequestWithoutKey,
  source: { imageId: string; prompt: string },
  maskId: string,
  strength: number,
): RequestWithoutKey {
  const prompt = base.prompt.trim() === '' ? source.prompt : base.prompt;
  const { variationOf: _v, upscale: _u, seed: _s, ...rest } = base;
  return { ...rest, prompt, count: 1, inputImage: { imageId: source.imageId, strength }, mask: { imageId: maskId } };
}

/** How many variations one press makes: the composer's count when the person raised it, else four. */
export function variationCount(composerCount: number, caps: ProviderCapabilities | undefined): number {
  const wanted = composerCount > 1 ? composerCount : DEFAULT_VARIATIONS;
  return Math.max(1, Math.min(wanted, caps?.maxCount ?? wanted, 10));
}

/** The source job's settings with new seeds (the seed left out), N at once, recorded as variations of the image. */
export function variationRequest(
  source: StoredRequest,
  imageId: string,
  provider: ProviderInfo,
  count: number,
): RequestWithoutKey {
  const { seed: _seed, inputImage: _i, mask: _m, upscale: _u, variationOf: _v, timeoutMs: _t, ...settings } = source;
  const request: RequestWithoutKey = { ...settings, provider: source.provider, count, variationOf: { imageId } };
  if (providerFor([provider], source.provider) !== provider) {
    // The source's provider is off: its settings on the composer's provider, at a size that one takes.
    request.provider = provider.id;
    if (!provider.models.includes(request.model ?? '')) delete request.model;
    [request.width, request.height] = fitSize(source.width, source.height, capabilitiesFor(provider, request.model));
  }
  return request;
}

/** An upscale: one image, the source job's prompt, on the composer's provider. */
export function upscaleRequest(
  source: { prompt: string },
  image: Pick<ImageSummary, 'id' | 'width' | 'height'>,
  factor: 2 | 4,
  providerId: string,
): RequestWithoutKey {
  const prompt = source.prompt.trim() === '' ? `Upscale ×${factor}` : source.prompt;
  // The request's size is the source's (the factor says how far it grows): always within what a request may carry.
  return {
    provider: providerId,
    prompt,
    width: clamp(image.width, 64, 4096),
    height: clamp(image.height, 64, 4096),
    count: 1,
    upscale: { imageId: image.id, factor },
  };
}

/** An action's support for one image: variations on the provider they would run on, the rest on the composer's. */
export function supportFor(
  action: IterateAction,
  context: {
    providers: readonly ProviderInfo[];
    composerProvider: string;
    composerModel?: string;
    job: { provider: string; status: string } | undefined;
    image: (Pick<ImageSummary, 'thumbPending'> & { id?: string }) | undefined;
    /** The composer's references, by image id (Add as reference). */
    references?: readonly string[];
  },
): Support {
  const { providers, composerProvider, composerModel, job, image } = context;
  if (job === undefined || job.status !== 'succeeded' || image === undefined)
    return { enabled: false, reason: 'This job has no finished image to work from.' };
  if (action === 'addReference') return referenceSupport(image.id, context.references ?? []);
  if (action === 'variations') {
    const provider = variationProvider(providers, job.provider, composerProvider);
    return actionSupport(action, provider ?? providerFor(providers, composerProvider), image);
  }
  return actionSupport(action, providerFor(providers, composerProvider), image, composerModel);
}

/** Any finished image can be added, whatever the model: the composer says which model sends them. */
function referenceSupport(imageId: string | undefined, references: readonly string[]): Support {
  if (imageId !== undefined && references.includes(imageId))
    return { enabled: false, reason: 'Already among the composer’s references.' };
  if (references.length >= MAX_REFERENCE_IMAGES)
    return {
      enabled: false,
      reason: `The composer holds at most ${MAX_REFERENCE_IMAGES} references: remove one first.`,
    };
  return { enabled: true, note: 'the model looks at it beside the prompt (Gemini, FLUX.2)' };
}

/** The action a key command stands for (Shift+U: upscale ×4). */
export function actionOfCommand(command: string | null, shiftKey: boolean): IterateAction | null {
  switch (command) {
    case 'useAsInput':
    case 'edit':
    case 'variations':
    case 'addReference':
      return command;
    case 'upscale':
      return shiftKey ? 'upscale4' : 'upscale2';
    default:
      return null;
  }
}
