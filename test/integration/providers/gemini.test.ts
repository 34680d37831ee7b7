import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readAtelierChunk } from '../../../electron/media/png/atelier-chunk.js';
import { createGeminiProvider } from '../../../electron/providers/gemini/index.js';
import { sniffImage } from '../../../electron/providers/http/image.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeGemini, geminiErrors, startFakeGemini } from '../../fakes/gemini.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';
import {
  closedPortUrl,
  config,
  recordingContext,
  rejectsWith,
  request,
  sourcePng,
  visible,
  waitFor,
} from './helpers.js';

const KEY = 'AIzaSyFakeGeminiKey0123456789';
const provider = createGeminiProvider();
let fake: FakeGemini;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeGemini({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

type SentBody = {
  contents: { role: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
  generationConfig: { responseModalities: string[]; imageConfig: { aspectRatio: string; imageSize?: string } };
};
const sentBody = (i = 0) => fake.generationRequests()[i]!.json as SentBody;

describe('gemini: text to image', () => {
  it('POSTs generateContent with the key in x-goog-api-key and returns the answer’s PNG, skipping thoughts', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(request({ model: 'gemini-3-pro-image-preview' }), cfg, ctx);
    expect(out.images).toHaveLength(1);
    expect(out.images[0]!.mime).toBe('image/png');
    // The fake's thought image is 4x4; the answer is 4 px per ratio unit of 1:1.
    expect(sniffImage(out.images[0]!.data)).toMatchObject({ width: 4, height: 4 });
    expect(Buffer.from(out.images[0]!.data).equals(Buffer.from(sourcePng(4, 4, [9, 9, 9]).data))).toBe(false);
    expect(out.info).toMatchObject({ text: 'Here is your image.', responseId: 'resp-fake-1' });
    expect(JSON.stringify(out)).not.toContain('Planning the composition');
    expect(out.usage).toMatchObject({ totalTokenCount: 1299 });
    expect(ctx.accepted).toBe(1);
    const [sent] = fake.generationRequests();
    expect(sent!.path).toBe('/v1beta/models/gemini-3-pro-image-preview:generateContent');
    expect(sent!.headers['x-goog-api-key']).toBe(KEY);
    expect(sent!.query).toEqual({});
    expect(sent!.json).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a red fox in snow' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '1:1', imageSize: '1K' } },
    });
  });

  it('maps width and height to the nearest aspect ratio and to 1K, 2K or 4K', async () => {
    const cases: [number, number, string, string][] = [
      [1344, 768, '16:9', '1K'],
      [1000, 600, '16:9', '1K'],
      [832, 1248, '2:3', '1K'],
      [2048, 2048, '1:1', '2K'],
      [5504, 2368, '21:9', '4K'],
      [1536, 1920, '4:5', '2K'],
    ];
    for (const [i, [width, height, aspect, size]] of cases.entries()) {
      const out = await provider.generate(
        request({ model: 'gemini-3-pro-image-preview', width, height }),
        cfg,
        recordingContext(),
      );
      expect(sentBody(i).generationConfig.imageConfig).toEqual({ aspectRatio: aspect, imageSize: size });
      const [w, h] = aspect.split(':').map(Number) as [number, number];
      expect(sniffImage(out.images[0]!.data)).toMatchObject({ width: w * 4, height: h * 4 });
    }
  });

  it('sends gemini-2.5-flash-image no imageSize (it makes 1K only) and refuses sizes above 1K before sending', async () => {
    await provider.generate(request({ width: 1184, height: 864 }), cfg, recordingContext());
    expect(sentBody().generationConfig.imageConfig).toEqual({ aspectRatio: '4:3' });
    const error = await rejectsWith(
      provider.generate(request({ width: 2048, height: 2048 }), cfg, recordingContext()),
      'invalid_request',
    );
    expect(error.message).toContain('gemini-2.5-flash-image makes images from 256 to 1536');
    expect(fake.generationRequests()).toHaveLength(1);
  });

  it('lists its models with capabilities per model and needs a key to be set up', () => {
    expect(provider.knownModels(cfg)).toEqual([
      'gemini-2.5-flash-image',
      'gemini-3-pro-image-preview',
      'gemini-3.1-flash-image-preview',
    ]);
    expect(provider.capabilities(cfg).sizes.max).toBe(1536);
    expect(provider.capabilities({ ...cfg, model: 'gemini-3-pro-image-preview' }).sizes.max).toBe(6336);
    expect(provider.capabilities(cfg).operations.img2img.supported).toBe(true);
    expect(provider.capabilities(cfg).operations.inpaint.supported).toBe(false);
    expect(provider.isConfigured(config())).toBe(false);
    expect(provider.isConfigured(cfg)).toBe(true);
  });
});

