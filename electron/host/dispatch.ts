import { isChannelName, type Handlers } from '../../shared/contract.js';
import { AppError, fail, ok, type Result } from '../../shared/errors.js';
import { parseChannelInput } from '../../shared/validate.js';

/** Called with errors that are not AppErrors: bugs worth logging, never shown to the caller in detail. */
export type UnexpectedErrorSink = (channel: string, error: unknown) => void;

/**
 * What both hosts do for one call: name check, schema validation, the handler, and every failure as a value.
 * The channel name is checked against the contract so nothing outside it is reachable.
 */
export async function dispatch(
  handlers: Handlers,
  channel: string,
  raw: unknown,
  onUnexpected?: UnexpectedErrorSink,
): Promise<Result<unknown>> {
  if (!isChannelName(channel)) {
    return fail(new AppError('not_found', `There is no channel called "${channel.slice(0, 64)}".`));
  }
  try {
    const input = parseChannelInput(channel, raw);
    // The handler map is indexed by a checked name; TypeScript cannot correlate the union, so widen once here.
    const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
    return ok(await handler(input));
  } catch (error) {
    if (!(error instanceof AppError)) onUnexpected?.(channel, error);
    return fail(error);
  }
}
