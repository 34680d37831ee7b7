import { AppError, toErrorBody } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { GenerateRequest, JobCost, JobProgressEvent, JobResult } from '../../shared/contract.js';
import type { JobStore, NewImage, QueuedJob } from '../db/types.js';
import type { EventBus } from '../base/events.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import {
  type SHUTDOWN_REASON,
  type EncodedImage,
  type ProviderContext,
  type ProviderOutput,
  type ProviderProgress,
  type RemoteTask,
} from '../providers/types.js';
import type { ProgressThrottle } from './progress-throttle.js';
import { retryDelayMs, shouldRetry, sleep, type RetryPolicy } from './retry-policy.js';
import type { TerminalWrites } from './terminal-writes.js';
import type { JobMedia } from './types.js';
import type { InputReader, ProviderPool } from './ports.js';

/** Why the worker aborted a job; 'shutdown' is providers/types.ts SHUTDOWN_REASON (accepted work is left running). */
export type AbortReason = 'cancel' | typeof SHUTDOWN_REASON | 'timeout';

export interface RunJobDeps {
  store: JobStore;
  providers: ProviderPool;
  media: JobMedia;
  bus: EventBus;
  throttle: ProgressThrottle<JobProgressEvent>;
  clock: Clock;
  retry: RetryPolicy;
  log?: Logger;
  /** Extra time past the provider's own timeout before the worker aborts it itself. */
  hardTimeoutGraceMs: number;
  /** Where a job's end goes when the disk refuses it (the scheduler provides one). */
  terminal?: TerminalWrites;
  /** Reads the image (and mask) a job works from; absent, jobs run from text only. */
  inputs?: InputReader;
  /** Records what a paid job cost, or lets its held estimate go (electron/spend/spend-gate.ts). */
  spend?: SpendLedger;
}

/** The part of the spend gate a run settles with; the scheduler admits before the run starts. */
export interface SpendLedger {
  record(
    jobId: string,
    providerId: string,
    kind: string,
    model: string | undefined,
    request: GenerateRequest,
    output: { costUsd?: number | undefined },
  ): JobCost | undefined;
  release(jobId: string): void;
}

/**
 * Runs one claimed job to a terminal state. Never throws: every outcome is recorded in the store, or, when the disk
 * refuses even that, handed to `deps.terminal` to retry (the row stays running; a restart marks it interrupted).
 */
