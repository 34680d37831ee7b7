/**
 * The desktop app's log: electron-log's file transport in the OS log folder, rotated, every line scrubbed of secrets
 * and prompts. electron-log/main imports 'electron', so main.ts imports it and passes it in here.
 */
import { renameSync, rmSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import type { NodeLogger } from 'electron-log';
import type { Logger } from '../base/logger.js';
import type { Scrubber } from './log-scrub.js';

/** A log file past this size is set aside and a new one begun. */
export const LOG_MAX_BYTES = 5 * 1024 * 1024;
/** Previous files kept beside main.log (main.1.log is the newest); older ones go. */
export const LOG_KEEP = 3;
/** Lines remembered in memory for a crash report. */
export const TAIL_LINES = 200;

/** What Atelier uses of electron-log's main (or node) logger. */
export type FileLogTarget = Pick<NodeLogger, 'transports' | 'info' | 'warn' | 'error'>;

export interface DesktopLog extends Logger {
  /** The folder the log files are in (electron-log's default for the OS). */
  readonly folder: string;
  /** The last TAIL_LINES lines written, oldest first, already scrubbed. */
  tail(): string[];
}

/** main.log → main.1.log → … → main.<keep>.log; the oldest is removed. Runs synchronously, as electron-log asks. */
export function rotateLogFiles(path: string, keep: number): void {
  const { dir, name, ext } = parse(path);
  const numbered = (n: number): string => join(dir, `${name}.${n}${ext}`);
  rmSync(numbered(keep), { force: true });
  for (let n = keep - 1; n >= 1; n--) {
    try {
      renameSync(numbered(n), numbered(n + 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  renameSync(path, numbered(1));
}

export function configureFileLog(target: FileLogTarget): void {
  const file = target.transports.file;
  file.level = 'info';
  file.maxSize = LOG_MAX_BYTES;
  file.archiveLogFn = (old) => {
    try {
      rotateLogFiles(old.path, LOG_KEEP);
    } catch {
      // A file held open elsewhere (Windows) cannot be renamed: start it over rather than let it grow without end.
      old.clear();
    }
  };
  target.transports.console.level = 'info';
}

function serialize(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[unserializable]';
  }
}

/** The engine's and main's Logger over the file, scrubbed before anything is written or remembered. */
export function createDesktopLog(
  target: FileLogTarget,
  scrub: Scrubber,
  now: () => Date = () => new Date(),
): DesktopLog {
  configureFileLog(target);
  const recent: string[] = [];
  const line =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      const text = scrub.text(message) + (fields === undefined ? '' : ` ${serialize(scrub.value(fields))}`);
      recent.push(`${now().toISOString()} [${level}] ${text}`);
      if (recent.length > TAIL_LINES) recent.splice(0, recent.length - TAIL_LINES);
      target[level](text);
    };
  return {
    // Asked when needed: electron-log settles its paths on first use.
    get folder() {
      return dirname(target.transports.file.getFile().path);
    },
    tail: () => [...recent],
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
}
