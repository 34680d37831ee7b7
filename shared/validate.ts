import { AppError } from './errors.js';
import { channels, describeIssues, type ChannelInput, type ChannelName } from './contract.js';

/** Validates a channel's raw input; a bad payload becomes `invalid_request` with per-field messages. */
export function parseChannelInput<C extends ChannelName>(channel: C, raw: unknown): ChannelInput<C> {
  const parsed = channels[channel].input.safeParse(raw === undefined ? {} : raw);
  if (parsed.success) return parsed.data as ChannelInput<C>;
  const { message, fields } = describeIssues(parsed.error);
  throw new AppError('invalid_request', message, { details: { fields } });
}
