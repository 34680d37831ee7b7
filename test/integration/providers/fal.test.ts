import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayCarryKey } from '../../../electron/providers/fal/connection.js';
import { createFalProvider } from '../../../electron/providers/fal/index.js';
import { stepOfLine, stepOfLogs } from '../../../electron/providers/fal/log-steps.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { FAL_PNGS, type FakeFal, falErrors, startFakeFal } from '../../fakes/fal.js';
import { config, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const KEY = 'fal-fake-key-0123456789abcdef:secretpart';
const timing = { firstMs: 5, maxMs: 20 };
const provider = createFalProvider(timing);
let fake: FakeFal;
let cfg: ProviderConfig;

function same(data: Uint8Array, png: Buffer): boolean {
  return Buffer.from(data).equals(png);
}

beforeEach(async () => {
  fake = await startFakeFal({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

describe('fal: collecting accepted work again (resume)', () => {
  it('hands the request id and fal’s URLs to onAccepted, and resume collects it without a second submit', async () => {
    fake.setScenario({ kind: 'running_forever' });
    const first = recordingContext();
    // The first run ends as a crash would: it stops waiting (its deadline) without cancelling anything.
    await rejectsWith(provider.generate(request({ seed: 5, timeoutMs: 1000 }), cfg, first), 'timeout');
    const app = `${fake.url}/fal-ai/flux/requests/fal-req-1`;
    expect(first.remotes).toEqual([
      {
        id: 'fal-req-1',
        data: { model: 'fal-ai/flux/dev', statusUrl: `${app}/status`, responseUrl: app, cancelUrl: `${app}/cancel` },
      },
    ]);
    expect(fake.cancels()).toHaveLength(0);

    fake.setTaskScenario('fal-req-1', { kind: 'success', queued: 0, running: 1 });
    const later = recordingContext();
    const out = await provider.resume!(first.remotes[0]!, request({ seed: 5 }), cfg, later);
    expect(same(out.images[0]!.data, FAL_PNGS[0]!)).toBe(true);
    expect(out.seed).toBe(5);
    expect(fake.submits()).toHaveLength(1);
    expect(later.accepted).toBe(0);
    expect(later.traces.map((t) => t.kind)).toContain('resume');
  });

  it('ends a request fal no longer knows with that reason, marked as gone', async () => {
    const app = `${fake.url}/fal-ai/flux/requests/lost-1`;
    const error = await rejectsWith(
      provider.resume!(
        {
          id: 'lost-1',
          data: { model: 'fal-ai/flux/dev', statusUrl: `${app}/status`, responseUrl: app, cancelUrl: `${app}/cancel` },
        },
        request(),
        cfg,
        recordingContext(),
      ),
      'provider_error',
    );
    expect(error.message).toContain('no longer knows request lost-1');
    expect(error.details).toMatchObject({ remoteGone: true, phase: 'after_send' });
    expect(fake.submits()).toHaveLength(0);
  });

  it('ends a request whose result expired with that reason, marked as gone, on a fresh run and on resume', async () => {
    fake.setScenario({ kind: 'expired' });
    const first = recordingContext();
    const fresh = await rejectsWith(provider.generate(request(), cfg, first), 'provider_error');
    expect(fresh.details).toMatchObject({ remoteGone: true });
    const error = await rejectsWith(
      provider.resume!(first.remotes[0]!, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.message).toMatch(/no longer knows request fal-req-1 \(HTTP 404 from its result\)/);
    expect(error.details).toMatchObject({ remoteGone: true });
  });

  it('resumes a remote stored without URLs by building them from its model id (the sub-path dropped)', async () => {
    fake.setScenario({ kind: 'running_forever' });
    await rejectsWith(provider.generate(request({ timeoutMs: 1000 }), cfg, recordingContext()), 'timeout');
    fake.setTaskScenario('fal-req-1', { kind: 'success', queued: 0, running: 0 });
    const out = await provider.resume!(
      { id: 'fal-req-1', data: { model: 'fal-ai/flux/dev' } },
      request(),
      cfg,
      recordingContext(),
    );
    expect(out.images).toHaveLength(1);
    expect(fake.statusPolls().at(-1)!.path).toBe('/fal-ai/flux/requests/fal-req-1/status');
  });
});

describe('fal: text to image', () => {
  it('submits with `Authorization: Key`, polls the returned status URL with logs, and downloads the images at once', async () => {
    fake.setScenario({ kind: 'success', queued: 2, running: 2 });
    const ctx = recordingContext();
    const out = await provider.generate(
      request({ model: 'fal-ai/flux/dev', seed: 77, width: 1024, height: 768, steps: 30, guidance: 4 }),
      cfg,
      ctx,
    );
    expect(same(out.images[0]!.data, FAL_PNGS[0]!)).toBe(true);
    expect(out.seed).toBe(77);
    expect(out.images[0]!.seed).toBe(77);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/fal-ai/flux/dev');
    expect(submit!.headers.authorization).toBe(`Key ${KEY}`);
    expect(submit!.json).toEqual({
      prompt: 'a red fox in snow',
      image_size: { width: 1024, height: 768 },
      num_images: 1,
      seed: 77,
      num_inference_steps: 30,
      guidance_scale: 4,
      output_format: 'png',
      enable_safety_checker: true,
    });
    const polls = fake.statusPolls();
    expect(polls).toHaveLength(5);
    expect(polls[0]!.path).toBe('/fal-ai/flux/requests/fal-req-1/status');
    expect(polls[0]!.query).toEqual({ logs: '1' });
    expect(polls[0]!.headers.authorization).toBe(`Key ${KEY}`);
    expect(fake.results()).toHaveLength(1);
    expect(fake.downloads()[0]!.headers.authorization).toBeUndefined();
    expect(ctx.accepted).toBe(1);
    expect(ctx.traces.find((t) => t.kind === 'accepted')?.data).toEqual({ falRequestId: 'fal-req-1' });
    expect(out.info).toMatchObject({ falRequestId: 'fal-req-1', model: 'fal-ai/flux/dev' });
  });

  it('makes a batch with num_images and marks each image’s place in the one seed’s batch', async () => {
    const out = await provider.generate(request({ count: 3, seed: 9 }), cfg, recordingContext());
    expect(fake.submits()[0]!.json).toMatchObject({ num_images: 3 });
    expect(out.images.map((i) => i.batchIndex)).toEqual([0, 1, 2]);
    out.images.forEach((image, n) => expect(same(image.data, FAL_PNGS[n]!)).toBe(true));
    expect(out.seed).toBe(9);
  });

  it('reads images sent as data URIs (sync_mode) without downloading anything', async () => {
    fake.setScenario({ kind: 'success', dataUri: true });
    const out = await provider.generate(request(), cfg, recordingContext());
    expect(same(out.images[0]!.data, FAL_PNGS[0]!)).toBe(true);
    expect(fake.downloads()).toHaveLength(0);
  });

  it('builds the status and result URLs from the model id when the submit answer leaves them out', async () => {
    fake.setScenario({ kind: 'success', bareSubmit: true, queued: 0, running: 0 });
    const ctx = recordingContext();
    await provider.generate(request({ model: 'fal-ai/flux/schnell' }), cfg, ctx);
    expect(fake.submits()[0]!.path).toBe('/fal-ai/flux/schnell');
    expect(fake.statusPolls()[0]!.path).toBe('/fal-ai/flux/requests/fal-req-1/status');
    expect(fake.results()[0]!.path).toBe('/fal-ai/flux/requests/fal-req-1');
    expect(ctx.remotes[0]!.data?.cancelUrl).toBe(`${fake.url}/fal-ai/flux/requests/fal-req-1/cancel`);
  });

  it('sends Ideogram the nearest aspect ratio with MagicPrompt off, and Recraft no seed (said in the trace)', async () => {
    await provider.generate(
      request({ model: 'fal-ai/ideogram/v2', width: 1344, height: 768, seed: 3, negativePrompt: 'blurry' }),
      cfg,
      recordingContext(),
    );
    expect(fake.submits()[0]!.json).toEqual({
      prompt: 'a red fox in snow',
      aspect_ratio: '16:9',
      expand_prompt: false,
      seed: 3,
      negative_prompt: 'blurry',
    });
    const ctx = recordingContext();
    await provider.generate(request({ model: 'fal-ai/recraft-v3', seed: 3 }), cfg, ctx);
    expect(fake.submits()[1]!.json).toEqual({ prompt: 'a red fox in snow', image_size: { width: 1024, height: 1024 } });
    expect(ctx.traces.some((t) => t.kind === 'warning' && /takes no seed/.test(t.message))).toBe(true);
  });

  it('runs any typed model id with the generic input, and refuses ids and requests fal would reject before sending', async () => {
    await provider.generate(request({ model: 'someone/new-model/v2', negativePrompt: 'fog' }), cfg, recordingContext());
    expect(fake.submits()[0]!.path).toBe('/someone/new-model/v2');
    expect(fake.submits()[0]!.json).toEqual({
      prompt: 'a red fox in snow',
      image_size: { width: 1024, height: 1024 },
      num_images: 1,
      negative_prompt: 'fog',
    });
    expect(fake.statusPolls()[0]!.path).toBe('/someone/new-model/requests/fal-req-1/status');
    for (const bad of [
      request({ model: 'flux-dev' }),
      request({ model: 'fal-ai/../admin' }),
      request({ model: 'fal-ai/flux dev' }),
      request({ width: 1000 }),
      request({ count: 5 }),
      request({ model: 'fal-ai/recraft-v3', count: 2 }),
      request({ model: 'fal-ai/recraft-v3', prompt: 'x'.repeat(1001) }),
      request({ model: 'fal-ai/flux/dev/image-to-image' }),
    ]) {
      expect(() => provider.validate(bad, cfg)).toThrow();
      await rejectsWith(provider.generate(bad, cfg, recordingContext()), 'invalid_request');
    }
    expect(fake.submits()).toHaveLength(1);
  });

  it('names a model id fal does not have (404 at submit) and never retries it', async () => {
    const error = await rejectsWith(
      provider.generate(request({ model: 'missing/model' }), cfg, recordingContext()),
      'provider_rejected',
    );
    expect(error.message).toMatch(/has no model "missing\/model"/);
    expect(error.retryable).toBe(false);
  });

  it('says per preset what it can do, and offers the presets plus the typed id', () => {
    expect(
      provider.capabilities(config({ model: 'fal-ai/flux/dev/image-to-image' })).operations.img2img.supported,
    ).toBe(true);
    const dev = provider.capabilities(config());
    expect(dev.operations.img2img).toMatchObject({ supported: false, reason: expect.stringMatching(/image-to-image/) });
    expect(dev.steps).toMatchObject({ max: 50 });
    expect(provider.capabilities(config({ model: 'fal-ai/recraft-v3' }))).toMatchObject({ seed: false, maxCount: 1 });
    expect(provider.capabilities(config({ model: 'fal-ai/ideogram/v2' }))).toMatchObject({ negativePrompt: true });
    expect(provider.capabilities(config({ model: 'a/b/edit' })).operations.img2img.supported).toBe(true);
    expect(provider.knownModels(config({ model: 'someone/thing' }))).toEqual([
      'fal-ai/flux/dev',
      'fal-ai/flux/schnell',
      'fal-ai/flux-pro/v1.1',
      'fal-ai/recraft-v3',
      'fal-ai/ideogram/v2',
      'fal-ai/flux/dev/image-to-image',
      'fal-ai/flux-lora',
      'someone/thing',
    ]);
    expect(provider.isConfigured(config())).toBe(false);
    expect(provider.isConfigured(cfg)).toBe(true);
  });
});

describe('fal: edits', () => {
  it('sends the library image as a data URI in image_url with its strength to the image-to-image model', async () => {
    const ctx = recordingContext();
    const image = sourcePng(8, 8);
    ctx.inputs = { image };
    await provider.generate(
      request({ model: 'fal-ai/flux/dev/image-to-image', inputImage: { imageId: 'img-1', strength: 0.6 } }),
      cfg,
      ctx,
    );
    const submit = fake.submits()[0]!;
    expect(submit.path).toBe('/fal-ai/flux/dev/image-to-image');
    const sent = submit.json as { image_url: string; strength: number; image_size?: unknown };
    expect(sent.image_url).toBe(`data:image/png;base64,${Buffer.from(image.data).toString('base64')}`);
    expect(sent.strength).toBe(0.6);
    expect(sent.image_size).toBeUndefined();
    expect(fake.statusPolls()[0]!.path).toBe('/fal-ai/flux/requests/fal-req-1/status');
  });

  it('refuses an edit on a text-only model and a masked edit before sending, naming the edit model', async () => {
    const edit = request({ inputImage: { imageId: 'img-1' } });
    const error = await rejectsWith(provider.generate(edit, cfg, recordingContext()), 'invalid_request');
    expect(error.message).toMatch(/fal-ai\/flux\/dev\/image-to-image/);
    const masked = request({
      model: 'fal-ai/flux/dev/image-to-image',
      inputImage: { imageId: 'i' },
      mask: { imageId: 'm' },
    });
    await rejectsWith(provider.generate(masked, cfg, recordingContext()), 'invalid_request');
    expect(fake.submits()).toHaveLength(0);
  });
});

describe('fal: progress', () => {
  it('reports the queue as queued (its position in the trace) and runner log steps as generating fractions', async () => {
    fake.setScenario({ kind: 'success', queued: 2, running: 2, steps: 8 });
    const ctx = recordingContext();
    await provider.generate(request(), cfg, ctx);
    expect(ctx.progress.filter((p) => p.stage === 'queued').length).toBeGreaterThanOrEqual(2);
    const generating = ctx.progress.filter((p) => p.stage === 'generating');
    expect(generating).toEqual([
      { stage: 'generating', step: 3, steps: 8, fraction: 3 / 8 },
      { stage: 'generating', step: 6, steps: 8, fraction: 6 / 8 },
    ]);
    expect(ctx.traces.find((t) => t.kind === 'queue')?.data).toEqual({ queuePosition: 1 });
    expect(ctx.progress.at(-1)).toEqual({ stage: 'done', fraction: 1 });
  });

  it('reads a step counter from tqdm and plain log lines, and not from dates, versions or ratios of words', () => {
    expect(stepOfLine(' 43%|████▎     | 12/28 [00:03<00:04,  3.1it/s]')).toEqual({ step: 12, steps: 28 });
    expect(stepOfLine('Step 5/20')).toEqual({ step: 5, steps: 20 });
    expect(stepOfLine('3 / 10 done')).toEqual({ step: 3, steps: 10 });
    expect(stepOfLine('2026/12/02 loading')).toBeNull();
    expect(stepOfLine('model v1.5/2 ready')).toBeNull();
    expect(stepOfLine('31/28')).toBeNull();
    expect(stepOfLine('weights 1/2.5 GB')).toBeNull();
    expect(stepOfLine('page 1/2b')).toBeNull();
    expect(stepOfLine('n/a')).toBeNull();
    expect(stepOfLogs(['1/4', 'saving', 'done'])).toEqual({ step: 1, steps: 4 });
    expect(stepOfLogs(['nothing here'])).toBeNull();
  });

  it('reads any log line, megabyte-long hostile ones too, without throwing (a counter found is a step within its steps)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('1', '2', '/', ' ', '|', 'a', '.', '9', '0'), maxLength: 400 }),
        (line) => {
          const step = stepOfLine(line);
          if (step !== null) expect(step.step).toBeLessThanOrEqual(step.steps);
        },
      ),
    );
    // Hostile shapes: a megabyte of digits, of slashes, of spaces between slashes (only a line's start is read).
    for (const hostile of [
      '1'.repeat(1_000_000),
      '/'.repeat(1_000_000),
      `1${' '.repeat(1_000_000)}/`,
      '1/'.repeat(500_000),
    ]) {
      expect(() => stepOfLine(hostile)).not.toThrow();
    }
  });
});

describe('fal: cancel', () => {
  it('PUTs the request’s cancel_url with the key, says so in the trace, and stops polling', async () => {
    fake.setScenario({ kind: 'running_forever' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.statusPolls().length >= 2);
    ctx.controller.abort();
    const error = await rejectsWith(running, 'cancelled');
    expect(error.details).toMatchObject({ phase: 'after_send' });
    const [cancel] = fake.cancels();
    expect(cancel!.path).toBe('/fal-ai/flux/requests/fal-req-1/cancel');
    expect(cancel!.headers.authorization).toBe(`Key ${KEY}`);
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /CANCELLATION_REQUESTED/.test(t.message))).toBe(true);
    const polled = fake.statusPolls().length;
    // generate() has settled, so its poll loop has ended; a cancel that left it running would poll on for ever.
    await rejectsWith(provider.resume!(ctx.remotes[0]!, request(), cfg, recordingContext()), 'provider_error');
    expect(fake.statusPolls().length).toBe(polled + 1);
  });
});

describe('fal: failures', () => {
  it('says an exhausted balance (403 “User is locked”) and a 402 are out of credits, never retried', async () => {
    for (const scenario of [falErrors.exhaustedBalance(), falErrors.paymentRequired()]) {
      fake.setScenario(scenario);
      const ctx = recordingContext();
      const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_rejected');
      expect(error.message).toMatch(/out of credits.*fal\.ai\/dashboard\/billing/);
      expect(error.retryable).toBe(false);
      expect(ctx.accepted).toBe(0);
    }
  });

  it('retries a 429 after its Retry-After, names a 422’s problems in words, and a 500 is a provider error', async () => {
    fake.setScenario(falErrors.rateLimited(7));
    const limited = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(limited.retryable).toBe(true);
    expect(limited.details).toMatchObject({ retryAfterMs: 7000, phase: 'before_accept' });
    fake.setScenario(falErrors.validation());
    const invalid = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(invalid.message).toBe(
      'fal-ai/flux/dev did not accept the input: image_size.width: ensure this value is less than or equal to 2048; ' +
        'prompt: field required.',
    );
    fake.setScenario(falErrors.serverError());
    const failed = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(failed.details).toMatchObject({ status: 500, providerCode: 'internal_error' });
    expect(fake.statusPolls()).toHaveLength(0);
  });

  it('says a bad key is a bad key', async () => {
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, apiKey: 'wrong-key-1234' }, recordingContext()),
      'provider_auth',
    );
    expect(error.message).toMatch(/did not accept the API key \(HTTP 401\)/);
  });

  it('names moderation, a failed run and blacked-out images, all after acceptance', async () => {
    const cases: [Parameters<FakeFal['setScenario']>[0], RegExp][] = [
      [falErrors.moderated(), /content checker blocked the prompt \(sexual\)/],
      [
        { kind: 'completed_error', error: 'CUDA out of memory', errorType: 'runner_disconnected' },
        /could not make the image: "CUDA out of memory"/,
      ],
      [{ kind: 'success', nsfw: [true] }, /safety checker flagged the image as NSFW/],
      [{ kind: 'success', nsfw: [true, true] }, /flagged all 2 images/],
      [{ kind: 'result_error', status: 500, body: { detail: 'boom' } }, /HTTP 500/],
    ];
    for (const [scenario, words] of cases) {
      fake.setScenario(scenario);
      const ctx = recordingContext();
      const error = await rejectsWith(provider.generate(request({ count: 2 }), cfg, ctx), 'provider_error');
      expect(error.message).toMatch(words);
      expect(error.retryable).toBe(false);
      expect(error.details?.phase).toBe('after_send');
      expect(ctx.accepted).toBe(1);
    }
  });

  it('keeps the images the safety checker passed and says how many it left out', async () => {
    fake.setScenario({ kind: 'success', nsfw: [false, true, false] });
    const ctx = recordingContext();
    const out = await provider.generate(request({ count: 3 }), cfg, ctx);
    expect(out.images).toHaveLength(2);
    expect(same(out.images[1]!.data, FAL_PNGS[2]!)).toBe(true);
    expect(out.images.map((i) => i.batchIndex)).toEqual([0, 2]);
    expect(ctx.traces.some((t) => t.kind === 'warning' && /flagged 1 of 3 images/.test(t.message))).toBe(true);
  });

  it('waits as long as a 429 status poll’s Retry-After says, then keeps polling the same request', async () => {
    fake.setScenario({ kind: 'success', queued: 0, running: 0, statusRetryAfter: '0.2' });
    await provider.generate(request(), cfg, recordingContext());
    const [limited, ready] = fake.statusPolls();
    expect(ready!.at - limited!.at).toBeGreaterThanOrEqual(190);
    expect(fake.submits()).toHaveLength(1);
  });
});

