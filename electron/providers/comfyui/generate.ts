import { randomInt, randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { GenerateRequest } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../http/deadline.js';
import { type CallScope, abortedError, droppedError, networkError } from '../http/errors.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { buildGraph, checkUpscale, operation } from './build-graph.js';
import { stopOnServer } from './cancel.js';
import { collectImages } from './collect.js';
import { PROVIDER, connection } from './connection.js';
import { type Listener, onMessage } from './messages.js';
import { type Prepared, prepare } from './prepare.js';
import { queuePrompt } from './queue-prompt.js';
import { type EndSignal, newRunState } from './run-state.js';
import { openSocket } from './socket.js';
import { sourceOf } from './sources.js';
import type { UpscalerMemo } from './test-connection.js';
import { acceptedWithErrors } from './validation-errors.js';
import { imageOutputs } from './workflow.js';

export interface RunOptions {
  /**
   * After an interrupt, the shortest wait for the server's end signal before its queue is asked; slow steps stretch it.
   */
  cancelGraceMs: number;
  /** The longest a cancel waits for the server to stop the prompt. */
  cancelWaitMaxMs: number;
  historyWaitMs: number;
  memo: UpscalerMemo;
}

/**
 * ComfyUI on the provider skeleton (skeleton/run-job.ts): connect opens the WebSocket (clientId) after preparing the
 * graph, submit POSTs /prompt with our own prompt_id, await listens for the done signal while progress and previews
 * arrive over the socket, collect reads /history and /view. Cancel = queue delete, plus interrupt with the prompt id
 * once it runs, and the job ends only once the server has stopped it.
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
  const job = { request, config, context, op, seed, conn, promptId, state, scope };

  return runJob<Prepared, Prepared, AppError | undefined>({
    async connect() {
      context.onProgress({ stage: 'connecting' });
      const prepared = await prepare({ ...job, ...(source === undefined ? {} : { source }), memo: options.memo });
      socket = await openSocket(`${conn.ws}?clientId=${clientId}`, conn.headers, scope);
      // Ask for type-4 previews that carry their prompt id; older servers ignore this and send type 1.
      socket.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true } }));
      const listener: Listener = {
        promptId,
        graph: prepared.graph,
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
      return prepared;
    },

    async submit(prepared) {
      const { graph } = prepared;
      context.trace('request', `POST /prompt (${prepared.what})`, {
        promptId,
        clientId,
        ...(op === 'upscale' ? {} : { seed }),
      });
      const queued = await queuePrompt(conn, { clientId, promptId }, graph, config, scope);
      accepted = true;
      context.onAccepted();
      context.onProgress({ stage: 'queued' });
      // Validation is per output: a 200 can still say that part of the graph will not run.
      const partial = acceptedWithErrors(queued.nodeErrors, imageOutputs(graph), scope);
      if (partial.error !== undefined) {
        await stop('its output was dropped');
        throw partial.error;
      }
      if (partial.warning !== undefined) context.trace('warning', partial.warning);
      return prepared;
    },

    // `done` itself (never rejecting) so that a settled prompt wins the race against a cancel heard in the same turn.
    await: () => done,

    cancel: {
      signal: deadline.signal,
      async stop() {
        await stop(deadline.reason ?? 'cancel');
        return abortedError(scope, true);
      },
    },

    async collect(error, prepared) {
      if (error !== undefined) throw error;
      await previews.chain;
      state.finished = true;
      return collectImages({ ...job, historyWaitMs: options.historyWaitMs }, prepared);
    },

    async fail(error) {
      if (deadline.reason !== null && !state.finished) {
        // Cancelled or timed out while queueing: we chose the prompt id, so it can still be removed.
        if (!accepted && socket !== undefined) await stop(deadline.reason).catch(() => undefined);
        return abortedError(scope, socket !== undefined);
      }
      return error instanceof AppError ? error : networkError(error, scope, 'while ComfyUI was running the prompt');
    },

    close() {
      state.finished = true;
      socket?.terminate();
      deadline.dispose();
    },
  });
}
