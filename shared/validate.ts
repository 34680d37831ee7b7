import { AppError } from './errors.js';
import { channels, describeIssues, type ChannelInput, type ChannelName } from './contract.js';
import { inspectRawInput, type RawInputProblem } from './raw-input.js';

/** Validates a channel's raw input; a bad payload becomes `invalid_request` with per-field messages. */
export function parseChannelInput<C extends ChannelName>(channel: C, raw: unknown): ChannelInput<C> {
  // Every string and key of every channel, before any schema: zod would drop "__proto__" and keep broken text.
  const problem = inspectRawInput(raw);
  if (problem !== null) throw rawInputError(problem);
  const parsed = channels[channel].input.safeParse(raw === undefined ? {} : raw);
  if (parsed.success) return parsed.data as ChannelInput<C>;
  const { message, fields } = describeIssues(parsed.error);
  throw new AppError('invalid_request', message, { details: { fields } });
}

function rawInputError({ path, kind }: RawInputProblem): AppError {
  if (kind === 'proto') {
    return new AppError('invalid_request', `“${path}” is not a field Atelier accepts.`, {
      details: { fields: { [path]: 'Not an accepted field.' } },
    });
  }
  const what = kind === 'key' ? `A field name in “${path}”` : `“${path}”`;
  return new AppError(
    'invalid_request',
    `${what} contains a broken character (half of an emoji or other symbol, a lone surrogate). Type or paste that text again.`,
    {
      details: { fields: { [path]: 'Not valid text: it contains a lone surrogate.' } },
    },
  );
}
