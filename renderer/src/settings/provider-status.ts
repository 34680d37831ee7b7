import type { ProviderInfo } from '../../../shared/contract';
import { formatRelativeTime } from '../common/format';

const NOT_TESTED = 'Not tested yet: Test connection checks that it answers.';
const NEEDS_SETUP = 'Add its address or key below, then test it.';

export type ProviderTone = 'off' | 'idle' | 'ok' | 'fail';

export interface ProviderStatusView {
  /** The badge: Off, Needs setup, Not tested, Ready, Failing. */
  label: string;
  tone: ProviderTone;
  /** The line under it: when it last passed, or what it last said. */
  detail: string;
  /** The same without the provider's message (shown when the test result beside it already says it). */
  headline: string;
  /** For the provider picker: nothing when ready, otherwise why not. */
  pickerNote: string;
}

/**
 * What a provider card and the picker say, from what the engine last saw. `liveFailure` is a failure seen on a job
 * since the list was fetched (the banner's), which wins over an older Ready.
 */
export function providerStatusView(
  provider: Pick<ProviderInfo, 'configured' | 'status'>,
  now: number,
  liveFailure?: string,
): ProviderStatusView {
  const { status } = provider;
  if (status.state === 'off') {
    const detail = 'Turned off: it is not offered in the composer.';
    return { label: 'Off', tone: 'off', detail, headline: detail, pickerNote: 'off' };
  }
  if (liveFailure !== undefined)
    return {
      label: 'Failing',
      tone: 'fail',
      detail: `Last job failed: ${liveFailure}`,
      headline: 'Last job failed.',
      pickerNote: 'failing',
    };
  const when = status.at === undefined ? '' : ` ${formatRelativeTime(status.at, now)}`;
  const what = status.source === 'job' ? 'job' : 'test';
  switch (status.state) {
    case 'ready': {
      const detail = status.at === undefined ? 'Works offline: nothing to test.' : `Last ${what} passed${when}.`;
      return { label: 'Ready', tone: 'ok', detail, headline: detail, pickerNote: '' };
    }
    case 'failing':
      return {
        label: 'Failing',
        tone: 'fail',
        detail: `Last ${what} failed${when}: ${status.message ?? 'no reason given.'}`,
        headline: `Last ${what} failed${when}.`,
        pickerNote: 'failing',
      };
    default:
      return provider.configured
        ? { label: 'Not tested', tone: 'idle', detail: NOT_TESTED, headline: NOT_TESTED, pickerNote: 'not tested' }
        : { label: 'Needs setup', tone: 'idle', detail: NEEDS_SETUP, headline: NEEDS_SETUP, pickerNote: 'needs setup' };
  }
}
