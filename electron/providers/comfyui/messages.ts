import { AppError } from '../../../shared/errors.js';
import { type CallScope, redact } from '../http/errors.js';
import type { ProviderContext } from '../types.js';
import { decodePreviewFrame } from './frames.js';
import { type OutputSize, scaledPreview } from './preview.js';
import { type RunSignals, type RunState, isImageRef, tick } from './run-state.js';
import type { ApiGraph } from './workflow.js';

/** What the socket handler needs to know about the prompt it listens for. */
export interface Listener {
  promptId: string;
  graph: ApiGraph;
  state: RunState;
  context: ProviderContext;
  scope: CallScope;
  signals: RunSignals;
  /** Previews larger than this are scaled down to it. */
  output?: OutputSize;
}

/** Nodes whose progress is an upscale's tiles rather than sampler steps. */
const UPSCALE_NODES = new Set(['ImageUpscaleWithModel', 'UltimateSDUpscale']);

/**
 * One WebSocket message, text or binary (docs/provider-protocols.md §3.3, §3.4). Messages go to our client id only,
 * but a server may still carry another prompt's (or, after a reconnect, `executing` without any prompt id): only
 * those naming our prompt count.
 */
export function onMessage(
  data: Buffer,
  isBinary: boolean,
  listener: Listener,
  previews: { chain: Promise<void> },
): void {
  const { promptId, state, context, scope, signals } = listener;
  if (isBinary) {
    const frame = decodePreviewFrame(data);
    // Type-1 frames carry no prompt id: they go to our client id only, and only while our prompt runs.
    if (
      frame === null ||
      (frame.promptId !== undefined && frame.promptId !== promptId) ||
      !state.started ||
      state.finished ||
      state.stopping
    )
      return;
    // Scaling is asynchronous: chained, so previews reach the job in the order they were sent.
    previews.chain = previews.chain.then(async () => {
      try {
        const image = await scaledPreview(frame.data, listener.output, scope);
        if (state.finished) return;
        state.previews += 1;
        context.onPartialImage(image);
      } catch (error) {
        context.trace('warning', `Skipped a preview frame: ${redact((error as Error).message, scope.secrets)}`);
      }
    });
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
      if (!ours) return;
      state.started = true;
      tick(state, Date.now());
      context.onProgress({ stage: 'running', fraction: 0 });
      return;
    case 'execution_cached':
      if (ours && Array.isArray(body.nodes)) state.cachedNodes.push(...body.nodes.map(String));
      return;
    case 'executing':
      if (!ours) return;
      if (body.node === null) {
        signals.settle();
        signals.end('signal');
        return;
      }
      state.started = true;
      return;
    case 'progress':
      onProgress(body, listener);
      return;
    case 'executed': {
      if (!ours) return;
      const output = body.output as { images?: unknown } | null | undefined;
      if (output !== null && output !== undefined && Array.isArray(output.images))
        state.executedImages.push(...output.images.filter(isImageRef));
      return;
    }
    case 'execution_success':
      if (ours) signals.settle();
      return;
    case 'execution_error':
      if (!ours) return;
      signals.settle(
        new AppError(
          'provider_error',
          `ComfyUI failed in node ${String(body.node_id)} (${String(body.node_type)}): ` +
            `${redact(String(body.exception_message ?? 'unknown error'), scope.secrets).trim()}`,
          {
            retryable: false,
            details: {
              phase: 'after_send',
              nodeId: body.node_id,
              nodeType: body.node_type,
              exceptionType: body.exception_type,
            },
          },
        ),
      );
      return;
    case 'execution_interrupted':
      if (!ours) return;
      state.interrupted = true;
      // Our own cancel waits for the end signal; anyone else's interrupt is a failure worth naming.
      if (!state.stopping)
        signals.settle(
          new AppError(
            'provider_error',
            'The prompt was interrupted inside ComfyUI (by someone or something other than Atelier).',
            { retryable: false, details: { phase: 'after_send' } },
          ),
        );
      return;
    default:
      return;
  }
}

function onProgress(body: Record<string, unknown>, listener: Listener): void {
  const { promptId, state, context, graph } = listener;
  // Older servers omit prompt_id on progress; it is still sent to our client id only.
  if (body.prompt_id !== undefined && body.prompt_id !== promptId) return;
  const value = Number(body.value);
  const max = Number(body.max);
  if (!Number.isFinite(value) || !Number.isFinite(max) || max <= 0) return;
  state.started = true;
  state.progressMessages += 1;
  tick(state, Date.now());
  // While stopping, the card keeps saying so instead of counting steps the server is about to abandon.
  if (state.stopping) return;
  const node = typeof body.node === 'string' ? graph[body.node] : undefined;
  const stage = node !== undefined && UPSCALE_NODES.has(node.class_type) ? 'upscaling' : 'sampling';
  context.onProgress({ stage, step: value, steps: max, fraction: Math.max(0, Math.min(1, value / max)) });
}
