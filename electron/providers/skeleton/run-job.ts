import { AppError } from '../../../shared/errors.js';
import { isShutdown, type ProviderOutput } from '../types.js';

/**
 * What one provider fills in for one job; `runJob` calls them in this order: connect → submit → await → collect,
 * then close. Each hook keeps its provider's own progress stages, traces and accept point: the skeleton emits
 * nothing itself, so the events a job shows are exactly the provider's.
 */
export interface ProviderHooks<Connection, Submitted, Finished = Submitted> {
  /** Opens what the job talks through (a socket, uploads, an encoded form, a decoded source); nothing is billed. */
  connect(): Promise<Connection>;
  /** Hands the work over; the hook calls `context.onAccepted()` at its protocol's point of no return. */
  submit(connection: Connection): Promise<Submitted>;
  /** Resolves when the provider is done; progress and previews reach the context meanwhile. */
  await(submitted: Submitted, connection: Connection): Promise<Finished>;
  /** Reads, checks and shapes the result (downloads, seeds, info). */
  collect(finished: Finished, submitted: Submitted, connection: Connection): Promise<ProviderOutput>;
  /**
   * Stops submitted work on the server once `signal` aborts during await, and returns the error the job ends with.
   * Without it, awaiting is not raced: the provider's own calls end on the signal (a dropped connection, a render).
   */
  cancel?: {
    signal: AbortSignal;
    stop(submitted: Submitted, connection: Connection): Promise<unknown>;
  };
  /** Turns whatever a step threw into the job's error (a contract AppError); thrown as is when left out. */
  fail?(error: unknown): Promise<unknown> | unknown;
  /** Always runs last, whatever happened: sockets, pollers, the deadline. */
  close?(): Promise<void> | void;
}

const ABORTED = Symbol('aborted');

/** Runs one job through its provider's hooks (see ProviderHooks for the order and who emits what). */
export async function runJob<Connection, Submitted, Finished>(
  hooks: ProviderHooks<Connection, Submitted, Finished>,
): Promise<ProviderOutput> {
  try {
    const connection = await hooks.connect();
    const submitted = await hooks.submit(connection);
    const finishing = hooks.await(submitted, connection);
    const cancel = hooks.cancel;
    let finished: Finished;
    if (cancel === undefined) finished = await finishing;
    else {
      // The finished work comes first in the race: a result already there is not thrown away for a late cancel.
      const first = await Promise.race([finishing, aborted(cancel.signal)]);
      if (first === ABORTED) {
        // Quitting leaves the work with the provider: the next start collects it (Provider.resume), so no cancel is sent.
        if (isShutdown(cancel.signal)) throw leftRunning();
        throw await cancel.stop(submitted, connection);
      }
      finished = first as Finished;
    }
    return await hooks.collect(finished, submitted, connection);
  } catch (error) {
    throw hooks.fail === undefined ? error : await hooks.fail(error);
  } finally {
    await hooks.close?.();
  }
}

function leftRunning(): AppError {
  return new AppError(
    'interrupted',
    'Atelier quit while the provider worked on this job; it is collected on the next start.',
    {
      retryable: false,
      details: { phase: 'after_send' },
    },
  );
}

function aborted(signal: AbortSignal): Promise<typeof ABORTED> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
  });
}
