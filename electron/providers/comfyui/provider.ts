import { randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type WebSocket from 'ws';
import { type GenerateRequest, type OperationCapabilities, type ProviderCapabilities, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { type Seed, seedToBigInt } from '../../../shared/seed.js';
import { parseJsonSync, readBounded, readJson } from '../http/body.js';
import { Deadline, sleep } from '../http/deadline.js';
import { type CallScope, abortedError, droppedError, malformedError, networkError, redact, statusError } from '../http/errors.js';
import { toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { basicHeader, joinUrl, parseBaseUrl } from '../http/url.js';
import type { GeneratedImage, Provider, ProviderConfig, ProviderContext, ProviderListing, ProviderOutput, SourceImage } from '../types.js';
import { decodePreviewFrame } from './frames.js';
import { DEFAULT_STRENGTH, defaultImageWorkflow, upscaleWorkflow } from './image-graphs.js';
import { openSocket } from './socket.js';
import { uploadImage } from './upload.js';
import { comboOptions, fetchUpscalers, pickUpscaler } from './upscalers.js';
import { type ApiGraph, type WorkflowValues, checkPlaceholders, defaultWorkflow, fillWorkflow, parseWorkflow } from './workflow.js';

export const COMFYUI_BASE_URL = 'http://127.0.0.1:8188';
const PROVIDER = 'ComfyUI';
const TEST_TIMEOUT_MS = 15_000;
export const COMFYUI_DEFAULTS = { steps: 20, cfg: 7, sampler: 'euler', scheduler: 'normal' } as const;
const SAMPLERS = ['euler', 'euler_ancestral', 'heun', 'dpm_2', 'dpmpp_2m', 'dpmpp_2m_sde', 'dpmpp_sde', 'dpmpp_3m_sde', 'lms', 'ddim', 'uni_pc'];

export interface ComfyUIProviderOptions {
  /** After cancel, how long to wait for ComfyUI to confirm the interrupt before closing the socket. */
  cancelGraceMs?: number;
  /** How long to keep asking /history after the done signal while it is still empty. */
  historyWaitMs?: number;
}

interface Connection {
  base: string;
  ws: string;
  headers: Record<string, string>;
  secrets: string[];
}

function connection(config: ProviderConfig): Connection {
  const { base, basic } = parseBaseUrl(config.baseUrl, COMFYUI_BASE_URL, PROVIDER);
  const username = config.username ?? basic?.username;
  const password = config.password ?? basic?.password;
  // ComfyUI has no auth of its own; a proxy in front of it may want Basic or a Bearer key.
  const headers: Record<string, string> =
    username !== undefined && username !== '' ? basicHeader(username, password ?? '') : config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
  return {
    base,
    ws: `${base.replace(/^http/, 'ws')}/ws`,
    headers,
    secrets: [password, config.apiKey].filter((s): s is string => typeof s === 'string' && s !== ''),
  };
}

/** Upscale models each server listed last (by base URL), for capabilities() between connection tests. */
type UpscalerMemo = Map<string, string[]>;

function upscalersOf(config: ProviderConfig, memo: UpscalerMemo): string[] | undefined {
  if (config.upscalers !== undefined) return config.upscalers;
  try {
    return memo.get(connection(config).base);
  } catch {
    return undefined;
  }
}

/** What this server can do from an image; a person's own workflow decides img2img and inpaint by its placeholders. */
function operations(config: ProviderConfig, memo: UpscalerMemo): OperationCapabilities {
  const upscalers = upscalersOf(config, memo);
  const upscale = {
    supported: true,
    reason: upscalers === undefined || upscalers.length === 0 ? 'Upscales with Lanczos (ImageScaleBy); an upscale model on the server is used once "Test connection" lists it.' : 'Upscales with an upscale model (ImageUpscaleWithModel).',
    ...(upscalers === undefined ? {} : { upscalers }),
  };
  let used: Set<string>;
  try {
    used = checkPlaceholders(customGraph(config) ?? defaultWorkflow());
  } catch (error) {
    const reason = `The ComfyUI workflow in Settings cannot run: ${(error as Error).message}`;
    return { img2img: { supported: false, reason }, inpaint: { supported: false, reason }, upscale };
  }
  if (customGraph(config) === undefined) {
    return { img2img: { supported: true, reason: `Default image-to-image graph; strength is the sampler's denoise (${DEFAULT_STRENGTH} unless set).` }, inpaint: { supported: true, reason: 'Default graph with SetLatentNoiseMask: only the white area of the mask is repainted.' }, upscale };
  }
  const img2img = used.has('input_image') ? { supported: true } : { supported: false, reason: 'The ComfyUI workflow in Settings has no {{input_image}} placeholder (a LoadImage node), so it cannot work from an image.' };
  const inpaint = !img2img.supported ? img2img : used.has('mask') ? { supported: true } : { supported: false, reason: 'The ComfyUI workflow in Settings has no {{mask}} placeholder (a LoadImageMask node), so it cannot edit with a mask.' };
  return { img2img, inpaint, upscale };
}

function customGraph(config: ProviderConfig): ApiGraph | undefined {
  return config.workflow !== undefined && config.workflow.trim() !== '' ? parseWorkflow(config.workflow) : undefined;
}

function capabilities(config: ProviderConfig, memo: UpscalerMemo): ProviderCapabilities {
  return {
    sizes: { min: 64, max: 4096, multipleOf: 8, presets: [[512, 512], [768, 768], [1024, 1024], [832, 1216], [1216, 832]] },
    maxCount: 10,
    steps: { min: 1, max: 150, default: COMFYUI_DEFAULTS.steps },
    guidance: { min: 0, max: 30, default: COMFYUI_DEFAULTS.cfg },
    seed: true,
    negativePrompt: true,
    maxPartialImages: 3,
    outputFormats: ['png'],
    operations: operations(config, memo),
    samplers: SAMPLERS,
  };
}

function invalid(message: string, field: string): AppError {
  return new AppError('invalid_request', message, { details: { field } });
}

/** Names of the uploaded source image and mask, as LoadImage / LoadImageMask take them. */
interface Uploaded {
  image: string;
  mask?: string;
}

/** The request's operation, or the contract's own message when its parts conflict. */
function operation(request: GenerateRequest): 'generate' | 'img2img' | 'inpaint' | 'upscale' {
  const op = operationOf(request);
  if ('error' in op) throw invalid(op.error, op.field);
  // A variation is a new text-to-image run with the same settings; lineage is the engine's business.
  return op.operation === 'variation' ? 'generate' : op.operation;
}

/** Upscale checks that need no network: a named model must be one the server listed (when a list is known). */
function checkUpscale(request: GenerateRequest, config: ProviderConfig, memo: UpscalerMemo): void {
  connection(config);
  const named = request.upscale?.upscaler;
  const known = upscalersOf(config, memo);
  if (named !== undefined && known !== undefined && !known.includes(named)) {
    throw invalid(known.length === 0 ? `This ComfyUI server has no upscale models, so it cannot use "${named}": leave the upscaler empty to upscale with Lanczos.` : `This ComfyUI server has no upscale model "${named}". It has: ${known.join(', ')}.`, 'upscale');
  }
}

/** The graph for this request (default or the user's), checked without any network call; and whether it takes the seed. */
function buildGraph(request: GenerateRequest, config: ProviderConfig, seed: Seed, uploaded?: Uploaded): { graph: ApiGraph; usesSeed: boolean } {
  connection(config);
  const op = operation(request);
  const fromImage = op === 'img2img' || op === 'inpaint';
  // From an image the latent is the image's own size; the request's width and height do not apply.
  if (!fromImage && (request.width % 8 !== 0 || request.height % 8 !== 0)) throw invalid(`ComfyUI latents need a width and height divisible by 8 (got ${request.width}x${request.height}).`, 'width');
  if (request.quality !== undefined) throw invalid('ComfyUI has no quality setting: use steps and the sampler instead.', 'quality');
  if (request.background !== undefined) throw invalid('ComfyUI has no background setting.', 'background');
  if (request.outputFormat !== undefined && request.outputFormat !== 'png') throw invalid('ComfyUI\'s SaveImage writes PNG only.', 'outputFormat');
  const model = request.model ?? config.model;
  const custom = config.workflow !== undefined && config.workflow.trim() !== '';
  const graph = custom ? parseWorkflow(config.workflow!) : fromImage ? defaultImageWorkflow({ mask: op === 'inpaint', count: request.count }) : defaultWorkflow();
  const used = checkPlaceholders(graph);
  if (custom) checkImagePlaceholders(op, used, request);
  if (used.has('model') && (model === undefined || model === '')) {
    throw invalid('Choose a ComfyUI checkpoint (model) first: "Test connection" lists the ones it has.', 'model');
  }
  if (custom) {
    const needs: [keyof GenerateRequest, string, string][] = [
      ['negativePrompt', 'negative_prompt', 'a negative prompt'],
      ['seed', 'seed', 'a seed'],
      ['steps', 'steps', 'a step count'],
      ['guidance', 'cfg', 'a CFG scale'],
      ['sampler', 'sampler', 'a sampler'],
      ['scheduler', 'scheduler', 'a scheduler'],
    ];
    for (const [field, placeholder, what] of needs) {
      const value = request[field];
      if (value !== undefined && value !== '' && !used.has(placeholder)) throw invalid(`This ComfyUI workflow has no {{${placeholder}}} placeholder, so it cannot take ${what}.`, field);
    }
  }
  const values: WorkflowValues = {
    prompt: request.prompt,
    negative_prompt: request.negativePrompt ?? '',
    // ComfyUI seeds are 64-bit: past 2^53 a JS number would round, so the digits travel as a bigint.
    seed: typeof seed === 'string' ? seedToBigInt(seed) : seed,
    steps: request.steps ?? COMFYUI_DEFAULTS.steps,
    cfg: request.guidance ?? COMFYUI_DEFAULTS.cfg,
    width: request.width,
    height: request.height,
    batch_size: request.count,
    model,
    sampler: request.sampler ?? COMFYUI_DEFAULTS.sampler,
    scheduler: request.scheduler ?? COMFYUI_DEFAULTS.scheduler,
    // Until the upload answers, a stand-in keeps validate() network-free; generate() fills the real names.
    input_image: fromImage ? (uploaded?.image ?? 'atelier-input.png') : undefined,
    mask: op === 'inpaint' ? (uploaded?.mask ?? 'atelier-mask.png') : undefined,
    denoise: fromImage ? (request.inputImage?.strength ?? DEFAULT_STRENGTH) : 1,
  };
  return { graph: fillWorkflow(graph, values), usesSeed: used.has('seed') };
}

/** A person's workflow works from an image only through its placeholders; say which one is missing. */
function checkImagePlaceholders(op: string, used: Set<string>, request: GenerateRequest): void {
  if (op === 'img2img' || op === 'inpaint') {
    if (!used.has('input_image')) throw invalid('This ComfyUI workflow has no {{input_image}} placeholder, so it cannot work from an image: give its LoadImage node the image "{{input_image}}", or clear the workflow to use Atelier\'s default image-to-image graph.', 'inputImage');
    if (op === 'inpaint' && !used.has('mask')) throw invalid('This ComfyUI workflow has no {{mask}} placeholder, so it cannot edit with a mask: give a LoadImageMask node the image "{{mask}}", or clear the workflow to use the default graph.', 'mask');
    if (request.inputImage?.strength !== undefined && !used.has('denoise')) throw invalid('This ComfyUI workflow has no {{denoise}} placeholder, so it cannot take a strength.', 'inputImage');
  } else if (used.has('input_image') || used.has('mask')) {
    throw invalid('This ComfyUI workflow loads an input image ({{input_image}} or {{mask}}): start it from an image ("Use as input"), or use a workflow without them for text-to-image.', 'workflow');
  }
}

/**
 * ComfyUI: the WebSocket (clientId) is opened first, then POST /prompt with our own prompt_id; progress, previews
 * and the done signal arrive over the socket, images come from /history and /view. Cancel = queue delete, plus
 * interrupt with the prompt id once it runs.
 */
export function createComfyUIProvider(options: ComfyUIProviderOptions = {}): Provider {
  const cancelGraceMs = options.cancelGraceMs ?? 2_000;
  const historyWaitMs = options.historyWaitMs ?? 2_000;
  const memo: UpscalerMemo = new Map();
  return {
    id: 'comfyui',
    name: 'ComfyUI',
    capabilities: (config) => capabilities(config, memo),
    knownModels: (config) => (config.model === undefined || config.model === '' ? [] : [config.model]),
    listsModels: true,
    requiresModel: (config) => {
      try {
        return checkPlaceholders(config.workflow !== undefined && config.workflow.trim() !== '' ? parseWorkflow(config.workflow) : defaultWorkflow()).has('model');
      } catch {
        // A broken workflow is refused by validate() with its own message.
        return false;
      }
    },
    // The base URL defaults to http://127.0.0.1:8188, so ComfyUI is always configured; `enabled` is separate.
    isConfigured: (config) => {
      try {
        connection(config);
        return true;
      } catch {
        return false;
      }
    },
    validate: (request, config) => (operation(request) === 'upscale' ? checkUpscale(request, config, memo) : void buildGraph(request, config, request.seed ?? 0)),
    generate: (request, config, context) => generate(request, config, context, { cancelGraceMs, historyWaitMs, memo }),
    test: (config, signal) => testConnection(config, signal, memo),
  };
}

interface RunState {
  started: boolean;
  finished: boolean;
  interrupted: boolean;
  executedImages: ImageRef[];
}

interface ImageRef {
  filename: string;
  subfolder: string;
  type: string;
}

interface RunOptions {
  cancelGraceMs: number;
  historyWaitMs: number;
  memo: UpscalerMemo;
}

function sourceOf(context: ProviderContext, op: string): { image: SourceImage; mask?: SourceImage } {
  const image = context.inputs?.image;
  if (image === undefined) throw new AppError('internal', `The source image for this ${op === 'upscale' ? 'upscale' : 'job'} was not read, so ComfyUI was not called.`, { retryable: false });
  if (op !== 'inpaint') return { image };
  const mask = context.inputs?.mask;
  if (mask === undefined) throw new AppError('internal', 'The mask for this edit was not read, so ComfyUI was not called.', { retryable: false });
  if (mask.width !== image.width || mask.height !== image.height) throw invalid(`The mask is ${mask.width}×${mask.height} but the image is ${image.width}×${image.height}: paint the mask again on this image.`, 'mask');
  return { image, mask };
}

async function generate(request: GenerateRequest, config: ProviderConfig, context: ProviderContext, options: RunOptions): Promise<ProviderOutput> {
  const { cancelGraceMs, historyWaitMs, memo } = options;
  const seed = request.seed ?? randomInt(0, 2 ** 32);
  const op = operation(request);
  if (op === 'upscale') checkUpscale(request, config, memo);
  else buildGraph(request, config, seed);
  const source = op === 'generate' ? undefined : sourceOf(context, op);
  const conn = connection(config);
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: conn.secrets };
  let graph: ApiGraph;
  let usesSeed = false;
  let upscaler: string | undefined;
  let loaded: { width: number; height: number } | undefined;
  const clientId = randomUUID().replace(/-/g, '');
  const promptId = randomUUID();
  const state: RunState = { started: false, finished: false, interrupted: false, executedImages: [] };
  let socket: WebSocket | undefined;
  let accepted = false;
  let settle!: (error?: AppError) => void;
  const done = new Promise<AppError | undefined>((resolve) => {
    settle = (error) => resolve(error);
  });

  try {
    context.onProgress({ stage: 'connecting' });
    if (source === undefined) ({ graph, usesSeed } = buildGraph(request, config, seed));
    else {
      if (op === 'upscale') {
        // The server's models now, not as last listed: an unknown one is refused before anything is uploaded.
        const models = await fetchUpscalers(conn.base, conn.headers, scope, config.maxResponseBytes);
        memo.set(conn.base, models);
        const named = request.upscale?.upscaler;
        if (named !== undefined && !models.includes(named)) throw invalid(`This ComfyUI server has no upscale model "${named}"${models.length === 0 ? '' : `. It has: ${models.join(', ')}`}.`, 'upscale');
        upscaler = named ?? pickUpscaler(models, request.upscale!.factor);
      }
      loaded = await loadedSize(source.image);
      context.onProgress({ stage: 'uploading' });
      const image = await uploadImage(conn.base, conn.headers, source.image, 'image', scope);
      context.trace('upload', `Uploaded the source image (${source.image.width}×${source.image.height}, ${source.image.data.byteLength} bytes) as ${image}.`, { name: image });
      if (op === 'upscale') {
        graph = upscaleWorkflow({ image, ...loaded, factor: request.upscale!.factor, ...(upscaler === undefined ? {} : { model: upscaler }) });
      } else {
        let mask: string | undefined;
        if (source.mask !== undefined) {
          mask = await uploadImage(conn.base, conn.headers, source.mask, 'mask', scope);
          context.trace('upload', `Uploaded the mask as ${mask}.`, { name: mask });
        }
        ({ graph, usesSeed } = buildGraph(request, config, seed, { image, ...(mask === undefined ? {} : { mask }) }));
      }
    }
    socket = await openSocket(`${conn.ws}?clientId=${clientId}`, conn.headers, scope);
    // Ask for type-4 previews that carry their prompt id; older servers ignore this and send type 1.
    socket.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
    socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(data, isBinary, promptId, state, context, scope, settle));
    socket.on('close', () => {
      if (!state.finished) settle(accepted ? droppedError(scope, 'while ComfyUI was running the prompt (the WebSocket closed)') : new AppError('provider_unavailable', 'ComfyUI closed the WebSocket before the prompt was queued.', { retryable: true, details: { phase: 'before_accept' } }));
    });

    const what = op === 'upscale' ? `upscale ×${request.upscale!.factor} with ${upscaler ?? 'Lanczos (ImageScaleBy)'}` : `${config.workflow ? 'custom workflow' : op === 'generate' ? 'default workflow' : `default ${op === 'inpaint' ? 'masked edit' : 'image-to-image'} graph`}, ${op === 'generate' ? '' : `denoise ${request.inputImage?.strength ?? DEFAULT_STRENGTH}, `}seed ${seed}`;
    context.trace('request', `POST /prompt (${what})`, { promptId, clientId, ...(op === 'upscale' ? {} : { seed }) });
    const response = await send(joinUrl(conn.base, 'prompt'), { method: 'POST', headers: conn.headers, json: { prompt: graph, client_id: clientId, prompt_id: promptId } }, scope, 'while queueing the prompt');
    if (response.status !== 200) throw await promptError(response, scope);
    const queued = parseJsonSync(await readBounded(response, Math.min(config.maxResponseBytes, 1024 * 1024), scope), scope, 'the /prompt response') as { prompt_id?: unknown };
    if (typeof queued.prompt_id === 'string' && queued.prompt_id !== promptId) throw malformedError(scope, `a different prompt id than the one sent (${queued.prompt_id})`);
    accepted = true;
    context.onAccepted();
    context.onProgress({ stage: 'queued' });

    const aborted = new Promise<'aborted'>((resolve) => {
      if (deadline.signal.aborted) resolve('aborted');
      else deadline.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const first = await Promise.race([done, aborted]);
    if (first === 'aborted') throw await cancelRemote();
    if (first !== undefined) throw first;
    state.finished = true;
    context.onProgress({ stage: 'downloading' });
    const refs = await historyImages(conn, promptId, scope, config, historyWaitMs, state);
    const images: GeneratedImage[] = [];
    for (const ref of refs) images.push(await viewImage(conn, ref, scope, config));
    if (images.length === 0) throw malformedError(scope, 'no output images for the prompt (does the workflow end in a SaveImage node?)');
    if (loaded !== undefined) checkSizes(images, loaded, op === 'upscale' ? request.upscale!.factor : undefined, scope);
    context.onProgress({ stage: 'done', fraction: 1 });
    if (op === 'upscale') return { images, info: { promptId, files: refs.map((r) => r.filename), upscaler: upscaler ?? 'lanczos' } };
    // A workflow without {{seed}} ran with a seed of its own: claiming ours would mislead.
    if (!usesSeed) return { images, info: { promptId, files: refs.map((r) => r.filename) } };
    // KSampler draws a whole batch's noise from the one seed: image i is "seed, batch position i", not seed + i.
    const batch = images.length === request.count && request.count > 1;
    images.forEach((image, i) => {
      image.seed = seed;
      if (batch) image.batchIndex = i;
    });
    return { images, seed, info: { promptId, files: refs.map((r) => r.filename) } };
  } catch (error) {
    if (deadline.reason !== null && !state.finished) {
      // Cancelled or timed out while queueing: we chose the prompt id, so it can still be removed.
      if (!accepted && socket !== undefined) await cancelRemote().catch(() => undefined);
      throw abortedError(scope, socket !== undefined);
    }
    throw error instanceof AppError ? error : networkError(error, scope, 'while ComfyUI was running the prompt');
  } finally {
    state.finished = true;
    socket?.terminate();
    deadline.dispose();
  }

  /** Reference §3.6: delete from the queue (harmless if not pending), interrupt by id only once ours is running. */
  async function cancelRemote(): Promise<AppError> {
    const why = deadline.reason ?? 'cancel';
    const short = () => AbortSignal.timeout(5_000);
    const post = async (path: string, json: unknown) => {
      try {
        const res = await fetch(joinUrl(conn.base, path), { method: 'POST', headers: { ...conn.headers, 'content-type': 'application/json' }, body: JSON.stringify(json), signal: short() });
        await res.body?.cancel();
        context.trace('cancel', `POST /${path} for prompt ${promptId} (${why}): HTTP ${res.status}.`);
      } catch (error) {
        context.trace('warning', `Could not send /${path} to ComfyUI: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    await post('queue', { delete: [promptId] });
    let running = state.started;
    if (!running) {
      try {
        const res = await fetch(joinUrl(conn.base, 'queue'), { headers: conn.headers, signal: short() });
        const queue = (await res.json()) as { queue_running?: unknown[][] };
        running = (queue.queue_running ?? []).some((item) => Array.isArray(item) && item[1] === promptId);
      } catch {
        running = false;
      }
    }
    // A body-less /interrupt is global (and old servers ignore the id), so it is only sent when ours is running.
    if (running) {
      await post('interrupt', { prompt_id: promptId });
      await Promise.race([done, sleep(cancelGraceMs)]);
    }
    return abortedError(scope, true);
  }
}

/** The size LoadImage sees: it applies EXIF orientation (exif_transpose), so a camera JPEG on its side swaps sides. */
async function loadedSize(image: SourceImage): Promise<{ width: number; height: number }> {
  const orientation = await sharp(image.data)
    .metadata()
    .then((m) => m.orientation ?? 1)
    .catch(() => 1);
  return orientation >= 5 ? { width: image.height, height: image.width } : { width: image.width, height: image.height };
}

/**
 * The server's answer is untrusted: an upscale is exactly source × factor; from an image, VAEEncode may trim the
 * size down to a multiple of 8 but never grows it.
 */
function checkSizes(images: GeneratedImage[], source: { width: number; height: number }, factor: number | undefined, scope: CallScope): void {
  for (const image of images) {
    const { width, height } = image;
    if (width === undefined || height === undefined) continue;
    const ok = factor !== undefined ? width === source.width * factor && height === source.height * factor : width <= source.width && height <= source.height && width > source.width - 8 && height > source.height - 8;
    if (!ok) {
      const wanted = factor !== undefined ? `${source.width * factor}×${source.height * factor}` : `${source.width}×${source.height}`;
      throw malformedError(scope, `a ${width}×${height} image where ${wanted} was expected`, { width, height });
    }
  }
}

function onMessage(data: Buffer, isBinary: boolean, promptId: string, state: RunState, context: ProviderContext, scope: CallScope, settle: (error?: AppError) => void): void {
  if (isBinary) {
    const frame = decodePreviewFrame(data);
    // Type-1 frames carry no prompt id: they go to our client id only, and only while our prompt runs.
    if (frame === null || (frame.promptId !== undefined && frame.promptId !== promptId) || !state.started || state.finished) return;
    try {
      const image = toImage(frame.data, scope, 'a preview frame');
      context.onPartialImage(image);
    } catch (error) {
      context.trace('warning', `Skipped a preview frame: ${(error as Error).message}`);
    }
    return;
  }
  let message: { type?: unknown; data?: Record<string, unknown> };
  try {
    message = JSON.parse(data.toString('utf8')) as typeof message;
  } catch {
    context.trace('warning', 'ComfyUI sent a WebSocket message that is not JSON; ignored.');
    return;
  }
  const body = message.data ?? {};
  const ours = body.prompt_id === promptId;
  switch (message.type) {
    case 'execution_start':
      if (ours) {
        state.started = true;
        context.onProgress({ stage: 'running', fraction: 0 });
      }
      return;
    case 'executing':
      if (!ours) return;
      if (body.node === null) {
        settle();
        return;
      }
      state.started = true;
      return;
    case 'progress': {
      // Older servers omit prompt_id on progress; it is still sent to our client id only.
      if (body.prompt_id !== undefined && !ours) return;
      const value = Number(body.value);
      const max = Number(body.max);
      if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0) return;
      state.started = true;
      context.onProgress({ stage: 'sampling', step: value, steps: max, fraction: Math.max(0, Math.min(1, value / max)) });
      return;
    }
    case 'executed': {
      if (!ours) return;
      const output = body.output as { images?: unknown } | null | undefined;
      if (output !== null && output !== undefined && Array.isArray(output.images)) state.executedImages.push(...output.images.filter(isImageRef));
      return;
    }
    case 'execution_success':
      if (ours) settle();
      return;
    case 'execution_error':
      if (!ours) return;
      settle(
        new AppError('provider_error', `ComfyUI failed in node ${String(body.node_id)} (${String(body.node_type)}): ${redact(String(body.exception_message ?? 'unknown error'), scope.secrets).trim()}`, {
          retryable: false,
          details: { phase: 'after_send', nodeId: body.node_id, nodeType: body.node_type, exceptionType: body.exception_type },
        }),
      );
      return;
    case 'execution_interrupted':
      if (!ours) return;
      state.interrupted = true;
      // Our own cancel is handled by the abort path; anyone else's interrupt is a failure worth naming.
      settle(new AppError('provider_error', 'The prompt was interrupted inside ComfyUI (by someone or something other than Atelier).', { retryable: false, details: { phase: 'after_send' } }));
      return;
    default:
      return;
  }
}

function isImageRef(value: unknown): value is ImageRef {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.filename === 'string' && typeof (v.subfolder ?? '') === 'string' && typeof (v.type ?? 'output') === 'string';
}

async function promptError(response: Response, scope: CallScope): Promise<AppError> {
  let said: string | undefined;
  let type: string | undefined;
  try {
    const json = parseJsonSync(await readBounded(response, 256 * 1024, scope), scope, 'an error response') as {
      error?: { type?: unknown; message?: unknown; details?: unknown } | string;
      node_errors?: Record<string, { class_type?: unknown; errors?: { message?: unknown; details?: unknown }[] }>;
    };
    if (typeof json.error === 'object' && json.error !== null) {
      type = typeof json.error.type === 'string' ? json.error.type : undefined;
      said = typeof json.error.message === 'string' ? json.error.message : undefined;
      if (typeof json.error.details === 'string' && json.error.details !== '' && json.error.details !== said) said = `${said ?? ''}: ${json.error.details}`;
    } else if (typeof json.error === 'string') said = json.error;
    const nodeIssues = Object.entries(json.node_errors ?? {}).flatMap(([id, node]) =>
      (node.errors ?? []).map((e) => `node ${id} (${String(node.class_type)}): ${String(e.details || e.message)}`),
    );
    if (nodeIssues.length > 0) said = `${said ?? 'Prompt failed validation'} — ${nodeIssues.slice(0, 5).join('; ')}`;
  } catch {
    // The status still classifies it (a 403 with an empty body is the Origin check).
  }
  const base = { status: response.status, headers: response.headers, ...(said === undefined ? {} : { providerMessage: said }), ...(type === undefined ? {} : { providerCode: type }) };
  if (response.status === 400) return statusError({ ...base, message: 'ComfyUI rejected the workflow.' }, scope);
  return statusError(base, scope);
}

async function historyImages(conn: Connection, promptId: string, scope: CallScope, config: ProviderConfig, waitMs: number, state: RunState): Promise<ImageRef[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    const response = await send(joinUrl(conn.base, `history/${encodeURIComponent(promptId)}`), { headers: conn.headers }, scope, 'while reading the history');
    if (response.status !== 200) throw await promptError(response, scope);
    const json = await readJson(response, config.maxResponseBytes, scope, 'the history');
    const entry = json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[promptId] : undefined;
    if (entry !== undefined && entry !== null && typeof entry === 'object') {
      const { outputs, status } = entry as { outputs?: Record<string, { images?: unknown[] }>; status?: { status_str?: unknown } };
      if (status?.status_str === 'error') throw new AppError('provider_error', 'ComfyUI recorded the prompt as failed.', { retryable: false, details: { phase: 'after_send' } });
      const refs = Object.values(outputs ?? {}).flatMap((o) => (Array.isArray(o.images) ? o.images.filter(isImageRef) : []));
      // SaveImage writes type "output"; previews ("temp") only count when a workflow saves nothing.
      const saved = refs.filter((r) => (r.type ?? 'output') === 'output');
      return saved.length > 0 ? saved : refs;
    }
    // History is written just before the done signal on current servers; older ones may lag a little.
    if (Date.now() > until) {
      if (state.executedImages.length > 0) return state.executedImages;
      throw malformedError(scope, 'an empty history for the finished prompt');
    }
    await sleep(100, scope.deadline.signal);
  }
}

async function viewImage(conn: Connection, ref: ImageRef, scope: CallScope, config: ProviderConfig): Promise<GeneratedImage> {
  const url = joinUrl(conn.base, 'view', { filename: ref.filename, subfolder: ref.subfolder ?? '', type: ref.type ?? 'output' });
  const response = await send(url, { headers: { ...conn.headers, accept: 'image/*' } }, scope, 'while downloading an image');
  if (response.status !== 200) throw await promptError(response, scope);
  return toImage(await readBounded(response, config.maxResponseBytes, scope, 'while sending an image'), scope, `the file ${ref.filename}`);
}

async function testConnection(config: ProviderConfig, signal: AbortSignal, memo: UpscalerMemo): Promise<ProviderListing> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let conn: Connection;
  try {
    conn = connection(config);
  } catch (error) {
    return { ok: false, reachable: false, models: [], latencyMs: 0, message: (error as Error).message };
  }
  const deadline = new Deadline(signal, Math.min(config.timeoutMs, TEST_TIMEOUT_MS));
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: conn.secrets };
  try {
    const stats = await send(joinUrl(conn.base, 'system_stats'), { headers: conn.headers }, scope);
    if (stats.status !== 200) {
      const error = await promptError(stats, scope);
      return { ok: false, reachable: true, ...(error.code === 'provider_auth' ? { authenticated: false } : {}), models: [], latencyMs: elapsed(), message: error.message };
    }
    const system = (await readJson(stats, config.maxResponseBytes, scope, 'the system stats')) as { system?: { comfyui_version?: unknown } };
    const info = await send(joinUrl(conn.base, 'object_info/CheckpointLoaderSimple'), { headers: conn.headers }, scope);
    const models = info.status === 200 ? checkpointNames(await readJson(info, config.maxResponseBytes, scope, 'the node info')) : [];
    if (info.status !== 200) await info.body?.cancel();
    const upscalers = await fetchUpscalers(conn.base, conn.headers, scope, config.maxResponseBytes);
    memo.set(conn.base, upscalers);
    const version = typeof system.system?.comfyui_version === 'string' ? ` ${system.system.comfyui_version}` : '';
    const upscaleNote = upscalers.length === 0 ? '' : `, ${upscalers.length} upscale model${upscalers.length === 1 ? '' : 's'}`;
    return { ok: true, reachable: true, authenticated: true, models, upscalers, latencyMs: elapsed(), message: `Connected to ComfyUI${version}: ${models.length} checkpoint${models.length === 1 ? '' : 's'}${upscaleNote}.` };
  } catch (error) {
    if (signal.aborted) throw new AppError('cancelled', 'Cancelled.', { retryable: false });
    const appError = error instanceof AppError ? error : networkError(error, scope, 'while testing');
    return { ok: false, reachable: appError.code !== 'provider_unavailable' && appError.code !== 'timeout', models: [], latencyMs: elapsed(), message: appError.message };
  } finally {
    deadline.dispose();
  }
}

/** ckpt_name is `[[names...], {...}]` or the newer `["COMBO", {options:[...]}]` (reference §3.5). */
export function checkpointNames(json: unknown): string[] {
  return comboOptions(json, 'CheckpointLoaderSimple', 'ckpt_name');
}
