import { randomUUID } from 'node:crypto';
import { type GenerateRequest, operationOf } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { readJson } from '../http/body.js';
import { Deadline, sleep } from '../http/deadline.js';
import { type CallScope, abortedError, networkError } from '../http/errors.js';
import { send } from '../http/request.js';
import { joinUrl } from '../http/url.js';
import { runJob } from '../skeleton/run-job.js';
import type { ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { validate } from './capabilities.js';
import { stopRemoteTask } from './cancel.js';
import { PROVIDER, credentials } from './connection.js';
import { a1111ResponseError } from './errors.js';
import { img2imgFields, requireInputs } from './operations.js';
import { ProgressPoller } from './progress.js';
import { txt2imgBody } from './request.js';
import { parseResult } from './result.js';
import { upscaleHooks } from './upscale.js';

export interface RunOptions {
  pollIntervalMs: number;
  cancelGraceMs: number;
}

type Outcome = { ok: true; output: ProviderOutput } | { ok: false; error: unknown };

/**
 * A1111 on the provider skeleton (skeleton/run-job.ts): connect builds the body, submit starts the blocking
 * txt2img / img2img POST and the progress poller, await is that POST's outcome, collect stops polling. Cancel = the
 * global interrupt, sent only when our task is the running one.
 */
export async function generate(
  request: GenerateRequest,
  config: ProviderConfig,
  context: ProviderContext,
  options: RunOptions,
): Promise<ProviderOutput> {
  validate(request, config);
  const op = operationOf(request);
  const operation = 'operation' in op ? op.operation : 'generate';
  const inputs =
    operation === 'generate' || operation === 'variation' ? undefined : requireInputs(request, context.inputs);
  const { base, headers, secrets } = credentials(config);
  const model = request.model ?? config.model;
  const deadline = new Deadline(context.signal, request.timeoutMs ?? config.timeoutMs);
  const scope: CallScope = { provider: PROVIDER, deadline, secrets };
  if (operation === 'upscale') {
    return runJob({
      ...upscaleHooks(request, inputs!.image, { base, headers, config }, scope, context),
      fail: (error) => (error instanceof AppError ? error : networkError(error, scope, 'while A1111 was upscaling')),
      close: () => deadline.dispose(),
    });
  }
  // img2img blocks, polls and cancels exactly as txt2img does: only the route and the body's image fields differ.
  const route = inputs === undefined ? 'txt2img' : 'img2img';
  const taskId = `atelier-${randomUUID()}`;
  let accepted = false;
  const accept = (how: string) => {
    if (accepted) return;
    accepted = true;
    context.onAccepted();
    context.trace('accepted', `A1111 took the task (${how}).`, { taskId });
  };
  // The POST has its own controller: on cancel it must stay open until A1111 answers the interrupt.
  const post = new AbortController();
  const poller = new ProgressPoller({
    base,
    headers,
    taskId,
    intervalMs: options.pollIntervalMs,
    wantPreview: request.partialImages !== 0,
    scope,
    context,
    onRegistered: () => accept('seen in its progress'),
  });

  return runJob<Record<string, unknown>, { outcome: Promise<Outcome> }, Outcome>({
    async connect() {
      return {
        ...txt2imgBody(request, model, taskId),
        ...(inputs === undefined ? {} : img2imgFields(request, inputs.image, inputs.mask)),
      };
    },

    async submit(body) {
      const strength =
        inputs === undefined
          ? ''
          : `, strength ${String(body.denoising_strength)}${inputs.mask === undefined ? '' : ', masked'}`;
      context.trace(
        'request',
        `POST /sdapi/v1/${route} (${body.steps} steps, ${String(body.sampler_name)}, ` +
          `batch ${request.count}${strength})`,
        { taskId, model },
      );
      context.onProgress({ stage: 'submitting', fraction: 0 });
      // Settled into an Outcome (never rejecting): a cancel below still reads what the POST brought back late.
      const outcome: Promise<Outcome> = (async () => {
        const response = await send(
          joinUrl(base, `sdapi/v1/${route}`),
          { method: 'POST', headers, json: body, signal: post.signal },
          scope,
          'while A1111 was generating',
        );
        if (response.status !== 200) throw await a1111ResponseError(response, scope, `${route} API`);
        accept(`${route} answered`);
        return parseResult(
          await readJson(response, config.maxResponseBytes, scope, `the ${route} response`),
          scope,
          context,
          taskId,
          route,
        );
      })().then(
        (output) => ({ ok: true as const, output }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      poller.start();
      // Wrapped: an async hook returning the promise itself would wait for the whole generation here.
      return { outcome };
    },

    await: ({ outcome }) => outcome,

    cancel: {
      signal: deadline.signal,
      async stop({ outcome }) {
        await poller.stop();
        const interrupted = await stopRemoteTask(poller, base, headers, context, deadline.reason ?? 'cancel');
        // Without an interrupt nothing will make the blocked call return soon: do not wait for it.
        const late = interrupted ? await Promise.race([outcome, sleep(options.cancelGraceMs).then(() => null)]) : null;
        post.abort();
        // Decision: cancel wins. Whatever A1111 returns after the interrupt (partially denoised, or nothing) is
        // discarded, and the trace records how many images were dropped.
        if (late?.ok === true) {
          context.trace(
            'cancel',
            `A1111 returned ${late.output.images.length} partial image(s) after the interrupt; discarded because the ` +
              `job was ${deadline.reason === 'timeout' ? 'timed out' : 'cancelled'}.`,
            {
              discardedImages: late.output.images.length,
            },
          );
        }
        return abortedError(scope, true);
      },
    },

    async collect(first) {
      await poller.stop();
      if (first.ok) return first.output;
      throw first.error;
    },

    fail: (error) => (error instanceof AppError ? error : networkError(error, scope, 'while A1111 was generating')),

    async close() {
      post.abort();
      await poller.stop();
      deadline.dispose();
    },
  });
}