describe('fal: the key goes only to fal', () => {
  it('sends the key only to status, result and cancel URLs on fal (https) or on the configured server', () => {
    const base = 'https://queue.fal.run';
    expect(mayCarryKey('https://queue.fal.run/fal-ai/flux/requests/1/status', base)).toBe(true);
    expect(mayCarryKey('https://rest.alpha.fal.ai/x', base)).toBe(true);
    expect(mayCarryKey('http://127.0.0.1:9/a/b/requests/1', 'http://127.0.0.1:9')).toBe(true);
    expect(mayCarryKey('http://queue.fal.run/fal-ai/flux/requests/1', base)).toBe(false);
    expect(mayCarryKey('https://evil.example/queue.fal.run', base)).toBe(false);
    expect(mayCarryKey('https://notfal.run/x', base)).toBe(false);
    expect(mayCarryKey('not a url', base)).toBe(false);
  });

  it('sends no key to a status URL fal returned on another host', async () => {
    // Configured as localhost, the fake answers URLs on 127.0.0.1: another origin, so they go without the key.
    const elsewhere = { ...cfg, baseUrl: fake.url.replace('127.0.0.1', 'localhost') };
    await rejectsWith(provider.generate(request(), elsewhere, recordingContext()), 'provider_auth');
    expect(fake.submits()[0]!.headers.authorization).toBe(`Key ${KEY}`);
    expect(fake.statusPolls()[0]!.headers.authorization).toBeUndefined();
  });

  it('never shows the key in errors, traces or output even when the server echoes it', async () => {
    await fake.close();
    fake = await startFakeFal({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.url, apiKey: KEY });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createFalProvider(timing))]) {
      const failures: [Parameters<FakeFal['setScenario']>[0], Parameters<typeof rejectsWith>[1]][] = [
        [falErrors.exhaustedBalance(), 'provider_rejected'],
        [falErrors.moderated(), 'provider_error'],
        [{ kind: 'completed_error', error: 'failed' }, 'provider_error'],
      ];
      for (const [scenario, code] of failures) {
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
      seen.push(
        JSON.stringify(await p.generate(request(), cfg, ctx)),
        JSON.stringify(ctx.traces),
        JSON.stringify(ctx.remotes),
      );
      seen.push(JSON.stringify(await p.test(cfg, new AbortController().signal)));
    }
    expect(seen.join('\n')).toContain('(key ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

describe('fal: connection test', () => {
  it('accepts a good key (an unknown request answers 404) and says when the key is bad', async () => {
    const good = await provider.test(cfg, new AbortController().signal);
    expect(good).toMatchObject({ ok: true, authenticated: true });
    expect(good.models).toContain('fal-ai/flux/dev');
    expect(fake.requests[0]!.path).toBe('/fal-ai/flux/requests/atelier-connection-test/status');
    expect(fake.requests[0]!.headers.authorization).toBe(`Key ${KEY}`);
    const bad = await provider.test({ ...cfg, apiKey: 'wrong-key-123' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
    const none = await provider.test(config(), new AbortController().signal);
    expect(none).toMatchObject({ ok: false, authenticated: false });
  });
});
