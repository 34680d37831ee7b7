import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../../electron/providers/openai/index.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeOpenAI, openAIErrors, startFakeOpenAI } from '../../fakes/openai.js';
import { closedPortUrl, config, recordingContext, rejectsWith, request, visible, waitFor } from './helpers.js';

const KEY = 'sk-test-fake-key-0123456789';
const provider = createOpenAIProvider();
let fake: FakeOpenAI;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeOpenAI({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY, model: 'gpt-image-1' });
});
afterEach(async () => {
  await fake.close();
});

describe('openai: success', () => {
  it('returns N PNG images with usage, sending the documented body and a Bearer key', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(
      request({ count: 3, quality: 'high', background: 'opaque', outputFormat: 'png' }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(3);
    for (const image of out.images) {
      expect(image.mime).toBe('image/png');
      expect(image.width).toBe(8);
      expect(Buffer.from(image.data).subarray(1, 4).toString()).toBe('PNG');
    }
    expect(Buffer.from(out.images[0]!.data).equals(Buffer.from(out.images[1]!.data))).toBe(false);
    expect(out.usage).toMatchObject({ total_tokens: 4210 });
    expect(out.info).toMatchObject({ size: '1024x1024', quality: 'high', requestId: 'req_fake1' });
    expect(ctx.accepted).toBe(1);
    const [sent] = fake.generationRequests();
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent!.json).toEqual({
      model: 'gpt-image-1',
      prompt: 'a red fox in snow',
      n: 3,
      size: '1024x1024',
      quality: 'high',
      background: 'opaque',
      output_format: 'png',
    });
    expect(sent!.headers.origin).toBeUndefined();
  });

  it('asks DALL·E 3 for b64_json and keeps its revised prompt', async () => {
    fake.setScenario({ kind: 'success', revisedPrompt: 'A photograph of a red fox standing in fresh snow' });
    const out = await provider.generate(
      request({ model: 'dall-e-3', width: 1792, height: 1024, quality: 'hd' }),
      cfg,
      recordingContext(),
    );
    expect(out.revisedPrompt).toBe('A photograph of a red fox standing in fresh snow');
    expect(fake.generationRequests()[0]!.json).toEqual({
      model: 'dall-e-3',
      prompt: 'a red fox in snow',
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      response_format: 'b64_json',
    });
  });

  it('works with a base URL that already ends in /v1 (OpenAI-compatible servers)', async () => {
    const out = await provider.generate(request(), { ...cfg, baseUrl: `${fake.url}/v1/` }, recordingContext());
    expect(out.images).toHaveLength(1);
    expect(fake.generationRequests()[0]!.path).toBe('/v1/images/generations');
  });
});

describe('openai: streaming', () => {
  it('streams partial previews to the context, then the final image', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(request({ partialImages: 3 }), cfg, ctx);
    expect(fake.generationRequests()[0]!.json).toMatchObject({ stream: true, partial_images: 3 });
    expect(ctx.partials).toHaveLength(3);
    expect(ctx.partials.every((p) => p.mime === 'image/png')).toBe(true);
    const fractions = ctx.progress.map((p) => p.fraction).filter((f): f is number => f !== undefined);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(ctx.progress.filter((p) => p.stage === 'partial').map((p) => p.step)).toEqual([1, 2, 3]);
    expect(out.images).toHaveLength(1);
    expect(out.usage).toMatchObject({ total_tokens: 100 });
    expect(ctx.accepted).toBe(1);
  });

  it('accepts CRLF framing, keepalive comments, a trailing [DONE] and fewer partials than asked', async () => {
    fake.setScenario({ kind: 'success', crlf: true, keepaliveComments: true, doneMarker: true, partials: 1 });
    const ctx = recordingContext();
    const out = await provider.generate(request({ partialImages: 3, count: 2 }), cfg, ctx);
    expect(ctx.partials).toHaveLength(1);
    expect(out.images).toHaveLength(2);
  });

  it('a stream cut halfway fails without retry and says it will not be re-sent', async () => {
    fake.setScenario({ kind: 'cut', afterPartials: 1 });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request({ partialImages: 2 }), cfg, ctx), 'provider_error');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not re-send/);
    expect(ctx.accepted).toBe(1);
    expect(ctx.partials).toHaveLength(1);
  });

  it('an error event mid-stream is a non-retryable provider_error', async () => {
    fake.setScenario({ kind: 'stream_error' });
    const error = await rejectsWith(
      provider.generate(request({ partialImages: 2 }), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.retryable).toBe(false);
  });

  it('cancel mid-stream drops the connection and ends cancelled', async () => {
    fake.setScenario({ kind: 'success', stepMs: 300 });
    const ctx = recordingContext();
    const pending = provider.generate(request({ partialImages: 3 }), cfg, ctx);
    await waitFor(() => ctx.partials.length === 1);
    ctx.controller.abort();
    // How soon it lets go is a figure, not a test: `npm run bench -- cancel`.
    const error = await rejectsWith(pending, 'cancelled');
    expect(error.retryable).toBe(false);
    // Ordering instead of a stopwatch: the cancel answered before the stream's next partial (300 ms later).
    expect(ctx.partials).toHaveLength(1);
    await waitFor(() => fake.generationRequests()[0]!.aborted);
    expect(fake.generationRequests()).toHaveLength(1);
  });
});

