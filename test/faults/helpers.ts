import type { Logger } from '../../electron/base/logger.js';

export interface RecordingLog extends Logger {
  lines: Array<{ level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }>;
  has(message: string): boolean;
}

export function recordingLog(): RecordingLog {
  const lines: RecordingLog['lines'] = [];
  const push = (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
    lines.push({ level, message, ...(fields === undefined ? {} : { fields }) });
  };
  return {
    lines,
    info: push('info'),
    warn: push('warn'),
    error: push('error'),
    has: (m) => lines.some((l) => l.message === m),
  };
}

/** Collects unhandled rejections and uncaught exceptions for the test's duration: the process must see none. */
export function watchProcessCrashes(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (error: unknown): void => {
    errors.push(error);
  };
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  return {
    errors,
    stop() {
      process.off('unhandledRejection', onError);
      process.off('uncaughtException', onError);
    },
  };
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
