import type { GenerateRequest } from '../../../shared/contract.js';
import type { Seed } from '../../../shared/seed.js';
import { checkSizes } from '../comfyui/sources.js';
import type { CallScope } from '../http/errors.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import type { Completed } from './poll.js';
import { collectOutput } from './results.js';

/** What shaping a finished job needs from the run that sent it (or from what resume found stored). */
export interface JobFacts {
  jobId: string;
  seed: Seed;
  usesSeed: boolean;
  loaded?: { width: number; height: number };
}

/** A COMPLETED job's images, checked, with its seeds and RunPod's timings (a fresh and a resumed run end alike). */
export async function finishJob(
  done: Completed,
  facts: JobFacts,
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<ProviderOutput> {
  const collected = await collectOutput(done.output, config, context, scope);
  for (const warning of collected.warnings) context.trace('warning', `${scope.provider}'s worker said: ${warning}`);
  const images: GeneratedImage[] = collected.images;
  if (facts.loaded !== undefined) checkSizes(images, facts.loaded, undefined, scope);
  context.onProgress({ stage: 'done', fraction: 1 });
  const info = {
    runpodJobId: facts.jobId,
    files: collected.files,
    ...(done.delayTimeMs === undefined ? {} : { delayTimeMs: done.delayTimeMs }),
    ...(done.executionTimeMs === undefined ? {} : { executionTimeMs: done.executionTimeMs }),
  };
  // A workflow without {{seed}} ran with a seed of its own: claiming ours would mislead.
  if (!facts.usesSeed) return { images, info };
  // KSampler draws a whole batch's noise from one seed: image i is "seed, batch position i" (as comfyui/collect.ts).
  const batch = images.length === request.count && request.count > 1;
  images.forEach((image, i) => {
    image.seed = facts.seed;
    if (batch) image.batchIndex = i;
  });
  return { images, seed: facts.seed, info };
}
