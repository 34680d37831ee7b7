import type { EventEmitter } from 'node:events';
import { isCrash, type CrashEvent } from './crash-reports.js';

interface GoneDetails {
  reason: string;
  exitCode: number;
  type?: string;
  name?: string;
}

/**
 * Every way the app can crash, turned into one report call: main's uncaught errors and rejections, and Electron's
 * app-wide 'render-process-gone' (any window) and 'child-process-gone' (GPU, utility) when the end was a crash.
 */
export function watchCrashes(
  sources: { process: Pick<EventEmitter, 'on'>; app: Pick<EventEmitter, 'on'> },
  report: (event: CrashEvent) => void,
): void {
  const safely = (event: CrashEvent): void => {
    try {
      report(event);
    } catch {
      // A report that cannot be written must not become a second crash inside the handler.
    }
  };
  sources.process.on('uncaughtException', (error: unknown) => safely({ kind: 'uncaught exception', error }));
  sources.process.on('unhandledRejection', (reason: unknown) => safely({ kind: 'unhandled rejection', error: reason }));
  sources.app.on('render-process-gone', (_event: unknown, _contents: unknown, details: GoneDetails) => {
    if (isCrash(details.reason))
      safely({ kind: 'renderer gone', details: { reason: details.reason, exitCode: details.exitCode } });
  });
  sources.app.on('child-process-gone', (_event: unknown, details: GoneDetails) => {
    if (!isCrash(details.reason)) return;
    safely({
      kind: 'child process gone',
      details: {
        type: details.type,
        reason: details.reason,
        exitCode: details.exitCode,
        ...(details.name === undefined ? {} : { name: details.name }),
      },
    });
  });
}
