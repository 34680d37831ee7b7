/** A plain table for a bench's console: columns padded to their widest cell, two spaces apart. */
export function printTable(title: string, head: string[], body: string[][]): void {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => (row[c] ?? '').length)));
  console.log(`\n${title}`);
  for (const row of [head, ...body])
    console.log(
      row
        .map((cell, c) => (cell ?? '').padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
}

/**
 * The best of a few runs in ms (at least `minRuns`, more while within `ms`, never past `maxRuns`): the run least
 * disturbed by GC and the other cores' load.
 */
export function bestOf(
  run: () => void,
  { minRuns, maxRuns, ms }: { minRuns: number; maxRuns: number; ms: number },
): number {
  let min = Infinity;
  const until = performance.now() + ms;
  for (let i = 0; i < minRuns || (i < maxRuns && performance.now() < until); i++) {
    const start = performance.now();
    run();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}
