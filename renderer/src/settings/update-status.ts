import { useEffect, useState } from 'react';
import type { UpdateStatus } from '../../../shared/contract';
import type { Api } from '../api';
import { formatRelativeTime } from '../common/format';

/** The updater's status as the window knows it: asked once, then kept by the `updates.status` event. */
export function useUpdateStatus(api: Api): UpdateStatus | null {
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  useEffect(() => {
    let live = true;
    const off = api.on('updates.status', (next) => setStatus(next));
    // A host that cannot answer leaves the status unknown: nothing about updates is shown then.
    api.call('updates.status', {}).then(
      (first) => live && setStatus((seen) => seen ?? first),
      () => undefined,
    );
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return status;
}

/** One line for Settings → Updates. */
export function updateStatusLine(status: UpdateStatus, now: number): string {
  switch (status.state) {
    case 'off':
      if (status.reason === 'development') return 'This is a development run: it never updates itself.';
      if (status.reason === 'unsupported') return 'Only the desktop app updates itself; this setting applies there.';
      return 'Automatic updates are off. New versions are on the releases page.';
    case 'idle':
      return status.checkedAt === null
        ? 'Atelier checks for a new version at start and once a day.'
        : `Up to date — checked ${formatRelativeTime(status.checkedAt, now)}.`;
    case 'checking':
      return 'Checking for a new version…';
    case 'downloading':
      return `Downloading Atelier ${status.version} in the background — ${status.percent}%.`;
    case 'ready':
      return `Atelier ${status.version} is ready: it installs when Atelier restarts.`;
    case 'error':
      return status.message;
  }
}
