import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA1111Provider } from '../../../electron/providers/a1111/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeA1111, a1111Errors, startFakeA1111 } from '../../fakes/a1111.js';
import { closedPortUrl, config, recordingContext, rejectsWith, request, visible, waitFor } from './helpers.js';

const provider = createA1111Provider({ pollIntervalMs: 25, cancelGraceMs: 1000 });
let fake: FakeA1111;
let cfg: ProviderConfig;
const sd = (overrides: Parameters<typeof request>[0] = {}) => request({ width: 512, height: 512, ...overrides });

beforeEach(async () => {
  fake = await startFakeA1111();
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly' });
});
afterEach(async () => {
  await fake.close();
});

describe('a1111: success', () => {
  it('returns N images with seeds and infotexts parsed from the JSON-in-a-string info', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(
      sd({ count: 3, seed: 42, steps: 12, guidance: 6.5, negativePrompt: 'blurry', sampler: 'DPM++ 2M' }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(3);
    expect(out.images.map((i) => i.seed)).toEqual([42, 43, 44]);
    expect(out.images.every((i) => i.mime === 'image/png')).toBe(true);
    expect(out.seed).toBe(42);
    expect((out.info?.infotexts as string[])[1]).toMatch(/Seed: 43, Size: 512x512/);
    expect(ctx.accepted).toBe(1);
    const sent = fake.generationRequests()[0]!.json as Record<string, unknown>;
    expect(sent).toMatchObject({
      prompt: 'a red fox in snow',
      negative_prompt: 'blurry',
      seed: 42,
      steps: 12,
      cfg_scale: 6.5,
      sampler_name: 'DPM++ 2M',
      scheduler: 'Automatic',
      batch_size: 3,
      n_iter: 1,
      width: 512,
      height: 512,
      send_images: true,
      save_images: false,
      override_settings: { sd_model_checkpoint: 'v1-5-pruned-emaonly' },
    });
    expect(sent.force_task_id).toMatch(/^atelier-[0-9a-f-]{36}$/);
  });

  it('always sends steps, sampler and scheduler, defaulting to 20 / Euler a / Automatic', async () => {
    await provider.generate(sd(), cfg, recordingContext());
    expect(fake.generationRequests()[0]!.json).toMatchObject({
      steps: 20,
      sampler_name: 'Euler a',
      scheduler: 'Automatic',
      seed: -1,
      cfg_scale: 7,
    });
  });

  it('sends the request’s schedule type (A1111 1.9+), as the composer and Reuse settings set it', async () => {
    await provider.generate(sd({ sampler: 'DPM++ 2M', scheduler: 'Karras' }), cfg, recordingContext());
    expect(fake.generationRequests()[0]!.json).toMatchObject({ sampler_name: 'DPM++ 2M', scheduler: 'Karras' });
  });

  it('skips the grid image A1111 puts first for batches', async () => {
    fake.setScenario({ kind: 'success', grid: true });
    const out = await provider.generate(sd({ count: 2, seed: 7 }), cfg, recordingContext());
    expect(out.images).toHaveLength(2);
    expect(out.images.every((i) => i.width === 8)).toBe(true);
  });

  it('reports step/steps/fraction/eta and live previews (only when they change) while it runs', async () => {
    fake.setScenario({ kind: 'success', stepMs: 20, previewEvery: 5 });
    const ctx = recordingContext();
    await provider.generate(sd({ steps: 30 }), cfg, ctx);
    const sampling = ctx.progress.filter((p) => p.stage === 'sampling');
    expect(sampling.length).toBeGreaterThan(3);
    expect(sampling.some((p) => p.steps === 30 && p.step !== undefined && p.step > 0)).toBe(true);
    expect(sampling.some((p) => p.etaMs !== undefined)).toBe(true);
    expect(sampling.every((p) => p.fraction === undefined || (p.fraction >= 0 && p.fraction <= 1))).toBe(true);
    expect(ctx.partials.length).toBeGreaterThan(1);
    expect(ctx.partials.length).toBeLessThanOrEqual(6);
    const distinct = new Set(ctx.partials.map((p) => Buffer.from(p.data).toString('base64')));
    expect(distinct.size).toBe(ctx.partials.length);
    expect(ctx.accepted).toBe(1);
  });

  it('asks for no live previews when partialImages is 0', async () => {
    fake.setScenario({ kind: 'success', stepMs: 10, previewEvery: 2 });
    const ctx = recordingContext();
    await provider.generate(sd({ steps: 20, partialImages: 0 }), cfg, ctx);
    expect(ctx.partials).toHaveLength(0);
  });

  it('falls back to the global /sdapi/v1/progress without /internal/progress (--nowebui)', async () => {
    await fake.close();
    fake = await startFakeA1111({
      internalProgress: false,
      scenario: { kind: 'success', stepMs: 20, previewEvery: 5 },
    });
    const ctx = recordingContext();
    await provider.generate(sd({ steps: 25 }), { ...cfg, baseUrl: fake.url }, ctx);
    expect(ctx.progress.some((p) => p.stage === 'sampling' && p.steps === 25)).toBe(true);
    expect(ctx.partials.length).toBeGreaterThan(0);
    expect(ctx.traces.some((t) => t.message.includes('global'))).toBe(true);
  });

  it('sends basic auth when configured, and reports 401 without leaking the password', async () => {
    await fake.close();
    fake = await startFakeA1111({ auth: { username: 'artist', password: 'hunter2-secret' } });
    const good = { ...cfg, baseUrl: fake.url, username: 'artist', password: 'hunter2-secret' };
    expect((await provider.generate(sd(), good, recordingContext())).images).toHaveLength(1);
    const error = await rejectsWith(
      provider.generate(sd(), { ...good, password: 'wrong-password-x' }, recordingContext()),
      'provider_auth',
    );
    expect(error.retryable).toBe(false);
    expect(visible(error)).not.toContain('wrong-password-x');
    expect(visible(error)).not.toContain(Buffer.from('artist:wrong-password-x').toString('base64'));
  });
});

describe('a1111: cancel', () => {
  it('interrupts the running task, discards the partial images A1111 returns, and ends cancelled', async () => {
    fake.setScenario({ kind: 'success', stepMs: 50 });
    const ctx = recordingContext();
    const pending = provider.generate(sd({ steps: 100 }), cfg, ctx);
    await waitFor(() => ctx.progress.some((p) => p.stage === 'sampling' && (p.step ?? 0) > 1));
    ctx.controller.abort();
    // How soon it lets go is a figure, not a test: `npm run bench -- cancel`.
    const error = await rejectsWith(pending, 'cancelled');
    expect(error.retryable).toBe(false);
    expect(fake.interruptRequests()).toHaveLength(1);
    // Ordering instead of a stopwatch: A1111's own answer to the interrupt arrived (its partial image is discarded)
    // before the provider's grace ran out.
    expect(
      ctx.traces.some((t) => t.kind === 'cancel' && /returned 1 partial image\(s\).*discarded/.test(t.message)),
    ).toBe(true);
    expect(fake.generationRequests()).toHaveLength(1);
  });

  it('does not send the global interrupt while the task is still queued behind another', async () => {
    fake.setScenario({ kind: 'success', queuedMs: 400, stepMs: 5 });
    const ctx = recordingContext();
    const pending = provider.generate(sd({ steps: 10 }), cfg, ctx);
    await waitFor(() => ctx.progress.some((p) => p.stage === 'queued'));
    ctx.controller.abort();
    await rejectsWith(pending, 'cancelled');
    expect(fake.interruptRequests()).toHaveLength(0);
    expect(ctx.traces.some((t) => /had not started/.test(t.message))).toBe(true);
  });

  it('a timeout interrupts the task too and is not retryable', async () => {
    fake.setScenario({ kind: 'success', stepMs: 50 });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(sd({ steps: 100 }), { ...cfg, timeoutMs: 300 }, ctx), 'timeout');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/may still have run it/);
    expect(fake.interruptRequests()).toHaveLength(1);
  });
});

