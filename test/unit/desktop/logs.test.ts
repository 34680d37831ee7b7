import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodeLog from 'electron-log/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { learningKeyring } from '../../../electron/desktop/known-secrets.js';
import { createScrubber, type Scrubber } from '../../../electron/desktop/log-scrub.js';
import {
  LOG_KEEP,
  LOG_MAX_BYTES,
  TAIL_LINES,
  createDesktopLog,
  type FileLogTarget,
} from '../../../electron/desktop/logs.js';
import { createRedactor, createSecretBook } from '../../../electron/providers/redact.js';
import { memoryKeyring, waitFor } from '../../integration/engine/harness.js';

const KEY = 'sk-desktop-log-key-0123456789';

let dir: string;
let logId = 0;

/** electron-log's Node logger (the same file transport as its main one, without Electron), writing into `dir`. */
function fileLogger() {
  const logger = nodeLog.create({ logId: `test-${++logId}` });
  const file = join(dir, 'main.log');
  logger.transports.file.resolvePathFn = () => file;
  return Object.assign(logger, { file });
}

/** The desktop log over it, quiet on the console so test output stays readable. */
function desktopLog(target: FileLogTarget, scrub: Scrubber) {
  const log = createDesktopLog(target, scrub);
  target.transports.console.level = false;
  return log;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atelier-logs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the desktop log file', () => {
  it('writes info and above, rotates at 5 MB and keeps the previous files', () => {
    const target = fileLogger();
    const log = desktopLog(
      target,
      createScrubber(() => createRedactor([])),
    );
    expect(target.transports.file.maxSize).toBe(LOG_MAX_BYTES);
    expect(target.transports.file.level).toBe('info');
    expect(log.folder).toBe(dir);
    target.debug('a debug line');
    log.info('an info line');
    expect(readFileSync(target.file, 'utf8')).toContain('an info line');
    expect(readFileSync(target.file, 'utf8')).not.toContain('a debug line');

    // Our rotation, exercised at a small size: each file past it moves down one place, the oldest goes.
    target.transports.file.maxSize = 100;
    for (let n = 1; n <= 8; n++) log.info(`line ${n} ${'x'.repeat(120)}`);
    const named = (k: number) => join(dir, `main.${k}.log`);
    for (let k = 1; k <= LOG_KEEP; k++) expect(existsSync(named(k))).toBe(true);
    expect(existsSync(named(LOG_KEEP + 1))).toBe(false);
    expect(readFileSync(target.file, 'utf8')).toContain('line 8');
    expect(readFileSync(named(1), 'utf8')).toContain('line 7');
    expect(readFileSync(named(3), 'utf8')).toContain('line 5');
  });

  it('never writes a known secret or a prompt, in the message or its fields', () => {
    const target = fileLogger();
    const log = desktopLog(
      target,
      createScrubber(() => createRedactor([KEY])),
    );
    log.error(`provider answered 401 for Bearer ${KEY}`, {
      body: `{"error":"bad key ${KEY}","prompt":"a red fox in snow","negative_prompt":"blurry fox"}`,
      request: { prompt: 'a red fox in snow', width: 512 },
      error: new Error(`boom ${KEY}`),
    });
    const written = readFileSync(target.file, 'utf8');
    expect(written).toContain('provider answered 401 for Bearer ***');
    expect(written).toContain('"width":512');
    expect(written).not.toContain(KEY);
    expect(written).not.toContain('red fox');
    expect(written).not.toContain('blurry fox');
    expect(log.tail().join('\n')).not.toContain(KEY);
  });

  it('remembers the last lines for a crash report, scrubbed', () => {
    const log = desktopLog(
      fileLogger(),
      createScrubber(() => createRedactor([KEY])),
    );
    for (let n = 0; n < TAIL_LINES + 25; n++) log.info(`line ${n} ${KEY}`);
    const tail = log.tail();
    expect(tail).toHaveLength(TAIL_LINES);
    expect(tail[0]).toContain('[info] line 25 ***');
    expect(tail.at(-1)).toContain(`line ${TAIL_LINES + 24} ***`);
  });

  it("is the engine's log: an engine line lands in the file with a provider key it echoes redacted", async () => {
    const target = fileLogger();
    const book = createSecretBook();
    const log = desktopLog(
      target,
      createScrubber(() => book.redactor()),
    );
    const dataDir = join(dir, 'data');
    const engine = await createEngine(
      {
        dataDir,
        keyring: learningKeyring(memoryKeyring(), book),
        log,
        secrets: book,
      },
      {
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
      },
    );
    try {
      await engine.handlers['settings.update']({ providers: { openai: { apiKey: KEY } } });
      // A listener that throws with the key in its message: the engine logs it (event-bus.ts).
      engine.events.on('jobs.changed', () => {
        throw new Error(`listener saw ${KEY}`);
      });
      await engine.handlers['jobs.submit']({
        provider: 'builtin',
        prompt: 'a quiet harbour at dawn',
        width: 64,
        height: 64,
        count: 1,
      });
      const written = await waitFor(() => {
        const text = existsSync(target.file) ? readFileSync(target.file, 'utf8') : '';
        return text.includes('event listener failed') ? text : undefined;
      });
      expect(written).toContain('listener saw ***');
      expect(written).not.toContain(KEY);
      expect(written).not.toContain('quiet harbour');
    } finally {
      await engine.close({ graceMs: 0 });
    }
  });

  it('redacts what only a provider call knows (a Basic credential) because the engine shares its secret book', async () => {
    const target = fileLogger();
    const book = createSecretBook();
    const log = desktopLog(
      target,
      createScrubber(() => book.redactor()),
    );
    const engine = await createEngine(
      {
        dataDir: join(dir, 'data'),
        keyring: learningKeyring(memoryKeyring(), book),
        log,
        secrets: book,
      },
      {
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
      },
    );
    const basic = Buffer.from('artist:a1111-pass-4242').toString('base64');
    try {
      await engine.handlers['settings.update']({
        providers: {
          a1111: { enabled: true, baseUrl: 'http://127.0.0.1:9', username: 'artist', password: 'a1111-pass-4242' },
        },
      });
      // Nothing listens on port 9: the test fails, but the call has put its credential forms in the book.
      await engine.handlers['providers.test']({ id: 'a1111' });
      log.warn(`retrying with Authorization: Basic ${basic}`);
      const written = readFileSync(target.file, 'utf8');
      expect(written).toContain('Authorization: Basic ***');
      expect(written).not.toContain(basic);
    } finally {
      await engine.close({ graceMs: 0 });
    }
  });
});
