import { randomInt, randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, abortedError, droppedError, malformedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { buildGraph, checkUpscale, operation } from './build-graph.js';
import { stopOnServer } from './cancel.js';
import { PROVIDER, connection } from './connection.js';
import { historyImages, viewImage } from './history.js';
import { type Listener, onMessage } from './messages.js';
import { NO_PREVIEWS_HINT } from './preview-hint.js';
import { type Prepared, prepare } from './prepare.js';
import { type EndSignal, fullyCached, newRunState } from './run-state.js';
import { openSocket } from './socket.js';
import { checkSizes, sourceOf } from './sources.js';
import type { UpscalerMemo } from './test-connection.js';
import { acceptedWithErrors, promptError } from './validation-errors.js';
import { imageOutputs } from './workflow.js';

export interface RunOptions {
  /** After an interrupt, the shortest wait for the server's end signal before its queue is asked; slow steps stretch it. */
  cancelGraceMs: number;
  /** The longest a cancel waits for the server to stop the prompt. */
  cancelWaitMaxMs: number;
  historyWaitMs: number;
  memo: UpscalerMemo;
}

/**
 * ComfyUI: the WebSocket (clientId) is opened first, then POST /prompt with our own prompt_id; progress, previews
 * and the done signal arrive over the socket, images come from /history and /view. Cancel = queue delete, plus
 * interrupt with the prompt id once it runs, and the job ends only once the server has stopped it.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  options: RunOptions,
): Promise<ProviderOutput> {
  const seed = request.seed ?? randomInt(0, 2 ** 32);
  const op = operation(request);
  if (op === 'upscale') checkUpscale(request, config, options.memo);
  else buildGraph(request, config, seed);
  const source = op === 'generate' ? undefined : sourceOf(context, op);
  const conn = connection(config);
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets: conn.secrets };
  const clientId = randomUUID().replace(/-/g, '');
  const promptId = randomUUID();
  const state = newRunState();
  let socket: WebSocket | undefined;
  let accepted = false;
  let settle!: (error?: AppError) => void;
  let end!: (how: EndSignal) => void;
  const done = new Promise<AppError | undefined>((resolve) => (settle = resolve));
  const ended = new Promise<EndSignal>((resolve) => (end = resolve));
  const previews = { chain: Promise.resolve() };
  const stop = (why: string) =>
    stopOnServer({
      base: conn.base,
      headers: conn.headers,
      promptId,
      state,
      ended,
      context,
      why,
      minWaitMs: options.cancelGraceMs,
      maxWaitMs: options.cancelWaitMaxMs,
      scope,
    });

  try {
    context.onProgress({ stage: 'connecting' });
    const prepared: Prepared = await prepare({
      request,
      config,
      context,
      op,
      seed,
      ...(source === undefined ? {} : { source }),
      conn,
      scope,
      memo: options.memo,
    });
    const { graph } = prepared;
    socket = await openSocket(`${conn.ws}?clientId=${clientId}`, conn.headers, scope);
    // Ask for type-4 previews that carry their prompt id; older servers ignore this and send type 1.
    socket.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
    const listener: Listener = {
      promptId,
      graph,
      state,
      context,
      scope,
      signals: { settle: (error) => settle(error), end: (how) => end(how) },
      ...(prepared.output === undefined ? {} : { output: prepared.output }),
    };
    socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(data, isBinary, listener, previews));
    socket.on('close', () => {
      end('closed');
      if (!state.finished)
        settle(
          accepted
            ? droppedError(scope, 'while ComfyUI was running the prompt (the WebSocket closed)')
            : new AppError('provider_unavailable', 'ComfyUI closed the WebSocket before the prompt was queued.', {
                retryable: true,
                details: { phase: 'before_accept' },
              }),
        );
    });

    context.trace('request', `POST /prompt (${prepared.what})`, {
      promptId,
      clientId,
      ...(op === 'upscale' ? {} : { seed }),
    });
    const response = await send(
      joinUrl(conn.base, 'prompt'),
      { method: 'POST', headers: conn.headers, json: { prompt: graph, client_id: clientId, prompt_id: promptId } },
      scope,
      'while queueing the prompt',
    );
    if (response.status !== 200) throw await promptError(response, scope);
    const queued = parseJsonSync(
      await readBounded(response, Math.min(config.maxResponseBytes, 1024 * 1024), scope),
      scope,
      'the /prompt response',
    ) as { prompt_id?: unknown; node_errors?: unknown };
    if (typeof queued.prompt_id === 'string' && queued.prompt_id !== promptId)
      throw malformedError(scope, `a different prompt id than the one sent (${queued.prompt_id})`);
    accepted = true;
    context.onAccepted();
    context.onProgress({ stage: 'queued' });
    // Validation is per output: a 200 can still say that part of the graph will not run.
    const partial = acceptedWithErrors(queued.node_errors, imageOutputs(graph), scope);
    if (partial.error !== undefined) {
      await stop('its output was dropped');
      throw partial.error;
    }
    if (partial.warning !== undefined) context.trace('warning', partial.warning);

    const aborted = new Promise<'aborted'>((resolve) => {
      if (deadline.signal.aborted) resolve('aborted');
      else deadline.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const first = await Promise.race([done, aborted]);
    if (first === 'aborted') {
      await stop(deadline.reason ?? 'cancel');
      throw abortedError(scope, true);
    }
    if (first !== undefined) throw first;
    await previews.chain;
    state.finished = true;
    return await collect(prepared);
  } catch (error) {
    if (deadline.reason !== null && !state.finished) {
      // Cancelled or timed out while queueing: we chose the prompt id, so it can still be removed.
      if (!accepted && socket !== undefined) await stop(deadline.reason).catch(() => undefined);
      throw abortedError(scope, socket !== undefined);
    }
    throw error instanceof AppError ? error : networkError(error, scope, 'while ComfyUI was running the prompt');
  } finally {
    state.finished = true;
    socket?.terminate();
    deadline.dispose();
  }

  /** The finished prompt's images, checked, with what the run showed about itself said in the trace. */
  async function collect(prepared: Prepared): Promise<ProviderOutput> {
    const { graph, loaded, usesSeed, upscaler } = prepared;
    context.onProgress({ stage: 'downloading' });
    const refs = await historyImages(conn, promptId, scope, config, options.historyWaitMs, state);
    const files = refs.map((r) => r.filename);
    const cached = fullyCached(state, Object.keys(graph));
    if (cached)
      context.trace(
        'cached',
        `ComfyUI ran nothing: every node was cached from an earlier run of the same graph, so these are that run's files (${files.join(', ')}).`,
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
}
