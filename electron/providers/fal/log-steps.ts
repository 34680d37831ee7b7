/** Only a log line's first characters are read: a step counter sits near its start, and a huge line costs no more. */
const SCAN_LIMIT = 2000;
const MAX_DIGITS = 6;

export interface LogStep {
  step: number;
  steps: number;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

/**
 * The last "12/28"-style counter in a runner's log line (tqdm writes ` 43%|████▎ | 12/28 [00:03<00:04]`), or null.
 * One pass: each slash looks left over at most spaces and one run of digits, and right the same, and a run of digits
 * belongs to at most one slash on each side, so the work is linear in the line's length.
 */
export function stepOfLine(line: string): LogStep | null {
  const text = line.length > SCAN_LIMIT ? line.slice(0, SCAN_LIMIT) : line;
  let found: LogStep | null = null;
  for (let slash = text.indexOf('/'); slash !== -1; slash = text.indexOf('/', slash + 1)) {
    let left = slash - 1;
    while (left >= 0 && isSpace(text.charCodeAt(left))) left -= 1;
    const leftEnd = left + 1;
    while (left >= 0 && isDigit(text.charCodeAt(left)) && leftEnd - left <= MAX_DIGITS + 1) left -= 1;
    const leftDigits = leftEnd - (left + 1);
    // A longer run, or one glued to a letter or dot ("v1.5/2", "a1/2"), is not a counter.
    if (leftDigits === 0 || leftDigits > MAX_DIGITS) continue;
    if (left >= 0 && !isSpace(text.charCodeAt(left)) && text[left] !== '|' && text[left] !== '(' && text[left] !== '[')
      continue;
    let right = slash + 1;
    while (right < text.length && isSpace(text.charCodeAt(right))) right += 1;
    const rightStart = right;
    while (right < text.length && isDigit(text.charCodeAt(right)) && right - rightStart <= MAX_DIGITS) right += 1;
    const rightDigits = right - rightStart;
    if (rightDigits === 0 || rightDigits > MAX_DIGITS) continue;
    if (right < text.length && /[A-Za-z0-9./]/.test(text[right]!)) continue;
    const step = Number(text.slice(left + 1, leftEnd));
    const steps = Number(text.slice(rightStart, right));
    if (steps > 0 && step <= steps) found = { step, steps };
  }
  return found;
}

/** The newest step counter among the last few log lines (fal sends every line so far with each status). */
export function stepOfLogs(messages: readonly string[], lookBack = 20): LogStep | null {
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - lookBack); i -= 1) {
    const step = stepOfLine(messages[i]!);
    if (step !== null) return step;
  }
  return null;
}
