import { createHash } from 'node:crypto';
import { stringify } from 'lossless-json';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { Seed } from '../../../shared/seed.js';
import { type Uploaded, buildGraph, invalid, operation } from '../comfyui/build-graph.js';
import { loadedSize, sourceOf } from '../comfyui/sources.js';
import type { ApiGraph } from '../comfyui/workflow.js';
import type { ProviderConfig, ProviderContext, SourceImage } from '../types.js';
import { MAX_COUNT } from './capabilities.js';

/** /run takes at most 10 MB of body (docs/hosted-protocols.md §2.2); base64 inputs count 4/3 of their bytes. */
export const RUN_BODY_LIMIT = 10 * 1024 * 1024;

/** One input image as worker-comfyui takes it: uploaded to ComfyUI's input/ under `name` before the graph runs. */
export interface InputImage {
  name: string;
  image: string;
}

/** What the job sends and what collecting it needs to know. */
export interface Planned {
  /** The /run body, serialised (a 64-bit seed stays exact), and its size. */
  body: string;
  bytes: number;
  usesSeed: boolean;
  /** The source's size as LoadImage sees it: outputs from an image are checked against it. */
  loaded?: { width: number; height: number };
  /** The names the graph's LoadImage nodes use, for the trace. */
  names: string[];
  what: string;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Named after its content, as comfyui/upload.ts names uploads: two jobs on one worker never replace each other's. */
function inputName(image: SourceImage, role: 'image' | 'mask'): string {
  const hash = createHash('sha256').update(image.data).digest('hex').slice(0, 24);
  return `atelier-${role}-${hash}.${EXTENSIONS[image.mime] ?? 'png'}`;
}

function dataUri(image: SourceImage): string {
  return `data:${image.mime};base64,${Buffer.from(image.data).toString('base64')}`;
}

/**
 * The graph for this request from Atelier's own ComfyUI builder (comfyui/build-graph.ts: default text-to-image,
 * image-to-image and masked graphs, or the person's workflow with its {{placeholders}}), checked with no network
 * call. A missing checkpoint is said in RunPod's terms: no listing call exists, so the person names it.
 */
export function planGraph(
  request: GenerateRequest,
  config: ProviderConfig,
  seed: Seed,
  uploaded?: Uploaded,
): { graph: ApiGraph; usesSeed: boolean } {
  if (operation(request) === 'upscale')
    throw invalid(
      'RunPod runs a ComfyUI workflow and cannot upscale here. Use ComfyUI, AUTOMATIC1111 or the built-in one.',
      'upscale',
    );
  if (request.count > MAX_COUNT)
    throw invalid(`A RunPod job makes at most ${MAX_COUNT} images: they all come back in one answer.`, 'count');
  try {
    const { graph, used } = buildGraph(request, config, seed, uploaded);
    return { graph, usesSeed: used.has('seed') };
  } catch (error) {
    if (error instanceof AppError && error.details?.field === 'model')
      throw invalid(
        'Set the checkpoint your RunPod worker has as the model in settings (its file name, such as ' +
          "sd_xl_base_1.0.safetensors): RunPod cannot list the worker's models.",
        'model',
      );
    throw error;
  }
}

/** The /run body (docs/hosted-protocols.md §2.2): the filled graph, the source and mask as named data URIs. */
export async function planJob(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  seed: Seed,
  timeoutMs: number,
): Promise<Planned> {
  const op = operation(request);
  const source = op === 'generate' || op === 'upscale' ? undefined : sourceOf(context, op);
  const images: InputImage[] = [];
  let uploaded: Uploaded | undefined;
  if (source !== undefined) {
    uploaded = { image: inputName(source.image, 'image') };
    images.push({ name: uploaded.image, image: dataUri(source.image) });
    if (source.mask !== undefined) {
      uploaded.mask = inputName(source.mask, 'mask');
      images.push({ name: uploaded.mask, image: dataUri(source.mask) });
    }
  }
  const { graph, usesSeed } = planGraph(request, config, seed, uploaded);
  // RunPod stops (and stops billing) a job that runs past this; ours ends no later anyway (it must exceed 5 s).
  const policy = { executionTimeout: Math.max(10_000, timeoutMs) };
  const body = stringify({ input: { workflow: graph, ...(images.length === 0 ? {} : { images }) }, policy }) ?? '';
  const bytes = Buffer.byteLength(body);
  if (bytes > RUN_BODY_LIMIT)
    throw new AppError(
      'invalid_request',
      `This job is ${Math.ceil(bytes / (1024 * 1024))} MB with its images, more than the 10 MB RunPod's /run takes. ` +
        'Use a smaller source image.',
      { details: { field: 'inputImage', phase: 'before_accept', bytes } },
    );
  const custom = config.workflow !== undefined && config.workflow.trim() !== '';
  const graphName = custom ? 'custom workflow' : op === 'generate' ? 'default workflow' : `default ${op} graph`;
  return {
    body,
    bytes,
    usesSeed,
    ...(source === undefined ? {} : { loaded: await loadedSize(source.image) }),
    names: images.map((i) => i.name),
    what: `${graphName}, seed ${seed}`,
  };
}
