import { AppError } from '../../shared/errors.js';
import { operationOf, type GenerateRequest, type ProviderCapabilities } from '../../shared/contract.js';

const FIELD = { img2img: 'inputImage', inpaint: 'mask', upscale: 'upscale' } as const;

/** Refuses, before anything is stored or sent, an operation the chosen provider says it cannot do, with its reason. */
export function checkOperationSupported(
  request: GenerateRequest,
  providerName: string,
  capabilities: ProviderCapabilities,
): void {
  const op = operationOf(request);
  if ('error' in op) throw new AppError('invalid_request', op.error, { details: { fields: { [op.field]: op.error } } });
  checkReferences(request, providerName, capabilities);
  if (op.operation !== 'img2img' && op.operation !== 'inpaint' && op.operation !== 'upscale') return;
  const support = capabilities.operations[op.operation];
  if (support.supported) return;
  const verb = { img2img: 'work from an image', inpaint: 'repaint a masked area', upscale: 'upscale' }[op.operation];
  const message = `${providerName} cannot ${verb}${support.reason === undefined ? '.' : `: ${support.reason}`}`;
  throw new AppError('invalid_request', message, { details: { fields: { [FIELD[op.operation]]: message } } });
}

/** Reference images beyond what the model takes are refused, never dropped silently: the person chose each one. */
function checkReferences(request: GenerateRequest, providerName: string, capabilities: ProviderCapabilities): void {
  const count = request.referenceImages?.length ?? 0;
  if (count === 0) return;
  const max = capabilities.maxReferenceImages ?? 0;
  if (count <= max) return;
  const model = request.model === undefined ? providerName : `${providerName} ${request.model}`;
  const message =
    max === 0
      ? `${model} takes no reference images: remove them, or choose a model that takes them (Gemini, FLUX.2).`
      : `${model} takes at most ${max} reference image${max === 1 ? '' : 's'}; this job has ${count}.`;
  throw new AppError('invalid_request', message, { details: { fields: { referenceImages: message } } });
}
