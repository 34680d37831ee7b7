import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../../shared/contract.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import type { Logger } from '../../../electron/base/logger.js';
import type { Engine } from '../../../electron/engine/types.js';
import { createA1111Provider } from '../../../electron/providers/a1111/index.js';
import { createComfyUIProvider } from '../../../electron/providers/comfyui/index.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { Provider, ProviderConfig } from '../../../electron/providers/types.js';
import { AppError } from '../../../shared/errors.js';
import {
  a1111Errors,
  comfyErrors,
  openAIErrors,
  startFakeA1111,
  startFakeComfyUI,
  startFakeOpenAI,
} from '../../fakes/index.js';
import { config, recordingContext } from '../providers/helpers.js';
import { memoryKeyring, waitForStatus } from './harness.js';

const OPENAI_KEY = 'sk-echo-key-0123456789abcdef';
const A1111_USER = 'artist';
const A1111_PASSWORD = 'a1111-password-4242';
/** ComfyUI has no auth of its own: a proxy in front of it takes a Bearer key. */
const COMFY_KEY = 'comfy-proxy-key-9876543210';
const basic = (user: string, password: string): string => Buffer.from(`${user}:${password}`).toString('base64');
const SECRETS = [OPENAI_KEY, A1111_PASSWORD, basic(A1111_USER, A1111_PASSWORD), COMFY_KEY];

interface Run {
  dataDir: string;
  engine: Engine;
  logLines: string[];
  /** Everything the engine sent: events and channel answers. */
  sent: unknown[];
  closeFakes: Array<() => Promise<void>>;
}

/** Every place a secret could end up, as text (the database and its WAL as raw bytes). */
function everywhere(run: Run): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['atelier.db', 'atelier.db-wal']) {
    const path = join(run.dataDir, name);
    if (existsSync(path)) files[name] = readFileSync(path).toString('latin1');
  }
  return { ...files, log: run.logLines.join('\n'), sent: JSON.stringify(run.sent) };
}

function leaks(places: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [place, text] of Object.entries(places)) {
    for (const secret of SECRETS) if (text.includes(secret)) found.push(`${secret} in ${place}`);
  }
  return found;
}

describe('a provider that echoes the credentials it is sent', () => {
  let run: Run | undefined;
  afterEach(async () => {
    await run?.engine.close({ graceMs: 0 }).catch(() => undefined);
    for (const close of run?.closeFakes ?? []) await close();
    if (run !== undefined) await rm(run.dataDir, { recursive: true, force: true });
    run = undefined;
  });

  it('never gets a key, password or Basic credential into atelier.db, its WAL, the log, events, jobs.get or jobs.list', async () => {
    const openai = await startFakeOpenAI({ apiKey: OPENAI_KEY, echoCredentials: true });
    const a1111 = await startFakeA1111({
      auth: { username: A1111_USER, password: A1111_PASSWORD },
      echoCredentials: true,
    });
    const comfy = await startFakeComfyUI({ echoCredentials: true });
    const dataDir = await mkdtemp(join(tmpdir(), 'atelier-echo-'));
    const logLines: string[] = [];
    const sink = (level: string) => (message: string, fields?: Record<string, unknown>) =>
      logLines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    const log: Logger = { info: sink('info'), warn: sink('warn'), error: sink('error') };
    const engine = await createEngine(
      {
        dataDir,
        keyring: memoryKeyring(),
        log,
      },
      {
        providers: defaultProviders(),
        orphanGraceMs: 0,
        housekeepingDelayMs: 0,
        maintenanceIntervalMs: 0,
        retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
      },
    );
    run = {
      dataDir,
      engine,
      logLines,
      sent: [],
      closeFakes: [() => openai.close(), () => a1111.close(), () => comfy.close()],
    };
    const sent = run.sent;
    for (const name of ['jobs.changed', 'jobs.progress', 'jobs.removed'] as const)
      engine.events.on(name, (payload) => sent.push({ name, payload }));
    const h = engine.handlers;
    await h['settings.update']({
      providers: {
        openai: { apiKey: OPENAI_KEY, baseUrl: openai.url },
        a1111: { enabled: true, baseUrl: a1111.url, username: A1111_USER, password: A1111_PASSWORD },
        comfyui: { enabled: true, baseUrl: comfy.url, apiKey: COMFY_KEY, model: 'v1-5-pruned-emaonly.safetensors' },
      },
    });

    const jobs: string[] = [];
    const job = async (request: GenerateRequest, status: 'succeeded' | 'failed'): Promise<void> => {
      const { job: submitted } = await h['jobs.submit'](request);
      const done = await waitForStatus(engine, submitted.id, ['succeeded', 'failed', 'cancelled']);
      expect(done.status).toBe(status);
      jobs.push(done.id);
    };
    const openaiJob = (over: Partial<GenerateRequest>) => ({
      provider: 'openai',
      model: 'gpt-image-1',
      prompt: 'a paper boat',
      width: 1024,
      height: 1024,
      count: 1,
      ...over,
    });
    // Each provider: a success (revised prompt, usage, info, headers, stream events, progress) and failures
    // (error code/type/param/message, nested bodies, WebSocket errors).
    openai.setScenario({ kind: 'success', revisedPrompt: 'a paper boat, revised' });
    await job(openaiJob({}), 'succeeded');
    await job(openaiJob({ partialImages: 1 }), 'succeeded');
    openai.setScenario(openAIErrors.badValue('size'));
    await job(openaiJob({}), 'failed');
    openai.setScenario({ kind: 'stream_error' });
    await job(openaiJob({ partialImages: 1 }), 'failed');

    const sd = {
      provider: 'a1111',
      prompt: 'a red kite',
      width: 512,
      height: 512,
      count: 2,
      steps: 6,
      partialImages: 1,
    };
    a1111.setScenario({ kind: 'success', stepMs: 60, previewEvery: 2 });
    await job(sd, 'succeeded');
    a1111.setScenario(a1111Errors.outOfMemory());
    await job(sd, 'failed');
    a1111.setScenario(a1111Errors.validation());
    await job(sd, 'failed');

    const comfyJob = { provider: 'comfyui', prompt: 'a lighthouse', width: 512, height: 512, count: 1, steps: 3 };
    comfy.setScenario({ kind: 'success', previews: true });
    await job(comfyJob, 'succeeded');
    comfy.setScenario({ kind: 'execution_error', atStep: 2 });
    await job(comfyJob, 'failed');
    comfy.setScenario(comfyErrors.validation());
    await job(comfyJob, 'failed');

    for (const id of ['openai', 'a1111', 'comfyui']) sent.push(await h['providers.test']({ id }));
    for (const id of jobs) sent.push(await h['jobs.get']({ id }));
    sent.push(await h['jobs.list']({ view: 'all', limit: 200 }));
    sent.push(await h['jobs.list']({ view: 'all', limit: 200, search: 'boat' }));

    // The echoes really reached Atelier (so the search below means something), redacted and the rest kept.
    const first = await h['jobs.get']({ id: jobs[0]! });
    expect(first.result?.revisedPrompt).toMatch(/^a paper boat, revised Bearer \*\*\* \| \*\*\*$/);
    expect(openai.requests.every((r) => r.headers.authorization === `Bearer ${OPENAI_KEY}`)).toBe(true);
    const places = everywhere(run);
    expect(leaks(places)).toEqual([]);

    // After a clean close the WAL is folded into the database file: search that too.
    await engine.close({ graceMs: 0 });
    expect(leaks(everywhere(run))).toEqual([]);
  }, 60_000);
});

