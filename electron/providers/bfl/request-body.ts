import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { WorkInputs } from '../types.js';
import { takesStepsAndGuidance } from './models.js';

export type BflBody = Record<string, unknown> & { prompt: string; width: number; height: number };

/** A seed as BFL's integer: a 64-bit digit string stays exact (request.ts writes a bigint as its digits). */
function seedOf(seed: GenerateRequest['seed']): number | bigint | undefined {
  if (seed === undefined) return undefined;
  return typeof seed === 'number' ? seed : BigInt(seed);
}

/**
 * The submit body (docs/hosted-protocols.md §1.2): prompt, width, height, seed, output_format png, and for an edit
 * the job's source image as base64 `input_image` and its reference images in the next slots; flux-2-flex alone takes
 * steps and guidance.
 */
export function submitBody(request: GenerateRequest, model: string, inputs: WorkInputs | undefined): BflBody {
  const body: BflBody = { prompt: request.prompt, width: request.width, height: request.height, output_format: 'png' };
  const seed = seedOf(request.seed);
  if (seed !== undefined) body.seed = seed;
  if (takesStepsAndGuidance(model)) {
    if (request.steps !== undefined) body.steps = Math.min(50, request.steps);
    if (request.guidance !== undefined) body.guidance = Math.min(10, Math.max(1.5, request.guidance));
  }
  if (request.inputImage !== undefined) {
    const image = inputs?.image;
    if (image === undefined) {
      throw new AppError('internal', 'The source image was not read before the job started; nothing was sent.', {
        details: { phase: 'before_accept' },
      });
    }
    body.input_image = Buffer.from(image.data).toString('base64');
  }
  // References fill the next slots: input_image (when nothing is edited), then input_image_2 … input_image_8.
  const references = inputs?.references ?? [];
  if ((request.referenceImages?.length ?? 0) !== references.length) {
    throw new AppError('internal', 'The reference images were not read before the job started; nothing was sent.', {
      details: { phase: 'before_accept' },
    });
  }
  let slot = body.input_image === undefined ? 1 : 2;
  for (const reference of references) {
    body[slot === 1 ? 'input_image' : `input_image_${slot}`] = Buffer.from(reference.data).toString('base64');
    slot += 1;
  }
  return body;
}
