/**
 * Local crash reports: written to <logs>/crashes when main throws, a promise goes unhandled or a renderer or child
 * process dies; never sent anywhere. The next start offers the newest one a person has not been shown yet.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Scrubber } from './log-scrub.js';

export const CRASH_SUBDIR = 'crashes';
/** Holds the name of the last report offered, so each is offered once. */
const OFFERED_FILE = 'offered.txt';
const REPORT = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(-\d+)?\.txt$/;

/** Process ends worth a report; a clean exit or one Atelier asked for ('killed') is not a crash. */
const GONE_REASONS = new Set(['crashed', 'oom', 'abnormal-exit', 'launch-failed', 'integrity-failure']);
export const isCrash = (reason: string): boolean => GONE_REASONS.has(reason);

export interface CrashEvent {
  kind: 'uncaught exception' | 'unhandled rejection' | 'renderer gone' | 'child process gone';
  error?: unknown;
  /** What Electron said (reason, exit code, process type): small plain values. */
  details?: Record<string, unknown>;
}

export interface CrashContext {
  at: Date;
  /** Versions and platform, one fact a line. */
  about: string[];
  /** The log's last lines, oldest first. */
  tail: string[];
  scrub: Scrubber;
}

export const crashDir = (logsDir: string): string => join(logsDir, CRASH_SUBDIR);

/** 2026-12-01T18-47-34-123Z.txt: sorts by time, and is a legal file name on Windows. */
export const reportName = (at: Date): string => `${at.toISOString().replace(/[:.]/g, '-')}.txt`;

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
  } catch {
    return String(error);
  }
}

export function crashReportText(event: CrashEvent, context: CrashContext): string {
  const { scrub } = context;
  return [
    `Atelier crash report (kept on this computer, never sent)`,
    `Time: ${context.at.toISOString()}`,
    `What happened: ${event.kind}`,
    ...context.about,
    ...(event.details === undefined ? [] : [`Details: ${JSON.stringify(scrub.value(event.details))}`]),
    '',
    'Error:',
    event.error === undefined ? '(none)' : scrub.text(describe(event.error)),
    '',
    `Last ${context.tail.length} log lines:`,
    ...context.tail.map((line) => scrub.text(line)),
    '',
  ].join('\n');
}

/** Writes the report synchronously (the process may be about to end) and returns its path. */
export function writeCrashReport(logsDir: string, event: CrashEvent, context: CrashContext): string {
  const dir = crashDir(logsDir);
  mkdirSync(dir, { recursive: true });
  const text = crashReportText(event, context);
  const base = reportName(context.at).slice(0, -'.txt'.length);
  for (let n = 0; ; n++) {
    const path = join(dir, n === 0 ? `${base}.txt` : `${base}-${n}.txt`);
    try {
      // wx: two crashes in the same millisecond each keep their own report.
      writeFileSync(path, text, { flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function readOffered(dir: string): string {
  try {
    return readFileSync(join(dir, OFFERED_FILE), 'utf8').trim();
  } catch {
    return '';
  }
}

/** The newest report newer than the last one offered, or null. */
export function newestUnoffered(logsDir: string): string | null {
  const dir = crashDir(logsDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => REPORT.test(name));
  } catch {
    return null;
  }
  const offered = readOffered(dir);
  const newest = names.sort(byTime).at(-1);
  return newest === undefined || byTime(newest, offered) <= 0 ? null : join(dir, newest);
}

// Names sort by time, except that "-1" (a second report in one millisecond) follows its twin.
function byTime(a: string, b: string): number {
  const key = (name: string): [string, number] => {
    const match = /^(.*?Z)(?:-(\d+))?\.txt$/.exec(name);
    return match === null ? ['', -1] : [match[1]!, Number(match[2] ?? 0)];
  };
  const [ta, na] = key(a);
  const [tb, nb] = key(b);
  return ta < tb ? -1 : ta > tb ? 1 : na - nb;
}

export interface CrashOffer {
  /** Shows the offer; true when the person chose Open. */
  ask(path: string): Promise<boolean>;
  open(path: string): Promise<unknown>;
}

/** Offers the newest unseen report once: it is marked offered before asking, so a crash while asking cannot repeat it. */
export async function offerCrashReport(logsDir: string, offer: CrashOffer): Promise<'none' | 'opened' | 'dismissed'> {
  const path = newestUnoffered(logsDir);
  if (path === null) return 'none';
  writeFileSync(join(crashDir(logsDir), OFFERED_FILE), `${basename(path)}\n`);
  if (!(await offer.ask(path))) return 'dismissed';
  await offer.open(path);
  return 'opened';
}
