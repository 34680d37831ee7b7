import { EventEmitter } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  crashDir,
  offerCrashReport,
  writeCrashReport,
  type CrashContext,
  type CrashEvent,
} from '../../../electron/desktop/crash-reports.js';
import { watchCrashes } from '../../../electron/desktop/crash-watch.js';
import { createScrubber } from '../../../electron/desktop/log-scrub.js';
import { createRedactor } from '../../../electron/providers/redact.js';

let logs: string;
beforeEach(async () => {
  logs = await mkdtemp(join(tmpdir(), 'atelier-crash-'));
});
afterEach(async () => {
  await rm(logs, { recursive: true, force: true });
});

const context = (at: string, over: Partial<CrashContext> = {}): CrashContext => ({
  at: new Date(at),
  about: ['Atelier 1.2.3', 'Electron 45.5.0 · Chrome 142.0.7444.52 · Node 22.20.0', 'OS linux 6.8.0 (x64)'],
  tail: [
    '2026-12-01T10:00:00.000Z [info] started',
    '2026-12-01T10:00:01.000Z [warn] slow query {"name":"jobs.list","ms":80}',
  ],
  scrub: createScrubber(() => createRedactor([])),
  ...over,
});

describe('a crash report', () => {
  it('is written to <logs>/crashes/<time>.txt with the time, versions, error, stack and the last log lines', () => {
    const error = new TypeError('Cannot read properties of undefined');
    const path = writeCrashReport(logs, { kind: 'uncaught exception', error }, context('2026-12-01T10:00:02.345Z'));
    expect(path).toBe(join(logs, 'crashes', '2026-12-01T10-00-02-345Z.txt'));
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('Time: 2026-12-01T10:00:02.345Z');
    expect(text).toContain('What happened: uncaught exception');
    expect(text).toContain('Electron 45.5.0 · Chrome 142.0.7444.52 · Node 22.20.0');
    expect(text).toContain('TypeError: Cannot read properties of undefined\n    at ');
    expect(text).toContain(
      'Last 2 log lines:\n2026-12-01T10:00:00.000Z [info] started\n2026-12-01T10:00:01.000Z [warn] slow query',
    );
  });

  it('keeps both reports of two crashes in the same millisecond', () => {
    const at = '2026-12-01T10:00:02.345Z';
    writeCrashReport(logs, { kind: 'unhandled rejection', error: 'first' }, context(at));
    writeCrashReport(logs, { kind: 'unhandled rejection', error: 'second' }, context(at));
    expect(readdirSync(crashDir(logs)).sort()).toEqual([
      '2026-12-01T10-00-02-345Z-1.txt',
      '2026-12-01T10-00-02-345Z.txt',
    ]);
  });

  it('never carries a secret or a prompt, from the error or the log lines', () => {
    const text = fc.string({ minLength: 12, maxLength: 60 }).filter((s) => new Set(s).size >= 6 && !/[\n\r]/.test(s));
    fc.assert(
      fc.property(text, text, (secret, prompt) => {
        const scrub = createScrubber(() => createRedactor([secret]));
        const error = new Error(`provider said 401 for key ${secret}: {"prompt":${JSON.stringify(prompt)},"n":1}`);
        const tail = [
          `[error] request failed prompt: ${prompt}`,
          `[info] auth Bearer ${secret}`,
          `[warn] body {"negative_prompt":${JSON.stringify(prompt)}}`,
        ];
        const path = writeCrashReport(
          logs,
          { kind: 'uncaught exception', error, details: { prompt, key: secret } },
          context('2026-12-01T10:00:02.345Z', { tail, scrub }),
        );
        const written = readFileSync(path, 'utf8');
        expect(written).not.toContain(secret);
        expect(written).not.toContain(prompt);
        expect(written).not.toContain(JSON.stringify(prompt).slice(1, -1));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the next start', () => {
  const write = (at: string) =>
    writeCrashReport(logs, { kind: 'renderer gone', details: { reason: 'oom', exitCode: 1 } }, context(at));

  it('offers the newest report once, and opens it when asked', async () => {
    write('2026-12-01T10:00:00.000Z');
    const newest = write('2026-12-01T11:00:00.000Z');
    const ask = vi.fn(async () => true);
    const open = vi.fn(async () => '');
    expect(await offerCrashReport(logs, { ask, open })).toBe('opened');
    expect(ask).toHaveBeenCalledWith(newest);
    expect(open).toHaveBeenCalledWith(newest);

    expect(await offerCrashReport(logs, { ask, open })).toBe('none');
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('offers a later crash after a dismissed one, and never an older report', async () => {
    write('2026-12-01T10:00:00.000Z');
    const ask = vi.fn(async (_path: string) => false);
    const open = vi.fn(async () => '');
    expect(await offerCrashReport(logs, { ask, open })).toBe('dismissed');
    expect(await offerCrashReport(logs, { ask, open })).toBe('none');
    expect(open).not.toHaveBeenCalled();

    write('2026-12-01T09:00:00.000Z');
    expect(await offerCrashReport(logs, { ask, open })).toBe('none');
    const later = write('2026-12-01T12:00:00.000Z');
    expect(await offerCrashReport(logs, { ask, open })).toBe('dismissed');
    expect(basename(ask.mock.calls.at(-1)![0] as string)).toBe(basename(later));
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('offers nothing when there was never a crash', async () => {
    const ask = vi.fn(async () => true);
    expect(await offerCrashReport(logs, { ask, open: async () => '' })).toBe('none');
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('what counts as a crash', () => {
  const sources = () => ({ process: new EventEmitter(), app: new EventEmitter() });

  it("reports main's uncaught errors and rejections, and renderers and child processes that crashed or ran out of memory", () => {
    const s = sources();
    const events: CrashEvent[] = [];
    watchCrashes(s, (event) => events.push(event));
    const error = new Error('main broke');
    s.process.emit('uncaughtException', error);
    s.process.emit('unhandledRejection', 'rejected');
    s.app.emit('render-process-gone', {}, {}, { reason: 'crashed', exitCode: 11 });
    s.app.emit('render-process-gone', {}, {}, { reason: 'clean-exit', exitCode: 0 });
    s.app.emit('render-process-gone', {}, {}, { reason: 'killed', exitCode: 9 });
    s.app.emit('child-process-gone', {}, { type: 'GPU', reason: 'oom', exitCode: 1 });
    s.app.emit('child-process-gone', {}, { type: 'Utility', reason: 'clean-exit', exitCode: 0, name: 'network' });
    expect(events).toEqual([
      { kind: 'uncaught exception', error },
      { kind: 'unhandled rejection', error: 'rejected' },
      { kind: 'renderer gone', details: { reason: 'crashed', exitCode: 11 } },
      { kind: 'child process gone', details: { type: 'GPU', reason: 'oom', exitCode: 1 } },
    ]);
  });

  it('a report that cannot be written does not throw from the handler', () => {
    const s = sources();
    watchCrashes(s, () => {
      throw new Error('disk full');
    });
    expect(() => s.process.emit('uncaughtException', new Error('x'))).not.toThrow();
  });
});
