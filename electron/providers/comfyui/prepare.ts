import type { GenerateRequest } from '../../../shared/contract.js';
import type { Seed } from '../../../shared/seed.js';
import type { CallScope } from '../http/errors.js';
import type { ProviderConfig, ProviderContext, SourceImage } from '../types.js';
import { buildGraph, invalid } from './build-graph.js';
import type { Connection } from './connection.js';
import { DEFAULT_STRENGTH, upscaleWorkflow } from './image-graphs.js';
import type { OutputSize } from './preview.js';
import { checkSamplerChoice, fetchSamplerLists } from './sampler-lists.js';
import { loadedSize } from './sources.js';
import type { UpscalerMemo } from './test-connection.js';
import { uploadImage } from './upload.js';
import { fetchUpscalers, pickUpscaler } from './upscalers.js';
import type { ApiGraph } from './workflow.js';

/** The graph to queue and what the run needs to know about it. */
export interface Prepared {
  graph: ApiGraph;
  usesSeed: boolean;
  upscaler?: string;
  /** The source's size as LoadImage sees it, which the outputs are checked against. */
  loaded?: OutputSize;
  /** The size the job outputs, when known: larger previews are scaled down to it. */
  output?: OutputSize;
  /** The prompt in a few words, for the trace. */
  what: string;
}

export interface PrepareInput {
  request: GenerateRequest;
  config: ProviderConfig;
  context: ProviderContext;
  op: 'generate' | 'img2img' | 'inpaint' | 'upscale';
  seed: Seed;
  source?: { image: SourceImage; mask?: SourceImage };
  conn: Connection;
  scope: CallScope;
  memo: UpscalerMemo;
}

/** Everything before the socket opens: checks against the server's own lists first, then uploads, then the graph. */
export async function prepare(input: PrepareInput): Promise<Prepared> {
  const { request, config, context, op, seed, source, conn, scope } = input;
  if (op === 'upscale') return prepareUpscale(input);
  const planned = buildGraph(request, config, seed);
  const { used, values } = planned;
  if (used.has('sampler') || used.has('scheduler')) {
    // The server's sampler and scheduler are combos: an unknown name would only come back as a 400.
    const lists = await fetchSamplerLists(conn.base, conn.headers, scope, config.maxResponseBytes);
    if (lists === undefined)
      context.trace(
        'warning',
        'ComfyUI did not list its samplers (GET /object_info/KSampler), so the sampler and scheduler were not ' +
          'checked before sending.',
      );
    else
      checkSamplerChoice(
        {
          ...(used.has('sampler') ? { sampler: String(values.sampler) } : {}),
          ...(used.has('scheduler') ? { scheduler: String(values.scheduler) } : {}),
        },
        lists,
        scope.secrets,
      );
  }
  const imageGraph = `default ${op === 'inpaint' ? 'masked edit' : 'image-to-image'} graph`;
  const graphName = config.workflow ? 'custom workflow' : op === 'generate' ? 'default workflow' : imageGraph;
  const denoise = op === 'generate' ? '' : `denoise ${request.inputImage?.strength ?? DEFAULT_STRENGTH}, `;
  const label = `${graphName}, ${denoise}seed ${seed}`;
  if (source === undefined) {
    const output =
      used.has('width') && used.has('height') ? { width: request.width, height: request.height } : undefined;
    return {
      graph: planned.graph,
      usesSeed: used.has('seed'),
      ...(output === undefined ? {} : { output }),
      what: label,
    };
  }
  const loaded = await loadedSize(source.image);
  context.onProgress({ stage: 'uploading' });
  const image = await uploadImage(conn.base, conn.headers, source.image, 'image', scope);
  context.trace(
    'upload',
    `Uploaded the source image (${source.image.width}×${source.image.height}, ${source.image.data.byteLength} bytes) ` +
      `as ${image}.`,
    { name: image },
  );
  let mask: string | undefined;
  if (source.mask !== undefined) {
    mask = await uploadImage(conn.base, conn.headers, source.mask, 'mask', scope);
    context.trace('upload', `Uploaded the mask as ${mask}.`, { name: mask });
  }
  const { graph } = buildGraph(request, config, seed, { image, ...(mask === undefined ? {} : { mask }) });
  return { graph, usesSeed: used.has('seed'), loaded, output: loaded, what: label };
}

async function prepareUpscale(input: PrepareInput): Promise<Prepared> {
  const { request, context, conn, scope, memo, config } = input;
  const source = input.source!;
  // The server's models now, not as last listed: an unknown one is refused before anything is uploaded.
  const models = await fetchUpscalers(conn.base, conn.headers, scope, config.maxResponseBytes);
  memo.set(conn.base, models);
  const named = request.upscale?.upscaler;
  if (named !== undefined && !models.includes(named))
    throw invalid(
      `This ComfyUI server has no upscale model ` +
        `"${named}"${models.length === 0 ? '' : `. It has: ${models.join(', ')}`}.`,
      'upscale',
    );
  const upscaler = named ?? pickUpscaler(models, request.upscale!.factor);
  const loaded = await loadedSize(source.image);
  context.onProgress({ stage: 'uploading' });
  const image = await uploadImage(conn.base, conn.headers, source.image, 'image', scope);
  context.trace(
    'upload',
    `Uploaded the source image (${source.image.width}×${source.image.height}, ${source.image.data.byteLength} bytes) ` +
      `as ${image}.`,
    { name: image },
  );
  const graph = upscaleWorkflow({
    image,
    ...loaded,
    factor: request.upscale!.factor,
    ...(upscaler === undefined ? {} : { model: upscaler }),
  });
  return {
    graph,
    usesSeed: false,
    ...(upscaler === undefined ? {} : { upscaler }),
    loaded,
    what: `upscale ×${request.upscale!.factor} with ${upscaler ?? 'Lanczos (ImageScaleBy)'}`,
  };
}