describe('gemini: edits', () => {
  it('sends the library image as inlineData beside the prompt', async () => {
    const ctx = recordingContext();
    const source = sourcePng(24, 16, [200, 10, 10]);
    ctx.inputs = { image: source };
    const out = await provider.generate(
      request({ prompt: 'make it night', width: 1248, height: 832, inputImage: { imageId: 'img-1' } }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(1);
    const parts = sentBody().contents[0]!.parts;
    expect(parts).toEqual([
      { text: 'make it night' },
      { inlineData: { mimeType: 'image/png', data: Buffer.from(source.data).toString('base64') } },
    ]);
  });

  it('refuses a mask, an upscale and a second image before anything is sent', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(8, 8) };
    await rejectsWith(
      provider.generate(request({ inputImage: { imageId: 'a' }, mask: { imageId: 'm' } }), cfg, ctx),
      'invalid_request',
    );
    await rejectsWith(
      provider.generate(request({ upscale: { imageId: 'a', factor: 2 } }), cfg, ctx),
      'invalid_request',
    );
    await rejectsWith(provider.generate(request({ count: 2 }), cfg, ctx), 'invalid_request');
    expect(fake.generationRequests()).toHaveLength(0);
  });
});

describe('gemini: failure answers', () => {
  it('names a blocked prompt’s reason in words, after Google took the request', async () => {
    fake.setScenario({ kind: 'blocked_prompt', reason: 'PROHIBITED_CONTENT' });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_error');
    expect(error.message).toContain('blocked the prompt because of its prohibited-content policy');
    expect(error.retryable).toBe(false);
    expect(ctx.accepted).toBe(1);
  });

  it('names a safety finish without an image', async () => {
    fake.setScenario({ kind: 'finish', reason: 'IMAGE_SAFETY' });
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(error.message).toContain('blocked the image because of its image safety filters (IMAGE_SAFETY)');
  });

  it('takes 403 and an invalid key (400 API_KEY_INVALID) for a bad key', async () => {
    fake.setScenario(geminiErrors.forbidden());
    const forbidden = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_auth');
    expect(forbidden.message).toContain('did not accept the API key (HTTP 403 PERMISSION_DENIED)');
    const wrong = await rejectsWith(
      provider.generate(request(), { ...cfg, apiKey: 'AIza-wrong-key' }, recordingContext()),
      'provider_auth',
    );
    expect(wrong.retryable).toBe(false);
    await rejectsWith(provider.generate(request(), { ...cfg, apiKey: '' }, recordingContext()), 'provider_auth');
    expect(fake.generationRequests()).toHaveLength(2);
  });

  it('makes a 429 retryable, honouring Retry-After or else Google’s RetryInfo', async () => {
    fake.setScenario([geminiErrors.rateLimited(2), geminiErrors.rateLimitedRetryInfo('3s')]);
    const ctx = recordingContext();
    const limited = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_rate_limited');
    expect(limited.retryable).toBe(true);
    expect(limited.details).toMatchObject({ retryAfterMs: 2000, phase: 'before_accept' });
    expect(ctx.accepted).toBe(0);
    const info = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(info.details).toMatchObject({ retryAfterMs: 3000 });
  });

  it('says a used-up quota (429 per day) or credit (402) is out of credits, and never retries it', async () => {
    fake.setScenario([geminiErrors.quota(), geminiErrors.paymentRequired()]);
    for (const status of [429, 402]) {
      const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
      expect(error.message).toContain('out of credits or quota');
      expect(error.retryable).toBe(false);
      expect(error.details).toMatchObject({ status });
    }
  });

  it('rejects a 400 INVALID_ARGUMENT without retrying, with Google’s words', async () => {
    fake.setScenario(geminiErrors.invalidArgument());
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(error.message).toContain('rejected the request as invalid (HTTP 400 INVALID_ARGUMENT)');
    expect(error.message).toContain('Unable to process input image');
    expect(error.retryable).toBe(false);
  });

  it('tells "nothing was sent" (connection refused) from "Google may have run it" (dropped mid-answer)', async () => {
    const refused = await rejectsWith(
      provider.generate(request(), { ...cfg, baseUrl: await closedPortUrl() }, recordingContext()),
      'provider_unavailable',
    );
    expect(refused.retryable).toBe(true);
    expect(refused.message).toContain('Nothing was sent');
    fake.setScenario({ kind: 'cut' });
    const dropped = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(dropped.retryable).toBe(false);
    expect(dropped.message).toContain('may still have run the request');
  });

  it('cancels mid-request by dropping the connection', async () => {
    fake.setScenario({ kind: 'hang' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.generationRequests().length === 1);
    ctx.controller.abort();
    await rejectsWith(running, 'cancelled');
    await waitFor(() => fake.generationRequests()[0]!.aborted);
  });
});

describe('gemini: the key stays secret', () => {
  it('never shows the key in errors, traces or output even when the server echoes it', async () => {
    await fake.close();
    fake = await startFakeGemini({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.url, apiKey: KEY });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createGeminiProvider())]) {
      for (const scenario of [geminiErrors.quota(), geminiErrors.invalidArgument(), geminiErrors.rateLimited()]) {
        fake.setScenario(scenario);
        const ctx = recordingContext();
        const error = await rejectsWith(p.generate(request(), cfg, ctx), expectedCode(scenario));
        seen.push(visible(error), JSON.stringify(ctx.traces));
      }
      fake.setScenario({ kind: 'success' });
      const ctx = recordingContext();
      seen.push(JSON.stringify(await p.generate(request(), cfg, ctx)), JSON.stringify(ctx.traces));
      seen.push(JSON.stringify(await p.test(cfg, new AbortController().signal)));
    }
    // The echo really happened: the fake wrote the key into what it sent.
    expect(seen.join('\n')).toContain('(key ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

function expectedCode(scenario: ReturnType<(typeof geminiErrors)[keyof typeof geminiErrors]>) {
  return scenario.kind === 'error' && scenario.status === 429 && scenario.headers !== undefined
    ? 'provider_rate_limited'
    : 'provider_rejected';
}

describe('gemini: connection test', () => {
  it('lists the image models with a good key and says when the key is bad', async () => {
    const ok = await provider.test(cfg, new AbortController().signal);
    expect(ok).toMatchObject({ ok: true, authenticated: true });
    expect(ok.models).toEqual(['gemini-2.5-flash-image', 'gemini-3-pro-image-preview']);
    expect(fake.requests[0]!.headers['x-goog-api-key']).toBe(KEY);
    const bad = await provider.test({ ...cfg, apiKey: 'AIza-wrong-key' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
  });
});

describe('gemini through the engine', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('runs a job submitted to gemini and stores its PNG with the settings embedded', async () => {
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { gemini: { apiKey: KEY, baseUrl: fake.url } } });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'gemini',
      model: 'gemini-3-pro-image-preview',
      prompt: 'a lighthouse at dusk',
      width: 1344,
      height: 768,
      count: 1,
    });
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done.status).toBe('succeeded');
    const png = readFileSync(h.engine.resolveMedia('image', done.images[0]!.id)!.path);
    expect(sniffImage(png)).toMatchObject({ width: 64, height: 36 });
    expect(readAtelierChunk(png)).toMatchObject({
      provider: 'gemini',
      model: 'gemini-3-pro-image-preview',
      request: { prompt: 'a lighthouse at dusk', width: 1344, height: 768 },
    });
    expect(fake.generationRequests()[0]!.headers['x-goog-api-key']).toBe(KEY);
    expect(JSON.stringify(done)).not.toContain(KEY);
    for (const file of ['atelier.db', 'atelier.db-wal']
      .map((name) => join(h!.dataDir, name))
      .filter((path) => existsSync(path))) {
      expect(readFileSync(file).includes(KEY)).toBe(false);
    }
  });
});