describe('openai: errors', () => {
  it('401 is provider_auth, not retryable, and never shows the key', async () => {
    const ctx = recordingContext();
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, apiKey: 'sk-wrong-key-abcdef' }, ctx),
      'provider_auth',
    );
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ status: 401, providerCode: 'invalid_api_key' });
    expect(visible(error)).not.toContain('sk-wrong-key-abcdef');
    expect(ctx.accepted).toBe(0);
  });

  it('403 (organisation not verified) is provider_auth and quotes OpenAI', async () => {
    fake.setScenario(openAIErrors.orgNotVerified());
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_auth');
    expect(error.message).toMatch(/verified/);
  });

  it('429 rate_limit_exceeded is retryable with Retry-After, and the next attempt succeeds', async () => {
    fake.setScenario([openAIErrors.rateLimited({ seconds: 2 }), { kind: 'success' }]);
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_rate_limited');
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({
      retryAfterMs: 2000,
      status: 429,
      providerCode: 'rate_limit_exceeded',
      phase: 'before_accept',
    });
    expect(ctx.accepted).toBe(0);
    const out = await provider.generate(request(), cfg, recordingContext());
    expect(out.images).toHaveLength(1);
    expect(fake.generationRequests()).toHaveLength(2);
  });

  it('reads retry-after-ms first, and HTTP-date Retry-After', async () => {
    fake.setScenario(openAIErrors.rateLimited({ ms: 1500.5, seconds: 9 }));
    expect(
      (await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited')).details
        ?.retryAfterMs,
    ).toBe(1501);
    fake.setScenario(openAIErrors.rateLimited({ date: new Date(Date.now() + 30_000).toUTCString() }));
    const wait = (await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited'))
      .details?.retryAfterMs as number;
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(30_000);
  });

  it('429 insufficient_quota is never retryable', async () => {
    fake.setScenario(openAIErrors.quota());
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/credit/);
  });

  it('500 is a non-retryable provider_error', async () => {
    fake.setScenario(openAIErrors.serverError());
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ status: 500 });
  });

  it('503 is provider_unavailable, retryable, before acceptance', async () => {
    fake.setScenario(openAIErrors.unavailable());
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_unavailable');
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({ phase: 'before_accept', status: 503 });
    expect(ctx.accepted).toBe(0);
  });

  it('moderation_blocked and content_policy_violation are rejections a person understands', async () => {
    fake.setScenario(openAIErrors.moderation());
    const blocked = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(blocked.message).toBe(
      `OpenAI-compatible server at ${new URL(fake.url).host} refused the prompt under its content policy (flagged: sexual). Rephrase it and try again.`,
    );
    expect(blocked.retryable).toBe(false);
    expect(blocked.details).toMatchObject({ status: 400, providerCode: 'moderation_blocked' });
    fake.setScenario(openAIErrors.contentPolicy());
    const policy = await rejectsWith(
      provider.generate(request({ model: 'dall-e-3' }), cfg, recordingContext()),
      'provider_rejected',
    );
    expect(policy.message).toMatch(
      /^OpenAI-compatible server at 127.0.0.1:\d+ refused the prompt under its content policy/,
    );
  });

  it('a 400 naming a parameter says which one', async () => {
    fake.setScenario(openAIErrors.badValue('size'));
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(error.message).toMatch(/"size"/);
  });

  it('malformed JSON, invalid base64 and a JSON body cut halfway are provider_errors', async () => {
    fake.setScenario({ kind: 'malformed_json' });
    expect(
      (await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error')).message,
    ).toMatch(/malformed JSON/);
    fake.setScenario({ kind: 'invalid_base64' });
    expect(
      (await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error')).message,
    ).toMatch(/invalid base64/);
    fake.setScenario({ kind: 'cut' });
    const cut = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(cut.retryable).toBe(false);
  });

  it('stops reading a 200 MB body at the bound without buffering it', async () => {
    fake.setScenario({ kind: 'huge', bytes: 200 * 1024 * 1024 });
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, maxResponseBytes: 1024 * 1024 }, recordingContext()),
      'provider_error',
    );
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ limitBytes: 1024 * 1024 });
    await waitFor(() => fake.generationRequests()[0]!.aborted);
    expect(fake.generationRequests()[0]!.bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('rejects a declared 200 MB body from its content-length before reading it', async () => {
    fake.setScenario({ kind: 'huge', bytes: 200 * 1024 * 1024, declareLength: true });
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, maxResponseBytes: 1024 * 1024 }, recordingContext()),
      'provider_error',
    );
    expect(error.details).toMatchObject({ readBytes: 0 });
    await waitFor(() => fake.generationRequests()[0]!.aborted);
    expect(fake.generationRequests()[0]!.bytesSent).toBeLessThan(32 * 1024 * 1024);
  });

  it('a provider that never answers times out (not retryable: it may have run)', async () => {
    fake.setScenario({ kind: 'hang' });
    // The fake never answers, so only the provider's own timer can end this with 'timeout' (no stopwatch needed:
    // without the timer the test runs into its own time limit).
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, timeoutMs: 300 }, recordingContext()),
      'timeout',
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/may still have run it/);
    await waitFor(() => fake.generationRequests()[0]!.aborted);
  });

  it('connection refused is provider_unavailable and retryable', async () => {
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, baseUrl: await closedPortUrl() }, recordingContext()),
      'provider_unavailable',
    );
    expect(error.retryable).toBe(true);
    expect(error.details).toMatchObject({ phase: 'before_accept', errno: 'ECONNREFUSED' });
  });

  it('a key echoed back by a server never appears in the error', async () => {
    fake.setScenario({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      code: null,
      message: `bad header Bearer ${KEY} for key ${KEY}`,
    });
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(visible(error)).not.toContain(KEY);
    expect(visible(error)).not.toContain(KEY.slice(3));
  });
});

