import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import { extractStabilityError } from '../../../electron/providers/stability/errors.js';
import { createStabilityProvider } from '../../../electron/providers/stability/index.js';
import { ASPECT_RATIOS, aspectRatioFor } from '../../../electron/providers/stability/models.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import {
  type FakeStability,
  RANDOM_SEED,
  RESULT_PNG,
  stabilityErrors,
  startFakeStability,
} from '../../fakes/stability.js';
import type { LoggedRequest } from '../../fakes/server.js';
import { config, grayMask, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const KEY = 'sk-stability-fake-0123456789abcdef';
const provider = createStabilityProvider({ firstMs: 5, maxMs: 20 });
let fake: FakeStability;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeStability({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

/** The text fields of a logged multipart POST, by name. */
function fields(logged: LoggedRequest): Record<string, string> {
  return Object.fromEntries(
    fake
      .parts(logged)
      .filter((p) => p.filename === undefined)
      .map((p) => [p.name, p.data.toString('utf8')]),
  );
}

function file(logged: LoggedRequest, name: string): Buffer | undefined {
  return fake.parts(logged).find((p) => p.name === name && p.filename !== undefined)?.data;
}

describe('stability: text to image', () => {
  it('posts core a multipart form with the aspect ratio from the size, and keeps the image and its seed', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(
      request({ model: 'core', seed: 77, width: 1344, height: 768, negativePrompt: 'blurry' }),
      cfg,
      ctx,
    );
    expect(Buffer.from(out.images[0]!.data).equals(RESULT_PNG)).toBe(true);
    expect(out.seed).toBe(77);
    expect(out.images[0]!.seed).toBe(77);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/generate/core');
    expect(submit!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(submit!.headers.accept).toBe('image/*');
    expect(submit!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(fields(submit!)).toEqual({
      prompt: 'a red fox in snow',
      negative_prompt: 'blurry',
      aspect_ratio: '16:9',
      seed: '77',
      output_format: 'png',
    });
    expect(out.info).toMatchObject({ stabilityEndpoint: 'v2beta/stable-image/generate/core', finishReason: 'SUCCESS' });
  });

  it('records the seed Stability picked when none was sent', async () => {
    const out = await provider.generate(request({ model: 'ultra', width: 832, height: 1216 }), cfg, recordingContext());
    expect(out.seed).toBe(RANDOM_SEED);
    expect(fake.submits()[0]!.path).toBe('/v2beta/stable-image/generate/ultra');
    expect(fields(fake.submits()[0]!)).toMatchObject({ aspect_ratio: '2:3' });
  });

  it('sends an sd3.5 model as the sd3 endpoint’s model field, with mode and cfg_scale from guidance', async () => {
    await provider.generate(request({ model: 'sd3.5-large-turbo', guidance: 1.5 }), cfg, recordingContext());
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/generate/sd3');
    expect(fields(submit!)).toMatchObject({ model: 'sd3.5-large-turbo', mode: 'text-to-image', cfg_scale: '1.5' });
  });

  it('is paid when it answers: onAccepted without a remote id, and the trace says there is none', async () => {
    const ctx = recordingContext();
    await provider.generate(request(), cfg, ctx);
    expect(ctx.accepted).toBe(1);
    expect(ctx.remotes).toEqual([]);
    expect(ctx.traces.some((t) => /no remote id/.test(t.message))).toBe(true);
  });

  it('reads a base64 JSON answer the same way', async () => {
    fake.setScenario({ kind: 'success', answerAs: 'json' });
    const out = await provider.generate(request({ seed: 9 }), cfg, recordingContext());
    expect(Buffer.from(out.images[0]!.data).equals(RESULT_PNG)).toBe(true);
    expect(out.seed).toBe(9);
  });

  it('refuses what Stability would reject before sending anything', async () => {
    const refused: Parameters<typeof request>[0][] = [
      { model: 'core', inputImage: { imageId: 'img-1' } },
      { model: 'erase' },
      { model: 'flux-2-pro' },
      { seed: 4_294_967_295 },
      { count: 2 },
      { steps: 30 },
      { model: 'core', guidance: 4 },
      { model: 'sd3.5-medium', guidance: 12 },
      { outputFormat: 'jpeg' },
      { upscale: { imageId: 'img-1', factor: 2 } },
      { upscale: { imageId: 'img-1', factor: 4, upscaler: 'esrgan' } },
    ];
    for (const overrides of refused) {
      expect(() => provider.validate(request(overrides), cfg), JSON.stringify(overrides)).toThrow();
      await rejectsWith(provider.generate(request(overrides), cfg, recordingContext()), 'invalid_request');
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('stability: edits', () => {
  it('works from an image on sd3 with mode image-to-image, the image as a file and the strength', async () => {
    const ctx = recordingContext();
    const image = sourcePng(64, 64);
    ctx.inputs = { image };
    await provider.generate(
      request({ model: 'sd3.5-large', inputImage: { imageId: 'img-1', strength: 0.4 }, seed: 3 }),
      cfg,
      ctx,
    );
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/generate/sd3');
    expect(fields(submit!)).toEqual({
      prompt: 'a red fox in snow',
      model: 'sd3.5-large',
      mode: 'image-to-image',
      strength: '0.4',
      seed: '3',
      output_format: 'png',
    });
    expect(file(submit!, 'image')?.equals(Buffer.from(image.data))).toBe(true);
  });

  it('repaints a masked area on edit/inpaint with the image, the mask and the prompt', async () => {
    const ctx = recordingContext();
    const image = sourcePng(64, 64);
    const mask = await grayMask(64, 64, (x) => x < 32);
    ctx.inputs = { image, mask };
    await provider.generate(request({ inputImage: { imageId: 'img-1' }, mask: { imageId: 'mask-1' } }), cfg, ctx);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/edit/inpaint');
    expect(fields(submit!)).toEqual({ prompt: 'a red fox in snow', output_format: 'png' });
    expect(file(submit!, 'image')?.equals(Buffer.from(image.data))).toBe(true);
    expect(file(submit!, 'mask')?.equals(Buffer.from(mask.data))).toBe(true);
    expect(ctx.traces.some((t) => /own inpainting model/.test(t.message))).toBe(true);
  });

  it('erases a masked area with the erase model, sending no prompt and saying so', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64), mask: await grayMask(64, 64, (x, y) => x > y) };
    const out = await provider.generate(
      request({ model: 'erase', negativePrompt: 'x', inputImage: { imageId: 'img-1' }, mask: { imageId: 'mask-1' } }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(1);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/edit/erase');
    expect(fields(submit!)).toEqual({ output_format: 'png' });
    expect(file(submit!, 'mask')).toBeDefined();
    expect(ctx.traces.some((t) => t.kind === 'warning' && /erase takes no prompt/.test(t.message))).toBe(true);
    expect(ctx.traces.some((t) => /no negative prompt/.test(t.message))).toBe(true);
  });

  it('works from an image on ultra with the strength, leaving the aspect ratio to the source', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    await provider.generate(request({ model: 'ultra', inputImage: { imageId: 'img-1' } }), cfg, ctx);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/generate/ultra');
    expect(fields(submit!)).toEqual({ prompt: 'a red fox in snow', strength: '0.75', output_format: 'png' });
    expect(file(submit!, 'image')).toBeDefined();
    expect(ctx.traces.some((t) => t.kind === 'warning' && /strength 0.75/.test(t.message))).toBe(true);
  });

  it('upscales on upscale/conservative with the prompt when asked, saying Stability picks the size', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    await provider.generate(request({ upscale: { imageId: 'img-1', factor: 2, upscaler: 'conservative' } }), cfg, ctx);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/upscale/conservative');
    expect(fields(submit!)).toEqual({ prompt: 'a red fox in snow', output_format: 'png' });
    expect(ctx.traces.some((t) => /picks the size itself/.test(t.message))).toBe(true);
    expect(ctx.remotes).toEqual([]);
  });

  it('refuses a source image the endpoint would refuse, saying what fits, before sending', async () => {
    const cases: [Parameters<typeof request>[0], [number, number], RegExp][] = [
      [
        { upscale: { imageId: 'img-1', factor: 4 } },
        [2048, 1024],
        /upscale\/fast takes images with sides of at most 1536 pixels and at most 1 MP; this one is 2048x1024/,
      ],
      [{ model: 'sd3.5-medium', inputImage: { imageId: 'img-1' } }, [64, 200], /within 1:2.5 and 2.5:1/],
      [{ upscale: { imageId: 'img-1', factor: 4, upscaler: 'creative' } }, [1200, 1000], /at most 1 MP/],
    ];
    for (const [overrides, [width, height], words] of cases) {
      const ctx = recordingContext();
      ctx.inputs = { image: sourcePng(width, height) };
      const error = await rejectsWith(provider.generate(request(overrides), cfg, ctx), 'invalid_request');
      expect(error.message).toMatch(words);
      expect(ctx.accepted).toBe(0);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('upscales by 4 on upscale/fast, at once', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    await provider.generate(request({ upscale: { imageId: 'img-1', factor: 4 } }), cfg, ctx);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v2beta/stable-image/upscale/fast');
    expect(fields(submit!)).toEqual({ output_format: 'png' });
    expect(ctx.remotes).toEqual([]);
  });
});

describe('stability: asynchronous results (creative upscale)', () => {
  it('stores the result id at once, polls /v2beta/results/{id} while 202, reporting each wait, then keeps the image', async () => {
    fake.setScenario({ kind: 'success', pendingPolls: 3 });
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    const out = await provider.generate(
      request({ seed: 11, upscale: { imageId: 'img-1', factor: 2, upscaler: 'creative' } }),
      cfg,
      ctx,
    );
    const [id] = fake.tasks();
    expect(ctx.remotes).toEqual([{ id, data: { endpoint: 'v2beta/stable-image/upscale/creative' } }]);
    expect(fake.submits()[0]!.seq).toBeLessThan(fake.polls()[0]!.seq);
    expect(fake.polls()).toHaveLength(4);
    expect(fake.polls()[0]!.path).toBe(`/v2beta/results/${id}`);
    expect(fake.polls()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(ctx.progress.filter((p) => p.stage === 'generating' && p.step !== undefined).map((p) => p.step)).toEqual([
      1, 2, 3,
    ]);
    expect(ctx.progress.at(-1)).toEqual({ stage: 'done', fraction: 1 });
    expect(Buffer.from(out.images[0]!.data).equals(RESULT_PNG)).toBe(true);
    expect(out.seed).toBe(11);
    expect(out.info).toMatchObject({ stabilityResultId: id });
    expect(fields(fake.submits()[0]!)).toMatchObject({ prompt: 'a red fox in snow', seed: '11' });
  });

  it('waits as long as a 429 poll’s Retry-After says, then keeps polling the same result', async () => {
    fake.setScenario({ kind: 'success', pendingPolls: 0, pollRetryAfter: '0.2' });
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    const out = await provider.generate(
      request({ upscale: { imageId: 'img-1', factor: 4, upscaler: 'creative' } }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(1);
    const [limited, ready] = fake.polls();
    expect(ready!.at - limited!.at).toBeGreaterThanOrEqual(190);
    expect(fake.submits()).toHaveLength(1);
  });
});

describe('stability: collecting accepted work again (resume)', () => {
  it('resume collects a held creative result after a restart without a second submit', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const first = recordingContext();
    first.inputs = { image: sourcePng(64, 64) };
    const running = provider.generate(
      request({ seed: 5, upscale: { imageId: 'img-1', factor: 4, upscaler: 'creative' } }),
      cfg,
      first,
    );
    await waitFor(() => fake.polls().length > 0);
    first.controller.abort();
    await rejectsWith(running, 'cancelled');

    const remote = first.remotes[0]!;
    fake.setTaskScenario(remote.id, { kind: 'success', pendingPolls: 1 });
    const later = recordingContext();
    const out = await provider.resume!(remote, request({ seed: 5 }), cfg, later);
    expect(Buffer.from(out.images[0]!.data).equals(RESULT_PNG)).toBe(true);
    expect(out.seed).toBe(5);
    expect(fake.submits()).toHaveLength(1);
    expect(later.accepted).toBe(0);
    expect(later.traces.map((t) => t.kind)).toContain('resume');
    expect(out.info).toMatchObject({ stabilityEndpoint: 'v2beta/stable-image/upscale/creative' });
  });

  it('ends a result Stability no longer has (404 after 24 hours) with that reason, marked as gone', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const first = recordingContext();
    first.inputs = { image: sourcePng(64, 64) };
    const running = provider.generate(
      request({ upscale: { imageId: 'img-1', factor: 4, upscaler: 'creative' } }),
      cfg,
      first,
    );
    await waitFor(() => fake.polls().length > 0);
    first.controller.abort();
    await rejectsWith(running, 'cancelled');
    fake.expire(first.remotes[0]!.id);

    const error = await rejectsWith(
      provider.resume!(first.remotes[0]!, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.message).toMatch(/no longer has result .*kept for 24 hours/);
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ remoteGone: true, phase: 'after_send' });
    expect(fake.submits()).toHaveLength(1);
  });

  it('never puts a stored id that is not Stability’s into a URL', async () => {
    const error = await rejectsWith(
      provider.resume!({ id: '../v1/user/balance' }, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.details).toMatchObject({ remoteGone: true });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('stability: cancel', () => {
  it('drops a synchronous request and says in the trace that Stability has no cancel endpoint', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.submits().length > 0);
    ctx.controller.abort();
    const error = await rejectsWith(running, 'cancelled');
    expect(error.details?.phase).toBe('after_send');
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /no cancel endpoint/.test(t.message))).toBe(true);
    await waitFor(() => fake.submits()[0]!.aborted);
  });

  it('stops polling a creative result, which may still run', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(64, 64) };
    const running = provider.generate(
      request({ upscale: { imageId: 'img-1', factor: 4, upscaler: 'creative' } }),
      cfg,
      ctx,
    );
    await waitFor(() => fake.polls().length >= 2);
    ctx.controller.abort();
    await rejectsWith(running, 'cancelled');
    // The poll loop and its waits end on the signal: a wait that ignored it would keep polling and the test time out.
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /may still run/.test(t.message))).toBe(true);
  });
});

describe('stability: failures', () => {
  it('names each failure answer in words, with its code, and never retries what may have been billed', async () => {
    const cases: [Parameters<FakeStability['setScenario']>[0], Parameters<typeof rejectsWith>[1], RegExp][] = [
      [
        stabilityErrors.badRequest(),
        'provider_rejected',
        /rejected the request \(HTTP 400\): "aspect_ratio: must be one of 16:9, 1:1; seed: too large"/,
      ],
      [stabilityErrors.outOfCredits(), 'provider_rejected', /out of credits \(HTTP 402\)/],
      [stabilityErrors.moderated(), 'provider_error', /content moderation refused the request.*nothing was charged/],
      [stabilityErrors.tooLarge(), 'provider_rejected', /too large .*HTTP 413/],
      [stabilityErrors.unprocessable(), 'provider_rejected', /HTTP 422\): "English is the only supported language"/],
      [stabilityErrors.internal(500), 'provider_error', /failed with HTTP 500/],
      [
        { kind: 'content_filtered' },
        'provider_error',
        /content filter blurred the result \(finish reason CONTENT_FILTERED\)/,
      ],
    ];
    for (const [scenario, code, words] of cases) {
      fake.setScenario(scenario);
      const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), code);
      expect(error.message).toMatch(words);
      expect(error.retryable).toBe(false);
    }
  });

  it('keeps a filtered image out of the library, after the work was accepted', async () => {
    fake.setScenario({ kind: 'content_filtered' });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_error');
    expect(error.details).toMatchObject({ phase: 'after_send', moderation: true, finishReason: 'CONTENT_FILTERED' });
    expect(ctx.accepted).toBe(1);
  });

  it('retries 429 after Retry-After (60 s, Stability’s lockout, when it gives none) and 503; 401 is a bad key', async () => {
    fake.setScenario(stabilityErrors.rateLimited(7));
    const limited = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(limited.retryable).toBe(true);
    expect(limited.details?.retryAfterMs).toBe(7000);
    fake.setScenario(stabilityErrors.rateLimited());
    const bare = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(bare.details?.retryAfterMs).toBe(60_000);
    fake.setScenario(stabilityErrors.internal(503));
    const down = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_unavailable');
    expect(down.retryable).toBe(true);
    const ctx = recordingContext();
    const auth = await rejectsWith(provider.generate(request(), { ...cfg, apiKey: 'sk-wrong' }, ctx), 'provider_auth');
    expect(auth.message).toMatch(/did not accept the API key \(HTTP 401\)/);
    expect(ctx.accepted).toBe(0);
  });

  it('says what is missing without a key, sending nothing', async () => {
    await rejectsWith(provider.generate(request(), { ...cfg, apiKey: '' }, recordingContext()), 'provider_auth');
    expect(provider.isConfigured({ ...cfg, apiKey: '' })).toBe(false);
    expect(provider.isConfigured(cfg)).toBe(true);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('stability: reading what Stability says', () => {
  it('reads any error body in bounded words and never throws on it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({
            name: fc.string({ maxLength: 200 }),
            errors: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 40 }),
          }),
        ),
        (json) => {
          const body = extractStabilityError(json);
          expect(body.errors.length).toBeLessThanOrEqual(5);
          for (const said of body.errors) expect(said.length).toBeLessThanOrEqual(300);
          expect((body.name ?? '').length).toBeLessThanOrEqual(60);
        },
      ),
    );
    const long = extractStabilityError({
      name: 'bad_request',
      errors: Array.from({ length: 50 }, () => 'x'.repeat(1000)),
    });
    expect(long.errors).toHaveLength(5);
    expect(long.errors[0]).toHaveLength(300);
  });

  it('picks the nearest of Stability’s nine aspect ratios for any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 64, max: 4096 }), fc.integer({ min: 64, max: 4096 }), (width, height) => {
        const [w, h] = aspectRatioFor(width, height).split(':').map(Number) as [number, number];
        const error = Math.abs(Math.log(w / h) - Math.log(width / height));
        for (const [rw, rh] of ASPECT_RATIOS)
          expect(error).toBeLessThanOrEqual(Math.abs(Math.log(rw / rh) - Math.log(width / height)));
      }),
    );
    expect(aspectRatioFor(1344, 768)).toBe('16:9');
    expect(aspectRatioFor(4096, 64)).toBe('21:9');
  });
});

