import type { ProviderContext, ProviderOutput } from '../types.js';
import type { StabilityImage } from './answer.js';

/** Shapes the job's output from Stability's answer (a fresh run and a resumed one end the same way). */
export function toOutput(
  answer: StabilityImage,
  context: ProviderContext,
  info: Record<string, string | undefined>,
): ProviderOutput {
  context.onProgress({ stage: 'done', fraction: 1 });
  const image = answer.seed === undefined ? answer.image : { ...answer.image, seed: answer.seed };
  const kept = Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined));
  if (answer.finishReason !== undefined) kept.finishReason = answer.finishReason;
  const output: ProviderOutput = { images: [image], info: kept };
  if (answer.seed !== undefined) output.seed = answer.seed;
  return output;
}
