import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createComfyUIProvider, defaultWorkflow, fillWorkflow } from '../../../electron/providers/comfyui/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeComfy, comfyErrors, startFakeComfyUI } from '../../fakes/comfyui.js';
import { closedPortUrl, config, recordingContext, rejectsWith, request, visible, waitFor } from './helpers.js';

const provider = createComfyUIProvider({ cancelGraceMs: 1000, historyWaitMs: 300 });
let fake: FakeComfy;
let cfg: ProviderConfig;
const sd = (overrides: Parameters<typeof request>[0] = {}) => request({ width: 512, height: 512, ...overrides });
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
const sentGraph = (i = 0) => (fake.promptRequests()[i]!.json as { prompt: Graph }).prompt;

beforeEach(async () => {
  fake = await startFakeComfyUI();
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly.safetensors' });
});
afterEach(async () => {
  await fake.close();
});

describe('comfyui: success', () => {
  it('connects the WebSocket first with the same client id, queues the default workflow and fetches N images via /view', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(
      sd({ count: 2, seed: 99, steps: 8, guidance: 5.5, negativePrompt: 'bad hands', sampler: 'dpmpp_2m' }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(2);
    expect(out.images.every((i) => i.mime === 'image/png' && i.width === 512)).toBe(true);
    expect(out.seed).toBe(99);
    expect(ctx.accepted).toBe(1);
    const body = fake.promptRequests()[0]!.json as { client_id: string; prompt_id: string; prompt: Graph };
    expect(fake.sockets[0]!.clientId).toBe(body.client_id);
    expect(fake.sockets[0]!.origin).toBeUndefined();
    expect(fake.promptRequests()[0]!.headers.origin).toBeUndefined();
    expect(body.prompt['3']!.inputs).toMatchObject({
      seed: 99,
      steps: 8,
      cfg: 5.5,
      sampler_name: 'dpmpp_2m',
      scheduler: 'normal',
    });
    expect(body.prompt['4']!.inputs).toEqual({ ckpt_name: 'v1-5-pruned-emaonly.safetensors' });
    expect(body.prompt['5']!.inputs).toEqual({ width: 512, height: 512, batch_size: 2 });
    expect(body.prompt['6']!.inputs.text).toBe('a red fox in snow');
    expect(body.prompt['7']!.inputs.text).toBe('bad hands');
    const views = fake.requests.filter((r) => r.path === '/view');
    expect(views.map((v) => v.query)).toEqual([
      expect.objectContaining({ subfolder: '', type: 'output', filename: expect.stringMatching(/_\.png$/) }),
      expect.anything(),
    ]);
    expect(out.info?.promptId).toBe(body.prompt_id);
  });

  it('reports sampler progress and binary previews (type 4 after the feature-flag handshake)', async () => {
    fake.setScenario({ kind: 'success', steps: 6, stepMs: 5, previews: true });
    const ctx = recordingContext();
    await provider.generate(sd(), cfg, ctx);
    expect(fake.sockets[0]!.supportsPreviewMetadata).toBe(true);
    expect(ctx.progress.filter((p) => p.stage === 'sampling').map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ctx.progress.find((p) => p.step === 3)).toMatchObject({ steps: 6, fraction: 0.5 });
    expect(ctx.partials).toHaveLength(6);
    // ComfyUI's previews are JPEGs at 512 on the long side: the size of this 512×512 job, so kept as they are.
    expect(ctx.partials[0]).toMatchObject({ mime: 'image/jpeg', width: 512, height: 512 });
  });

  it('finishes on executing{node:null} alone (older servers without execution_success)', async () => {
    fake.setScenario({ kind: 'success', noSuccessMessage: true });
    expect((await provider.generate(sd(), cfg, recordingContext())).images).toHaveLength(1);
  });

  it('fills a user API-format workflow: whole placeholders typed, embedded ones as text', async () => {
    await fake.close();
    fake = await startFakeComfyUI({ extraNodes: ['Note'] });
    cfg = { ...cfg, baseUrl: fake.url };
    const workflow = JSON.stringify({
      ...defaultWorkflow(),
      '6': { class_type: 'CLIPTextEncode', inputs: { text: 'masterpiece, {{prompt}}, seed {{seed}}', clip: ['4', 1] } },
      '10': { class_type: 'Note', inputs: { w: '{{ width }}' } },
    });
    await provider.generate(sd({ seed: 5 }), { ...cfg, workflow }, recordingContext());
    const graph = sentGraph();
    expect(graph['6']!.inputs.text).toBe('masterpiece, a red fox in snow, seed 5');
    expect(graph['3']!.inputs.seed).toBe(5);
    expect(graph['10']!.inputs.w).toBe(512);
  });
});

describe('comfyui: cancel', () => {
  it('interrupts the running prompt by id (and deletes it from the queue) and ends cancelled', async () => {
    fake.setScenario({ kind: 'success', steps: 200, stepMs: 20 });
    const ctx = recordingContext();
    const pending = provider.generate(sd(), cfg, ctx);
    await waitFor(() => ctx.progress.some((p) => (p.step ?? 0) >= 2));
    ctx.controller.abort();
    // How soon it lets go is a figure, not a test: `npm run bench -- cancel`.
    const error = await rejectsWith(pending, 'cancelled');
    expect(error.retryable).toBe(false);
    // Ordering instead of a stopwatch: it ended on the server's own end signal, not by asking the queue after a
    // silent wait or by giving up on it.
    const ending = ctx.traces
      .filter((t) => t.kind === 'warning' || /^ComfyUI (stopped|'s queue)/.test(t.message))
      .map((t) => t.message);
    expect(ending).toEqual([expect.stringMatching(/^ComfyUI stopped prompt /)]);
    const promptId = (fake.promptRequests()[0]!.json as { prompt_id: string }).prompt_id;
    expect(fake.interruptRequests().map((r) => r.json)).toEqual([{ prompt_id: promptId }]);
    expect(fake.queueDeleteRequests().map((r) => r.json)).toEqual([{ delete: [promptId] }]);
  });

  it('removes a still-pending prompt with /queue delete and sends no interrupt', async () => {
    fake.setScenario({ kind: 'success', pendingMs: 5000 });
    const ctx = recordingContext();
    const pending = provider.generate(sd(), cfg, ctx);
    await waitFor(() => ctx.accepted === 1);
    ctx.controller.abort();
    await rejectsWith(pending, 'cancelled');
    expect(fake.queueDeleteRequests()).toHaveLength(1);
    expect(fake.interruptRequests()).toHaveLength(0);
  });

  it('times out a prompt that runs too long, stopping it on the server', async () => {
    fake.setScenario({ kind: 'success', steps: 500, stepMs: 20 });
    const error = await rejectsWith(provider.generate(sd(), { ...cfg, timeoutMs: 300 }, recordingContext()), 'timeout');
    expect(error.retryable).toBe(false);
    expect(fake.interruptRequests()).toHaveLength(1);
  });
});

describe('comfyui: errors', () => {
  it('a workflow validation failure names the node and the problem', async () => {
    fake.setScenario(comfyErrors.validation());
    const error = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_rejected');
    expect(error.message).toBe(
      `ComfyUI rejected the workflow. ComfyUI said: "Prompt outputs failed validation — node 4 (CheckpointLoaderSimple): ckpt_name: Value not in list: 'x.safetensors' not in ['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors']"`,
    );
    expect(error.details).toMatchObject({ status: 400, providerCode: 'prompt_outputs_failed_validation' });
  });

  it('401, 429 (Retry-After, then success), 500 and 503 from /prompt are classified', async () => {
    fake.setScenario(comfyErrors.unauthorized());
    await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_auth');
    fake.setScenario([comfyErrors.rateLimited(4), { kind: 'success' }]);
    const limited = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_rate_limited');
    expect(limited).toMatchObject({ retryable: true, details: expect.objectContaining({ retryAfterMs: 4000 }) });
    expect((await provider.generate(sd(), cfg, recordingContext())).images).toHaveLength(1);
    fake.setScenario(comfyErrors.serverError());
    expect((await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error')).retryable).toBe(
      false,
    );
    fake.setScenario(comfyErrors.unavailable());
    const unavailable = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_unavailable');
    expect(unavailable).toMatchObject({
      retryable: true,
      details: expect.objectContaining({ phase: 'before_accept' }),
    });
  });

  it('an execution_error is a provider_error naming the node', async () => {
    fake.setScenario({ kind: 'execution_error', atStep: 2 });
    const error = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error');
    expect(error.message).toBe('ComfyUI failed in node 3 (KSampler): CUDA out of memory. Tried to allocate 2.00 GiB');
    expect(error.retryable).toBe(false);
  });

  it('a WebSocket closed mid-run fails without retry and says it will not be re-sent', async () => {
    fake.setScenario({ kind: 'ws_close', atStep: 3 });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(sd({ steps: 10 }), cfg, ctx), 'provider_error');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not re-send/);
    expect(ctx.accepted).toBe(1);
    expect(fake.promptRequests()).toHaveLength(1);
  });

  it('malformed history JSON and a /view that is not an image are provider_errors', async () => {
    fake.setScenario({ kind: 'history_malformed' });
    expect((await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error')).message).toMatch(
      /malformed JSON/,
    );
    fake.setScenario({ kind: 'view_invalid' });
    expect((await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error')).message).toMatch(
      /not a PNG/,
    );
  });

  it('stops reading a 200 MB /view body at the bound', async () => {
    fake.setScenario({ kind: 'view_huge', bytes: 200 * 1024 * 1024 });
    const error = await rejectsWith(
      provider.generate(sd(), { ...cfg, maxResponseBytes: 1024 * 1024 }, recordingContext()),
      'provider_error',
    );
    expect(error.details).toMatchObject({ limitBytes: 1024 * 1024 });
    const view = () => fake.requests.find((r) => r.path === '/view')!;
    await waitFor(() => view().aborted);
    expect(view().bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('a /prompt that never answers times out', async () => {
    fake.setScenario({ kind: 'hang' });
    const error = await rejectsWith(provider.generate(sd(), { ...cfg, timeoutMs: 300 }, recordingContext()), 'timeout');
    expect(error.retryable).toBe(false);
  });

  it('connection refused is provider_unavailable and retryable', async () => {
    const error = await rejectsWith(
      provider.generate(sd(), { ...cfg, baseUrl: await closedPortUrl() }, recordingContext()),
      'provider_unavailable',
    );
    expect(error.retryable).toBe(true);
  });

  it('a proxy password never appears in errors', async () => {
    fake.setScenario({
      kind: 'prompt_error',
      status: 400,
      body: { error: { type: 'invalid_prompt', message: 'bad auth proxy-secret-pw', details: '' }, node_errors: {} },
    });
    const error = await rejectsWith(
      provider.generate(sd(), { ...cfg, username: 'u', password: 'proxy-secret-pw' }, recordingContext()),
      'provider_rejected',
    );
    expect(visible(error)).not.toContain('proxy-secret-pw');
  });
});

describe('comfyui: validate and test()', () => {
  it.each([
    ['no checkpoint for the default workflow', { model: undefined }, {}],
    ['a size not divisible by 8', {}, { width: 500 }],
    ['a UI-format workflow', { workflow: JSON.stringify({ nodes: [], links: [] }) }, {}],
    [
      'a workflow without {{prompt}}',
      { workflow: JSON.stringify({ '1': { class_type: 'SaveImage', inputs: {} } }) },
      {},
    ],
    [
      'an unknown placeholder',
      { workflow: JSON.stringify({ '1': { class_type: 'X', inputs: { t: '{{prompt}}', s: '{{promt}}' } } }) },
      {},
    ],
    [
      'a negative prompt the workflow cannot take',
      { workflow: JSON.stringify({ '1': { class_type: 'X', inputs: { t: '{{prompt}}' } } }) },
      { negativePrompt: 'blurry' },
    ],
    ['invalid JSON', { workflow: '{not json' }, {}],
  ] as [string, Partial<ProviderConfig>, Parameters<typeof request>[0]][])(
    'rejects %s before any request',
    async (_label, configOverrides, requestOverrides) => {
      const c = { ...cfg, ...configOverrides };
      if ('model' in configOverrides && configOverrides.model === undefined) delete c.model;
      expect(() => provider.validate(sd(requestOverrides), c)).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
      await rejectsWith(provider.generate(sd(requestOverrides), c, recordingContext()), 'invalid_request');
      expect(fake.requests).toHaveLength(0);
      expect(fake.sockets).toHaveLength(0);
    },
  );

  it('fillWorkflow keeps numbers as numbers', () => {
    const graph = fillWorkflow(defaultWorkflow(), {
      prompt: 'p',
      negative_prompt: '',
      seed: 1,
      steps: 2,
      cfg: 3.5,
      width: 64,
      height: 64,
      batch_size: 1,
      model: 'm',
      sampler: 'euler',
      scheduler: 'normal',
    });
    expect(graph['3']!.inputs).toMatchObject({ seed: 1, steps: 2, cfg: 3.5 });
    expect(graph['4']!.inputs.ckpt_name).toBe('m');
  });

  it('test() reports the version and checkpoints (both object_info shapes), or unreachable', async () => {
    expect(await provider.test(cfg, new AbortController().signal)).toMatchObject({
      ok: true,
      reachable: true,
      models: ['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors'],
      message: 'Connected to ComfyUI 0.3.64: 2 checkpoints.',
    });
    await fake.close();
    fake = await startFakeComfyUI({ comboSpec: true, checkpoints: ['flux.safetensors'] });
    expect((await provider.test({ ...cfg, baseUrl: fake.url }, new AbortController().signal)).models).toEqual([
      'flux.safetensors',
    ]);
    expect(await provider.test({ ...cfg, baseUrl: await closedPortUrl() }, new AbortController().signal)).toMatchObject(
      { ok: false, reachable: false },
    );
    expect(provider.isConfigured(config())).toBe(true);
  });
});
