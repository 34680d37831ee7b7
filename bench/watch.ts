/** `npm run bench -- watch [--files N] [--settle MS]`: a watched folder's time from a file's last write to its report. */
import { measureWatchLatency } from './lib/watch-latency.js';

function option(args: string[], name: string): number | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} needs a positive number`);
  return value;
}

export async function run(args: string[]): Promise<void> {
  const count = option(args, '--files') ?? 30;
  const settleMs = option(args, '--settle');
  const result = await measureWatchLatency({ count, ...(settleMs === undefined ? {} : { settleMs }) });
  const rows = [
    ['watched file: last write to report, p50', `${result.p50.toFixed(0)} ms`, ''],
    ['watched file: last write to report, p95', `${result.p95.toFixed(0)} ms`, '< 2000 ms with the import'],
    ['watched file: last write to report, max', `${result.max.toFixed(0)} ms`, ''],
  ];
  const head = ['measure', `value (${count} files of 1 MB)`, 'target'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  for (const row of [head, widths.map((w) => '-'.repeat(w)), ...rows]) {
    console.log(
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
  }
}
