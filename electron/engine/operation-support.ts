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
  if (op.operation !== 'img2img' && op.operation !== 'inpaint' && op.operation !== 'upscale') return;
  const support = capabilities.operations[op.operation];
  if (support.supported) return;
  const verb = { img2img: 'work from an image', inpaint: 'repaint a masked area', upscale: 'upscale' }[op.operation];
  const message = `${providerName} cannot ${verb}${support.reason === undefined ? '.' : `: ${support.reason}`}`;
  throw new AppError('invalid_request', message, { details: { fields: { [FIELD[op.operation]]: message } } });
}