describe('credentials written into the base URL', () => {
  // Settings refuses them, but a library from before that rule (or a relay address) can still carry them.
  const USER = 'urluser';
  const PASSWORD = 'url-p@ss-5150';
  const forms = [PASSWORD, encodeURIComponent(PASSWORD), basic(USER, PASSWORD)];
  const withCredentials = (url: string) => url.replace('http://', `http://${USER}:${encodeURIComponent(PASSWORD)}@`);

  it('are redacted from everything A1111 and ComfyUI echo: output, traces, progress, errors and test results', async () => {
    const a1111 = await startFakeA1111({ auth: { username: USER, password: PASSWORD }, echoCredentials: true });
    const comfy = await startFakeComfyUI({ echoCredentials: true });
    try {
      const yielded: unknown[] = [];
      const request = { prompt: 'a red kite', width: 512, height: 512, count: 1, steps: 3 };
      /** Runs one generate per scenario and a connection test, keeping everything the provider yielded. */
      const exercise = async (provider: Provider, cfg: ProviderConfig, scenarios: Array<() => void>): Promise<void> => {
        for (const setScenario of scenarios) {
          setScenario();
          const context = recordingContext();
          const outcome = await provider
            .generate({ provider: provider.id, ...request }, cfg, context)
            .catch((error: unknown) => (error instanceof AppError ? error.toBody() : String(error)));
          yielded.push(outcome, context.traces, context.progress);
        }
        yielded.push(await provider.test(cfg, new AbortController().signal));
      };
      await exercise(
        redactingProvider(createA1111Provider({ pollIntervalMs: 20 })),
        config({ baseUrl: withCredentials(a1111.url) }),
        [
          () => a1111.setScenario({ kind: 'success', stepMs: 20, previewEvery: 1 }),
          () => a1111.setScenario(a1111Errors.outOfMemory()),
        ],
      );
      await exercise(
        redactingProvider(createComfyUIProvider()),
        config({ baseUrl: withCredentials(comfy.url), model: 'v1-5-pruned-emaonly.safetensors' }),
        [
          () => comfy.setScenario({ kind: 'success', previews: true }),
          () => comfy.setScenario({ kind: 'execution_error', atStep: 2 }),
          () => comfy.setScenario(comfyErrors.validation()),
        ],
      );
      expect(a1111.generationRequests()[0]!.headers.authorization).toBe(`Basic ${basic(USER, PASSWORD)}`);
      const text = JSON.stringify(yielded);
      expect(text).toContain('***');
      expect(forms.filter((form) => text.includes(form))).toEqual([]);
    } finally {
      await a1111.close();
      await comfy.close();
    }
  });
});
