import type { ProviderInfo } from '../../../shared/contract';
import { formatRelativeTime } from './format';

export type ProviderTone = 'off' | 'idle' | 'ok' | 'fail';

export interface ProviderStatusView {
  /** The badge: Off, Needs setup, Not tested, Ready, Failing. */
  label: string;
  tone: ProviderTone;
  /** The line under it: when it last passed, or what it last said. */
  detail: string;
  /** For the provider picker: nothing when ready, otherwise why not. */
  pickerNote: string;
}

/**
 * What a provider card and the picker say, from what the engine last saw. `liveFailure` is a failure seen on a job
 * since the list was fetched (the banner's), which wins over an older Ready.
 */
export function providerStatusView(provider: Pick<ProviderInfo, 'configured' | 'status'>, now: number, liveFailure?: string): ProviderStatusView {
  const { status } = provider;
  if (status.state === 'off') return { label: 'Off', tone: 'off', detail: 'Turned off: it is not offered in the composer.', pickerNote: 'off' };
  if (liveFailure !== undefined) return { label: 'Failing', tone: 'fail', detail: `Last job: ${liveFailure}`, pickerNote: 'failing' };
  const when = status.at === undefined ? '' : ` ${formatRelativeTime(status.at, now)}`;
  const what = status.source === 'job' ? 'job' : 'test';
  switch (status.state) {
    case 'ready':
      return {
        label: 'Ready',
        tone: 'ok',
        detail: status.at === undefined ? 'Works offline: nothing to test.' : `Last ${what} passed${when}.`,
        pickerNote: '',
      };
    case 'failing':
      return {
        label: 'Failing',
        tone: 'fail',
        detail: `Last ${what} failed${when}: ${status.message ?? 'no reason given.'}`,
        pickerNote: 'failing',
      };
    default:
      return provider.configured
        ? { label: 'Not tested', tone: 'idle', detail: 'Not tested yet: Test connection checks that it answers.', pickerNote: 'not tested' }
        : { label: 'Needs setup', tone: 'idle', detail: 'Add its address or key below, then test it.', pickerNote: 'needs setup' };
  }
}