describe('a1111: errors', () => {
  it('400 Sampler not found and 422 validation are rejections quoting A1111', async () => {
    fake.setScenario(a1111Errors.samplerNotFound());
    const sampler = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_rejected');
    expect(sampler.message).toMatch(/Sampler not found/);
    fake.setScenario(a1111Errors.validation());
    const validation = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_rejected');
    expect(validation.message).toMatch(/steps: value is not a valid integer/);
    expect(validation.retryable).toBe(false);
  });

  it('429 with Retry-After is retryable, then the next attempt succeeds', async () => {
    fake.setScenario([a1111Errors.rateLimited(3), { kind: 'success' }]);
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(sd(), cfg, ctx), 'provider_rate_limited');
    expect(error).toMatchObject({ retryable: true, details: expect.objectContaining({ retryAfterMs: 3000 }) });
    expect(ctx.accepted).toBe(0);
    expect((await provider.generate(sd(), cfg, recordingContext())).images).toHaveLength(1);
  });

  it('500 (out of memory) is a non-retryable provider_error; 503 is retryable', async () => {
    fake.setScenario(a1111Errors.outOfMemory());
    const oom = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error');
    expect(oom.retryable).toBe(false);
    expect(oom.message).toMatch(/OutOfMemoryError/);
    fake.setScenario(a1111Errors.unavailable());
    const unavailable = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_unavailable');
    expect(unavailable).toMatchObject({
      retryable: true,
      details: expect.objectContaining({ phase: 'before_accept', retryAfterMs: 1000 }),
    });
  });

  it('malformed JSON, invalid base64 and a response cut halfway are provider_errors; a broken info is tolerated', async () => {
    fake.setScenario({ kind: 'malformed_json' });
    expect((await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error')).message).toMatch(
      /malformed JSON/,
    );
    fake.setScenario({ kind: 'invalid_base64' });
    expect((await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error')).message).toMatch(
      /invalid base64/,
    );
    fake.setScenario({ kind: 'cut' });
    const cut = await rejectsWith(provider.generate(sd(), cfg, recordingContext()), 'provider_error');
    expect(cut.retryable).toBe(false);
    expect(cut.message).toMatch(/not re-send/);
    fake.setScenario({ kind: 'bad_info' });
    const ctx = recordingContext();
    const out = await provider.generate(sd(), cfg, ctx);
    expect(out.images).toHaveLength(1);
    expect(ctx.traces.some((t) => /not JSON/.test(t.message))).toBe(true);
  });

  it('stops reading a 200 MB body at the bound', async () => {
    fake.setScenario({ kind: 'huge', bytes: 200 * 1024 * 1024 });
    const error = await rejectsWith(
      provider.generate(sd(), { ...cfg, maxResponseBytes: 1024 * 1024 }, recordingContext()),
      'provider_error',
    );
    expect(error.details).toMatchObject({ limitBytes: 1024 * 1024 });
    await waitFor(() => fake.generationRequests()[0]!.aborted);
    expect(fake.generationRequests()[0]!.bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('a server that never answers times out', async () => {
    fake.setScenario({ kind: 'hang' });
    const error = await rejectsWith(provider.generate(sd(), { ...cfg, timeoutMs: 300 }, recordingContext()), 'timeout');
    expect(error.retryable).toBe(false);
  });

  it('connection refused is provider_unavailable, retryable, never accepted', async () => {
    const ctx = recordingContext();
    const error = await rejectsWith(
      provider.generate(sd(), { ...cfg, baseUrl: await closedPortUrl() }, ctx),
      'provider_unavailable',
    );
    expect(error.retryable).toBe(true);
    expect(ctx.accepted).toBe(0);
  });
});

describe('a1111: validate and test()', () => {
  it.each([
    ['a size not divisible by 8', { width: 500 }],
    ['a size over 2048', { width: 4096 }],
    ['a quality setting', { quality: 'high' as const }],
    ['a JPEG output', { outputFormat: 'jpeg' as const }],
    ['a seed beyond 32 bits', { seed: 2 ** 33 }],
  ])('rejects %s before any request', async (_label, overrides) => {
    expect(() => provider.validate(sd(overrides), cfg)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    await rejectsWith(provider.generate(sd(overrides), cfg, recordingContext()), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('is configured by default (http://127.0.0.1:7860) and knows the configured model', () => {
    expect(provider.isConfigured(config())).toBe(true);
    expect(provider.isConfigured(config({ baseUrl: 'not a url' }))).toBe(false);
    expect(provider.knownModels(config({ model: 'sdxl' }))).toEqual(['sdxl']);
    expect(provider.capabilities(config()).negativePrompt).toBe(true);
  });

  it('test() lists models and samplers; reports bad credentials and unreachable servers', async () => {
    expect(await provider.test(cfg, new AbortController().signal)).toMatchObject({
      ok: true,
      reachable: true,
      models: ['v1-5-pruned-emaonly', 'sd_xl_base_1.0'],
      message: 'Connected to A1111: 2 models, 3 samplers.',
    });
    await fake.close();
    fake = await startFakeA1111({ auth: { username: 'a', password: 'b-secret' } });
    expect(
      await provider.test({ ...cfg, baseUrl: fake.url, username: 'a', password: 'nope' }, new AbortController().signal),
    ).toMatchObject({ ok: false, reachable: true, authenticated: false });
    expect(await provider.test({ ...cfg, baseUrl: await closedPortUrl() }, new AbortController().signal)).toMatchObject(
      { ok: false, reachable: false },
    );
  });
});