describe('stability: the key stays secret', () => {
  it('never shows the key in errors, traces or output even when the server echoes it', async () => {
    await fake.close();
    fake = await startFakeStability({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.url, apiKey: KEY });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createStabilityProvider({ firstMs: 5, maxMs: 20 }))]) {
      for (const [scenario, code] of [
        [stabilityErrors.rateLimited(), 'provider_rate_limited'],
        [stabilityErrors.badRequest(), 'provider_rejected'],
        [stabilityErrors.moderated(), 'provider_error'],
      ] as const) {
        fake.setScenario(scenario);
        const ctx = recordingContext();
        seen.push(visible(await rejectsWith(p.generate(request(), cfg, ctx), code)), JSON.stringify(ctx.traces));
      }
      const bad = await rejectsWith(
        p.generate(request(), { ...cfg, apiKey: `${KEY}x` }, recordingContext()),
        'provider_auth',
      );
      seen.push(visible(bad));
      fake.setScenario({ kind: 'success' });
      const ctx = recordingContext();
      seen.push(JSON.stringify(await p.generate(request(), cfg, ctx)), JSON.stringify(ctx.traces));
      seen.push(JSON.stringify(await p.test(cfg, new AbortController().signal)));
      seen.push(JSON.stringify(await p.test({ ...cfg, apiKey: `${KEY}x` }, new AbortController().signal)));
    }
    expect(seen.join('\n')).toContain('(key ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

describe('stability: connection test', () => {
  it('checks the key with the free balance call and says how many credits are left', async () => {
    const result = await provider.test(cfg, new AbortController().signal);
    expect(result).toMatchObject({
      ok: true,
      authenticated: true,
      message: expect.stringMatching(/12\.34 credits left/),
    });
    expect(result.models).toContain('sd3.5-large');
    expect(fake.requests[0]!.path).toBe('/v1/user/balance');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    const bad = await provider.test({ ...cfg, apiKey: 'sk-wrong' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
  });
});
