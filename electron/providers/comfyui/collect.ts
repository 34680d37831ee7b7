import type { GenerateRequest } from '../../../shared/contract.js';
import type { Seed } from '../../../shared/seed.js';
import { type CallScope, malformedError } from '../http/errors.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import type { Connection } from './connection.js';
import { historyImages, viewImage } from './history.js';
import type { Prepared } from './prepare.js';
import { NO_PREVIEWS_HINT } from './preview-hint.js';
import { type RunState, fullyCached } from './run-state.js';
import { checkSizes } from './sources.js';

/** What collecting a finished prompt needs from its job. */
export interface CollectInput {
  request: GenerateRequest;
  config: ProviderConfig;
  context: ProviderContext;
  op: 'generate' | 'img2img' | 'inpaint' | 'upscale';
  seed: Seed;
  conn: Connection;
  promptId: string;
  state: RunState;
  scope: CallScope;
  historyWaitMs: number;
}

/** The finished prompt's images, checked, with what the run showed about itself said in the trace. */
export async function collectImages(job: CollectInput, prepared: Prepared): Promise<ProviderOutput> {
  const { request, config, context, op, seed, conn, promptId, state, scope } = job;
  const { graph, loaded, usesSeed, upscaler } = prepared;
  context.onProgress({ stage: 'downloading' });
  const refs = await historyImages(conn, promptId, scope, config, job.historyWaitMs, state);
  const files = refs.map((r) => r.filename);
  const cached = fullyCached(state, Object.keys(graph));
  if (cached)
    context.trace(
      'cached',
      `ComfyUI ran nothing: every node was cached from an earlier run of the same graph, so these are that run's ` +
        `files (${files.join(', ')}).`,
      { files },
    );
  if (!cached && state.progressMessages > 0 && state.previews === 0 && request.partialImages !== 0)
    context.trace('hint', NO_PREVIEWS_HINT);
  const images: GeneratedImage[] = [];
  for (const ref of refs) images.push(await viewImage(conn, ref, scope, config));
  if (images.length === 0)
    throw malformedError(scope, 'no output images for the prompt (does the workflow end in a SaveImage node?)');
  if (loaded !== undefined) checkSizes(images, loaded, op === 'upscale' ? request.upscale!.factor : undefined, scope);
  context.onProgress({ stage: 'done', fraction: 1 });
  const info = { promptId, files, ...(cached ? { cached: true } : {}) };
  if (op === 'upscale') return { images, info: { ...info, upscaler: upscaler ?? 'lanczos' } };
  // A workflow without {{seed}} ran with a seed of its own: claiming ours would mislead.
  if (!usesSeed) return { images, info };
  // KSampler draws a whole batch's noise from the one seed: image i is "seed, batch position i", not seed + i.
  const batch = images.length === request.count && request.count > 1;
  images.forEach((image, i) => {
    image.seed = seed;
    if (batch) image.batchIndex = i;
  });
  return { images, seed, info };
}
