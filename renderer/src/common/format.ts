import type { QueueWait } from '../../../shared/contract';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** 850 ms, 4.2 s, 3 min 05 s, 1 h 02 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const totalSeconds = Math.round(ms / 1_000);
  if (totalSeconds < 3_600) {
    const minutes = Math.floor(totalSeconds / 60);
    return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)} h ${String(totalMinutes % 60).padStart(2, '0')} min`;
}

export function formatEta(etaMs: number | undefined): string | null {
  if (etaMs === undefined || !Number.isFinite(etaMs) || etaMs < 0) return null;
  if (etaMs < 1_000) return 'almost done';
  return `about ${formatDuration(etaMs)} left`;
}

export function formatPercent(fraction: number | undefined): string | null {
  if (fraction === undefined || !Number.isFinite(fraction)) return null;
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
}

/**
 * 12345 -> "12,345". Not toLocaleString: its first call loads ICU number data, ~200 ms of a cold start spent on the
 * counts in the filter tabs.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [whole = '', fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** "just now", "5 min ago", "3 h ago", then a date. */
export function formatRelativeTime(at: number, now: number): string {
  const delta = now - at;
  if (delta < 45_000) return 'just now';
  if (delta < 3_600_000) return `${Math.round(delta / 60_000)} min ago`;
  if (delta < 86_400_000) return `${Math.round(delta / 3_600_000)} h ago`;
  return new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** A stage name from the engine ("sampling", "encoding") as a label. */
export function formatStage(stage: string): string {
  const words = stage.replace(/[_-]+/g, ' ').trim();
  return words === '' ? 'Working' : words[0]!.toUpperCase() + words.slice(1);
}

/** What a queue held up by the disk waits for, in the top bar and on each queued card. */
export function queueWaitLabel(waiting: QueueWait): string {
  return waiting.for === 'disk_space' ? 'Waiting for disk space' : 'Waiting for the library’s drive';
}

export function formatStatus(status: string): string {
  return formatStage(status);
}

/** $20.00, $0.06; under a cent keeps the digits that make it non-zero ($0.003). Mirrors electron/spend/money.ts. */
export function formatUsd(usd: number): string {
  const abs = Math.abs(usd);
  if (abs === 0 || abs >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(4).replace(/0+$/, '')}`;
}
