/** What a tqdm progress line says: ` 45%|████▌     | 13/28 [00:03<00:03, 4.1it/s]` → 45 %, step 13 of 28. */
export interface LogProgress {
  fraction: number;
  step: number;
  steps: number;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

/** Digits from `at`, at most `max` of them; returns the value and where they end, or undefined when there are none. */
function digits(line: string, at: number, max = 9): { value: number; end: number } | undefined {
  let end = at;
  while (end < line.length && isDigit(line.charCodeAt(end)) && end - at < max) end += 1;
  if (end === at) return undefined;
  return { value: Number(line.slice(at, end)), end };
}

/**
 * One line in the shape the Replicate SDK's `parseProgressFromLogs` reads (`^\s*(\d+)%\s*\|.+?\|\s*(\d+)\/(\d+)`),
 * scanned by hand in one pass: the bar ends at its first `|`, so no backtracking over a hostile line.
 */
function parseLine(line: string): LogProgress | undefined {
  let at = 0;
  while (at < line.length && isSpace(line.charCodeAt(at))) at += 1;
  const percent = digits(line, at);
  if (percent === undefined || line[percent.end] !== '%') return undefined;
  at = percent.end + 1;
  while (at < line.length && isSpace(line.charCodeAt(at))) at += 1;
  if (line[at] !== '|') return undefined;
  const close = line.indexOf('|', at + 2);
  if (close === -1) return undefined;
  at = close + 1;
  while (at < line.length && isSpace(line.charCodeAt(at))) at += 1;
  const step = digits(line, at);
  if (step === undefined || line[step.end] !== '/') return undefined;
  const steps = digits(line, step.end + 1);
  if (steps === undefined || steps.value === 0) return undefined;
  return { fraction: Math.min(1, percent.value / 100), step: Math.min(step.value, steps.value), steps: steps.value };
}

/** The last progress line in a prediction's logs (lines end in LF or CR: tqdm redraws in place with CR). */
export function progressFromLogs(logs: string | undefined): LogProgress | undefined {
  if (logs === undefined) return undefined;
  let end = logs.length;
  while (end > 0) {
    let start = end - 1;
    while (start >= 0 && logs.charCodeAt(start) !== 10 && logs.charCodeAt(start) !== 13) start -= 1;
    const found = parseLine(logs.slice(start + 1, end));
    if (found !== undefined) return found;
    end = start;
  }
  return undefined;
}

/** The seed a model printed (`Using seed: 1234`, as Replicate's FLUX and SD models log), if any. */
export function seedFromLogs(logs: string | undefined): number | undefined {
  if (logs === undefined) return undefined;
  const marker = 'Using seed: ';
  const at = logs.lastIndexOf(marker);
  if (at === -1) return undefined;
  const found = digits(logs, at + marker.length, 15);
  if (found === undefined || (found.end < logs.length && isDigit(logs.charCodeAt(found.end)))) return undefined;
  return found.value;
}