export async function runJob(job: QueuedJob, controller: AbortController, deps: RunJobDeps): Promise<void> {
  const { store, bus, clock, throttle } = deps;
  const started = clock.now();
  // Announcing is never worth failing a job over (a read on a drive that just went away).
  const emitChanged = (): void => {
    try {
      bus.emit('jobs.changed', { job: store.getSummary(job.id) });
    } catch (error) {
      deps.log?.warn('could not announce a job change', { jobId: job.id, error: String(error) });
    }
  };
  const trace = (kind: string, message: string, data?: Record<string, unknown>): void =>
    store.appendEvent(job.id, kind, message, data);
  // Traces from provider callbacks and preview promises: a throw there would escape as an unhandled error.
  const traceQuietly = (kind: string, message: string, data?: Record<string, unknown>): void => {
    try {
      trace(kind, message, data);
    } catch (error) {
      deps.log?.warn('could not record a job event', { jobId: job.id, kind, error: String(error) });
    }
  };
  // The handle is written before the provider goes on to await the result: a crash from here on resumes, not resubmits.
  const keepRemote = (handle: RemoteTask): void => {
    try {
      store.setRemote(job.id, { instance: job.provider, ...handle });
    } catch (error) {
      traceQuietly('warning', 'The provider’s id for this job could not be saved: a crash now would lose it.', {
        error: String(error),
      });
    }
  };
  // A job's end: written now, or kept and retried while the disk refuses it.
  const finish = (write: () => void): void => {
    try {
      write();
    } catch (error) {
      // Only the disk is worth waiting for; anything else (the job purged meanwhile) will not get better.
      if (deps.terminal === undefined || !isStorage(error)) {
        deps.log?.error('a finished job could not be recorded', { jobId: job.id, error: String(error) });
        return;
      }
      deps.terminal.defer(job.id, write, error);
      return;
    }
    emitChanged();
  };

  let partialImages = 0;
  let previewImageId: string | undefined;
  let stage = 'starting';
  let last: Omit<JobProgressEvent, 'id' | 'partialImages' | 'previewImageId'> = { stage };
  const progressEvent = (): JobProgressEvent => {
    const e: JobProgressEvent = { ...last, id: job.id, partialImages };
    if (previewImageId !== undefined) e.previewImageId = previewImageId;
    return e;
  };
  // Once the job is finishing, late callbacks (a preview still encoding) must not emit progress after its end.
  let ended = false;
  const setStage = (next: string, fraction?: number): void => {
    if (ended) return;
    // The same stage again (a preview landed) keeps the step count and ETA the provider last gave.
    const kept = next === stage ? last : { stage: next };
    stage = next;
    last = fraction === undefined ? kept : { ...kept, fraction };
    const p: { stage: string; fraction?: number; partialImages: number } = { stage, partialImages };
    if (fraction !== undefined) p.fraction = fraction;
    try {
      store.setProgress(job.id, p);
    } catch (error) {
      // Progress in the row is only a display; the event below still reaches the window.
      deps.log?.warn('could not record job progress', { jobId: job.id, error: String(error) });
    }
    throttle.push(job.id, progressEvent());
  };

  // A paid job's cost: what the provider reported, else its estimate; work never accepted lets its estimate go.
  let settled = false;
  let billable = job.remote !== undefined;
  const settle = (output: { costUsd?: number | undefined } | null): JobCost | undefined => {
    if (settled || deps.spend === undefined) return undefined;
    settled = true;
    try {
      if (output === null && !billable) {
        deps.spend.release(job.id);
        return undefined;
      }
      const kind = deps.providers.kindOf(job.provider) ?? job.provider;
      return deps.spend.record(job.id, job.provider, kind, job.request.model, job.request, output ?? {});
    } catch (error) {
      deps.log?.warn('could not record what a job cost', { jobId: job.id, error: String(error) });
      return undefined;
    }
  };

  let hardTimer: ReturnType<typeof setTimeout> | undefined;
  try {
    emitChanged();
    const { provider, config } = await deps.providers.ready(job.provider);
    const timeoutMs = job.request.timeoutMs ?? config.timeoutMs;
    config.timeoutMs = timeoutMs;
    // The provider enforces its own timeout; this is the backstop for one that does not.
    hardTimer = setTimeout(
      () => controller.abort('timeout' satisfies AbortReason),
      timeoutMs + deps.hardTimeoutGraceMs,
    );
    setStage('starting');
    const inputs = deps.inputs === undefined ? undefined : await deps.inputs.read(job.request);
    if (inputs?.references !== undefined) {
      const ids = job.request.referenceImages?.map((r) => r.imageId) ?? [];
      trace('input', `With ${ids.length} reference image${ids.length === 1 ? '' : 's'}.`, { referenceImageIds: ids });
    }
    if (inputs?.image !== undefined) {
      const from = job.request.upscale?.imageId ?? job.request.inputImage?.imageId;
      trace(
        'input',
        `Working from image ${from} (${inputs.image.width}×${inputs.image.height}${inputs.mask === undefined ? '' : ', with a mask'}).`,
        { imageId: from },
      );
    }

    // Work accepted before: collected through its handle, never sent again (a restart after a crash or a quit).
    let remote: RemoteTask | undefined = job.remote;
    let output: ProviderOutput | undefined;
    let lost = 0;
    for (let attempt = 1; output === undefined; attempt += 1) {
      let accepted = remote !== undefined;
      const context = {
        signal: controller.signal,
        onAccepted: (handle?: RemoteTask) => {
          if (handle !== undefined && remote === undefined) {
            remote = handle;
            keepRemote(handle);
          }
          if (accepted) return;
          accepted = true;
          billable = true;
          traceQuietly('accepted', `${provider.name} accepted the request.`, { attempt });
        },
        onProgress: (p: ProviderProgress) => {
          if (ended) return;
          if (p.stage !== stage) setStage(p.stage, p.fraction);
          last = { ...p };
          throttle.push(job.id, progressEvent());
        },
        onPartialImage: (image: EncodedImage) => {
          void deps.media
            .addPreview(job.id, image)
            .then((id) => {
              if (ended) return;
              partialImages += 1;
              previewImageId = id;
              setStage(stage, last.fraction);
            })
            .catch((error: unknown) =>
              traceQuietly('warning', 'A partial preview could not be kept.', { error: String(error) }),
            );
        },
        // Providers trace from stream and socket callbacks, where a throw would escape.
        trace: traceQuietly,
        ...(inputs === undefined ? {} : { inputs }),
      } satisfies ProviderContext;
      try {
        if (remote === undefined) {
          trace('attempt', `Attempt ${attempt} with ${provider.name}.`, { attempt });
          output = await provider.generate(job.request, config, context);
        } else {
          if (provider.resume === undefined) throw cannotResume(provider.name);
          output = await provider.resume(remote, job.request, config, context);
        }
      } catch (error) {
        if (controller.signal.aborted) throw abortError(controller.signal.reason);
        // Accepted work whose connection dropped is collected again through its handle, until the job's timeout.
        if (remote !== undefined && provider.resume !== undefined && isConnectionLoss(error)) {
          lost += 1;
          const delay = Math.min(deps.retry.maxDelayMs, deps.retry.baseDelayMs * 2 ** Math.min(lost - 1, 10));
          trace(
            'reconnect',
            `${toErrorBody(error).message} Collecting the accepted work again in ${Math.ceil(delay / 1000)} s.`,
            {
              delayMs: delay,
            },
          );
          setStage('reconnecting');
          await sleep(delay, controller.signal).catch(() => {
            throw abortError(controller.signal.reason);
          });
          continue;
        }
        if (!shouldRetry(error, attempt, accepted, deps.retry)) throw error;
        const delay = retryDelayMs(error, attempt, deps.retry);
        const body = toErrorBody(error);
        trace('retry', `${body.message} Trying again in ${Math.ceil(delay / 1000)} s.`, {
          attempt,
          delayMs: delay,
          code: body.code,
        });
        setStage('waiting to retry');
        await sleep(delay, controller.signal).catch(() => {
          throw abortError(controller.signal.reason);
        });
      }
    }
    // A result that arrived before a cancel landed is kept: the work is done and maybe paid for.
    if (output.images.length === 0) throw new AppError('provider_error', `${provider.name} returned no images.`);
    clearTimeout(hardTimer);
    setStage('saving', 1);
    const providerDone = clock.now();
    const images: NewImage[] = [];
    for (const [index, image] of output.images.entries()) {
      // Only the provider knows how a batch's seeds relate (seed + i, or one shared seed): never guessed here.
      const { seed, batchIndex } = image;
      images.push(
        await deps.media.storeImage({
          imageId: uuidv7(clock.now()),
          jobId: job.id,
          index,
          image,
          request: job.request,
          ...(seed === undefined ? {} : { seed }),
          ...(batchIndex === undefined ? {} : { batchIndex }),
          createdAt: job.createdAt,
        }),
      );
    }
    const finished = clock.now();
    const result: JobResult = {
      timings: {
        queuedMs: Math.max(0, started - job.createdAt),
        providerMs: providerDone - started,
        storeMs: finished - providerDone,
        totalMs: finished - job.createdAt,
      },
    };
    if (output.revisedPrompt !== undefined) result.revisedPrompt = output.revisedPrompt;
    const seed = output.seed ?? output.images[0]?.seed;
    if (seed !== undefined) result.seed = seed;
    if (output.usage !== undefined) result.usage = output.usage;
    const cost = settle(output);
    if (cost !== undefined) result.cost = cost;
    ended = true;
    throttle.drop(job.id);
    try {
      store.succeed(job.id, images, result);
    } catch (error) {
      // The images are on disk and maybe paid for: keep trying to record them rather than fail the job.
      if (!isStorage(error)) throw error;
      finish(() => store.succeed(job.id, images, result));
      return;
    }
    emitChanged();
  } catch (error) {
    ended = true;
    throttle.drop(job.id);
    const body = toErrorBody(error);
    // Quitting leaves accepted work to be collected (and costed) by the next start.
    if (body.code !== 'interrupted' || !billable) settle(null);
    if (!(error instanceof AppError))
      deps.log?.error('job failed unexpectedly', { jobId: job.id, error: String(error) });
    if (body.code === 'interrupted') {
      // Quitting: leave the row running so the next start marks it interrupted exactly like a crash.
      return;
    }
    const totalMs = clock.now() - job.createdAt;
    if (body.code === 'cancelled') finish(() => store.markCancelled(job.id, body.message));
    else finish(() => store.fail(job.id, body, { timings: { totalMs } }));
  } finally {
    clearTimeout(hardTimer);
    await deps.media.clearPreviews(job.id).catch(() => undefined);
  }
}

/** A failure that says the connection went, not the work: the provider may still be doing it. */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof AppError)) return false;
  return error.code === 'provider_unavailable' || error.details?.['dropped'] === true;
}

function cannotResume(name: string): AppError {
  return new AppError(
    'interrupted',
    `Atelier stopped while ${name} worked on this job, and ${name} cannot be asked for it again. Check its history before retrying: it may have run.`,
    { retryable: false },
  );
}

const isStorage = (error: unknown): boolean => error instanceof AppError && error.code === 'storage';

function abortError(reason: unknown): AppError {
  if (reason === 'timeout') {
    return new AppError(
      'timeout',
      'The provider took too long and was stopped. It may still have run the job: check its history before retrying.',
      { retryable: false },
    );
  }
  if (reason === 'shutdown') {
    return new AppError(
      'interrupted',
      'Atelier quit while this job was running. Check the provider’s history before retrying: it may have run.',
      { retryable: false },
    );
  }
  return new AppError('cancelled', 'The job was cancelled.');
}