describe('openai: validate', () => {
  const cases: [string, Parameters<typeof request>[0]][] = [
    ['dall-e-3 with n>1', { model: 'dall-e-3', count: 2 }],
    ['an unsupported size', { width: 512, height: 512 }],
    ['a seed', { seed: 42 }],
    ['a negative prompt', { negativePrompt: 'blurry' }],
    ['steps', { steps: 20 }],
    ['a transparent background on gpt-image-2', { model: 'gpt-image-2', background: 'transparent' }],
    ['gpt-image-2 sizes not divisible by 16', { model: 'gpt-image-2', width: 1000, height: 1000 }],
    ['gpt-image-2 beyond 3:1', { model: 'gpt-image-2', width: 3840, height: 1024 }],
    ['partial previews on dall-e-3', { model: 'dall-e-3', partialImages: 2 }],
    ['hd quality on gpt-image-1', { quality: 'hd' }],
    ['transparent JPEG', { background: 'transparent', outputFormat: 'jpeg' }],
    ['a 4001-character dall-e-3 prompt', { model: 'dall-e-3', prompt: 'x'.repeat(4001) }],
  ];
  it.each(cases)('rejects %s with invalid_request before any request', async (_label, overrides) => {
    expect(() => provider.validate(request(overrides), cfg)).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
    await rejectsWith(provider.generate(request(overrides), cfg, recordingContext()), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('accepts flexible gpt-image-2 sizes and the documented ones', () => {
    expect(() => provider.validate(request({ model: 'gpt-image-2', width: 2560, height: 1440 }), cfg)).not.toThrow();
    expect(() =>
      provider.validate(request({ model: 'dall-e-3', width: 1024, height: 1792, quality: 'standard' }), cfg),
    ).not.toThrow();
    expect(() => provider.validate(request({ width: 1536, height: 1024, partialImages: 3 }), cfg)).not.toThrow();
  });

  it('needs a key for api.openai.com but not for a custom server', () => {
    expect(provider.isConfigured(config())).toBe(false);
    expect(provider.isConfigured(config({ apiKey: 'sk-x' }))).toBe(true);
    expect(provider.isConfigured(config({ baseUrl: 'http://127.0.0.1:8080/v1' }))).toBe(true);
    expect(provider.knownModels(config())).toEqual(
      expect.arrayContaining(['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-2', 'dall-e-3']),
    );
    expect(provider.capabilities(config({ model: 'dall-e-3' })).maxCount).toBe(1);
  });
});

describe('openai: test()', () => {
  it('reports reachability, auth and image models', async () => {
    const result = await provider.test(cfg, new AbortController().signal);
    expect(result).toMatchObject({
      ok: true,
      reachable: true,
      authenticated: true,
      models: ['dall-e-3', 'gpt-image-1'],
    });
    expect(fake.requests[0]!.path).toBe('/v1/models');
  });

  it('reports a wrong key as reachable but not authenticated, without the key', async () => {
    const result = await provider.test({ ...cfg, apiKey: 'sk-bad-1234567890' }, new AbortController().signal);
    expect(result).toMatchObject({ ok: false, reachable: true, authenticated: false });
    expect(result.message).not.toContain('sk-bad-1234567890');
  });

  it('reports an unreachable server', async () => {
    const result = await provider.test({ ...cfg, baseUrl: await closedPortUrl() }, new AbortController().signal);
    expect(result).toMatchObject({ ok: false, reachable: false, models: [] });
  });
});
