import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayCarryKey } from '../../../electron/providers/replicate/connection.js';
import { createReplicateProvider } from '../../../electron/providers/replicate/index.js';
import { progressFromLogs, seedFromLogs } from '../../../electron/providers/replicate/logs.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeReplicate, OUTPUT_PNG, replicateErrors, startFakeReplicate } from '../../fakes/replicate.js';
import { config, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const KEY = 'r8_fakeReplicateToken0123456789';
const TIMING = { firstMs: 5, maxMs: 20, syncWaitSeconds: 7 };
const provider = createReplicateProvider(TIMING);
let fake: FakeReplicate;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeReplicate({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

const same = (data: Uint8Array) => Buffer.from(data).equals(OUTPUT_PNG);

describe('replicate: text to image', () => {
  it('creates on the official model with Bearer and Prefer: wait, polls to succeeded and downloads the output', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 2 });
    const ctx = recordingContext();
    const out = await provider.generate(
      request({ model: 'black-forest-labs/flux-schnell', seed: 77, width: 1344, height: 768, count: 1 }),
      cfg,
      ctx,
    );
    expect(out.images).toHaveLength(1);
    expect(same(out.images[0]!.data)).toBe(true);
    expect(out.seed).toBe(77);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(submit!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(submit!.headers.prefer).toBe('wait=7');
    expect(submit!.json).toEqual({
      input: { prompt: 'a red fox in snow', aspect_ratio: '16:9', num_outputs: 1, seed: 77, output_format: 'png' },
    });
    expect(fake.polls()).toHaveLength(3);
    expect(fake.polls()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.downloads()[0]!.headers.authorization).toBeUndefined();
    expect(ctx.accepted).toBe(1);
    expect(ctx.traces.find((t) => t.kind === 'accepted')?.data).toEqual({ predictionId: 'rfake1' });
    expect(out.info).toMatchObject({ replicatePredictionId: 'rfake1', predictSeconds: 1.25 });
  });

  it('takes a result the create call already holds (Prefer: wait) without polling', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 0, output: 'string' });
    const ctx = recordingContext();
    const out = await provider.generate(request({ model: 'black-forest-labs/flux-1.1-pro' }), cfg, ctx);
    expect(same(out.images[0]!.data)).toBe(true);
    expect(fake.polls()).toHaveLength(0);
    expect(ctx.accepted).toBe(1);
    // FLUX 1.1 [pro] takes a custom size; the seed the model logged is kept when none was asked for.
    expect(fake.submits()[0]!.json).toMatchObject({ input: { aspect_ratio: 'custom', width: 1024, height: 1024 } });
    expect(out.seed).toBe(4242);
  });

  it('takes the output files a held create call answers while its status still says processing', async () => {
    fake.setScenario({ kind: 'success', heldOutput: true });
    const out = await provider.generate(request({ model: 'black-forest-labs/flux-dev' }), cfg, recordingContext());
    expect(same(out.images[0]!.data)).toBe(true);
    expect(fake.polls()).toHaveLength(0);
  });

  it('reports no seed for a model that takes none, and says a strength the model has no field for was not sent', async () => {
    const recraft = await provider.generate(
      request({ model: 'recraft-ai/recraft-v3', seed: 12, width: 1365, height: 1024 }),
      cfg,
      recordingContext(),
    );
    expect(fake.submits()[0]!.json).toEqual({ input: { prompt: 'a red fox in snow', size: '1365x1024' } });
    expect(recraft.seed).toBeUndefined();
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(8, 8) };
    await provider.generate(
      request({ model: 'black-forest-labs/flux-kontext-pro', inputImage: { imageId: 'i', strength: 0.3 } }),
      cfg,
      ctx,
    );
    expect(
      ctx.traces.some((t) => t.kind === 'warning' && /no strength setting: 0.3 was not sent/.test(t.message)),
    ).toBe(true);
  });

  it('runs a pinned owner/name:version through /v1/predictions with its version', async () => {
    const version = 'a'.repeat(64);
    await provider.generate(
      request({ model: `someone/sdxl-style:${version}`, negativePrompt: 'blur', steps: 30 }),
      cfg,
      recordingContext(),
    );
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v1/predictions');
    expect(submit!.json).toMatchObject({
      version,
      input: {
        prompt: 'a red fox in snow',
        width: 1024,
        height: 1024,
        negative_prompt: 'blur',
        num_inference_steps: 30,
      },
    });
  });

  it('downloads every output of a batch (list of links) and decodes data URIs', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 1, outputs: 3 });
    const batch = await provider.generate(
      request({ model: 'black-forest-labs/flux-dev', count: 3, seed: 9 }),
      cfg,
      recordingContext(),
    );
    expect(batch.images.map((i) => [same(i.data), i.batchIndex, i.seed])).toEqual([
      [true, 0, 9],
      [true, 1, 9],
      [true, 2, 9],
    ]);
    expect(fake.downloads()).toHaveLength(3);
    fake.setScenario({ kind: 'success', processingPolls: 1, output: 'data' });
    const inline = await provider.generate(request(), cfg, recordingContext());
    expect(same(inline.images[0]!.data)).toBe(true);
    expect(fake.downloads()).toHaveLength(3);
  });

  it('refuses what a model would reject before sending anything', async () => {
    const cases = [
      request({ model: 'black-forest-labs/flux-1.1-pro', width: 1000 }),
      request({ model: 'recraft-ai/recraft-v3', width: 1000 }),
      request({ model: 'ideogram-ai/ideogram-v2', count: 2 }),
      request({ model: 'not a model' }),
      request({ model: 'black-forest-labs/flux-schnell', inputImage: { imageId: 'img-1' } }),
    ];
    for (const r of cases) await rejectsWith(provider.generate(r, cfg, recordingContext()), 'invalid_request');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('replicate: edits', () => {
  it('sends the source image as a data URI in flux-kontext-pro input_image, matching its aspect ratio', async () => {
    const ctx = recordingContext();
    const image = sourcePng(8, 8);
    ctx.inputs = { image };
    await provider.generate(
      request({ model: 'black-forest-labs/flux-kontext-pro', prompt: 'make it night', inputImage: { imageId: 'i' } }),
      cfg,
      ctx,
    );
    const { input } = fake.submits()[0]!.json as { input: Record<string, unknown> };
    expect(input.input_image).toBe(`data:image/png;base64,${Buffer.from(image.data).toString('base64')}`);
    expect(input).toMatchObject({ prompt: 'make it night', aspect_ratio: 'match_input_image', output_format: 'png' });
  });

  it('sends flux-dev its image and prompt_strength from the edit strength', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(8, 8) };
    await provider.generate(
      request({ model: 'black-forest-labs/flux-dev', inputImage: { imageId: 'i', strength: 0.6 } }),
      cfg,
      ctx,
    );
    const { input } = fake.submits()[0]!.json as { input: Record<string, unknown> };
    expect(input.image).toMatch(/^data:image\/png;base64,/);
    expect(input.prompt_strength).toBe(0.6);
    expect(input.aspect_ratio).toBeUndefined();
  });

  it('sends a source Replicate cannot read (TIFF) as the same pixels in PNG, and warns of a source over 1 MB', async () => {
    const tiff = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#c04020' } })
      .tiff()
      .toBuffer();
    const ctx = recordingContext();
    ctx.inputs = { image: { data: tiff, mime: 'image/tiff', width: 4, height: 3 } };
    const edit = request({ model: 'black-forest-labs/flux-kontext-pro', inputImage: { imageId: 'i' } });
    await provider.generate(edit, cfg, ctx);
    const sent = (fake.submits()[0]!.json as { input: { input_image: string } }).input.input_image;
    expect(sent.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(sent.slice('data:image/png;base64,'.length), 'base64');
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 4, height: 3 });
    expect(ctx.traces.some((t) => t.kind === 'warning')).toBe(false);

    const big = recordingContext();
    const padded = Buffer.concat([sourcePng(8, 8).data, Buffer.alloc(1100 * 1024)]);
    big.inputs = { image: { data: padded, mime: 'image/png', width: 8, height: 8 } };
    await provider.generate(edit, cfg, big);
    expect(big.traces.some((t) => t.kind === 'warning' && /advises data URIs under 1 MB/.test(t.message))).toBe(true);
  });
});

describe('replicate: progress', () => {
  it('reports starting as queued and the tqdm step of the logs while processing', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 2 });
    const ctx = recordingContext();
    await provider.generate(request(), cfg, ctx);
    const generating = ctx.progress.filter((p) => p.stage === 'generating');
    expect(generating).toEqual([
      { stage: 'generating', fraction: 0.32, step: 9, steps: 28 },
      { stage: 'generating', fraction: 0.68, step: 19, steps: 28 },
    ]);
    expect(ctx.progress[0]).toEqual({ stage: 'queued' });
    expect(ctx.progress.at(-1)).toEqual({ stage: 'done', fraction: 1 });
  });

  it('reads the last tqdm line of the logs, as the Replicate SDK does, in one pass over hostile text', () => {
    expect(progressFromLogs(' 45%|████▌     | 13/28 [00:03<00:03, 4.1it/s]')).toEqual({
      fraction: 0.45,
      step: 13,
      steps: 28,
    });
    expect(progressFromLogs('loading\n 10%|█| 3/28 [..]\r 50%|█████     | 14/28 [..]\nsaving')).toEqual({
      fraction: 0.5,
      step: 14,
      steps: 28,
    });
    expect(progressFromLogs('100%|| 1/1')).toBeUndefined();
    expect(seedFromLogs('Using seed: 123456789012\n')).toBe(123456789012);
    // A line that matches the start of the pattern over and over; no time is asserted: a quadratic scan of this
    // (900 KB) would stall past the test's timeout, as in test/unit/library/readers/linear-time.test.ts.
    const hostile = `1%|${'| 1'.repeat(300_000)}`;
    expect(progressFromLogs(`${hostile}\n`.repeat(3))).toBeUndefined();
  });
});

describe('replicate: cancel', () => {
  it('asks Replicate to cancel the prediction at its urls.cancel and ends as cancelled', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.polls().length >= 2);
    ctx.controller.abort();
    const error = await rejectsWith(running, 'cancelled');
    expect(error.details?.phase).toBe('after_send');
    expect(fake.cancels()).toHaveLength(1);
    expect(fake.cancels()[0]!.path).toBe('/v1/predictions/rfake1/cancel');
    expect(fake.cancels()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(
      ctx.traces.some((t) => t.kind === 'cancel' && /Asked Replicate to cancel prediction rfake1/.test(t.message)),
    ).toBe(true);
  });

  it('cancels the prediction when the job times out too', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, timeoutMs: 150 }, recordingContext()),
      'timeout',
    );
    expect(error.message).toMatch(/did not finish within 150 ms/);
    expect(fake.cancels()).toHaveLength(1);
  });

  it('says in the trace that a prediction held in the create call cannot be cancelled', async () => {
    fake.setScenario({ kind: 'hold_create' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.submits().length === 1);
    ctx.controller.abort();
    await rejectsWith(running, 'cancelled');
    expect(ctx.accepted).toBe(0);
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /held the create call/.test(t.message))).toBe(true);
  });
});

describe('replicate: failures', () => {
  it('maps 401, 402, 422, 404, 429, 500 and 503 to their codes and words, before anything was accepted', async () => {
    const cases: [Parameters<FakeReplicate['setScenario']>[0], string, RegExp, boolean][] = [
      [replicateErrors.outOfCredit(), 'provider_rejected', /out of credit \(HTTP 402\)/, false],
      [
        replicateErrors.invalidInput(),
        'provider_rejected',
        /refused the model's input \(HTTP 422\): - input.aspect_ratio/,
        false,
      ],
      [replicateErrors.unknownModel(), 'provider_rejected', /no such model or version/, false],
      [replicateErrors.rateLimited('12'), 'provider_rate_limited', /rate limiting/, true],
      [replicateErrors.serverError(), 'provider_error', /HTTP 500/, false],
      [replicateErrors.unavailable(), 'provider_unavailable', /unavailable/, true],
    ];
    for (const [scenario, code, words, retryable] of cases) {
      fake.setScenario(scenario);
      const ctx = recordingContext();
      const error = await rejectsWith(provider.generate(request(), cfg, ctx), code as never);
      expect(error.message).toMatch(words);
      expect(error.retryable).toBe(retryable);
      expect(ctx.accepted).toBe(0);
    }
    const bad = await rejectsWith(
      provider.generate(request(), { ...cfg, apiKey: 'r8_wrong' }, recordingContext()),
      'provider_auth',
    );
    expect(bad.message).toMatch(/did not accept the API token \(HTTP 401\)/);
    expect(fake.polls()).toHaveLength(0);
  });

  it('honours Retry-After on a 429, and the body’s "resets in ~30s" when there is no header', async () => {
    fake.setScenario(replicateErrors.rateLimited('12'));
    const header = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(header.details?.retryAfterMs).toBe(12_000);
    fake.setScenario(replicateErrors.rateLimited());
    const body = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(body.details?.retryAfterMs).toBe(30_000);
  });

  it('waits as long as a 429 poll’s Retry-After says, then keeps polling the same prediction', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 1, pollRetryAfter: '0.2' });
    const out = await provider.generate(request(), cfg, recordingContext());
    expect(same(out.images[0]!.data)).toBe(true);
    const [limited, next] = fake.polls();
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(190);
    expect(fake.submits()).toHaveLength(1);
  });

  it('keeps polling through three 5xx answers in a row, and ends after_send on the fourth', async () => {
    fake.setScenario({ kind: 'success', processingPolls: 1, pollErrors: 3 });
    const out = await provider.generate(request(), cfg, recordingContext());
    expect(same(out.images[0]!.data)).toBe(true);
    expect(fake.polls()).toHaveLength(5);
    fake.setScenario({ kind: 'success', processingPolls: 1, pollErrors: 4 });
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(error.message).toMatch(/HTTP 502/);
    expect(error.details?.phase).toBe('after_send');
  });

  it('names a safety block, a model error, a cancel elsewhere, an abort and expired outputs, all after acceptance', async () => {
    const cases: [Parameters<FakeReplicate['setScenario']>[0], RegExp][] = [
      [
        { kind: 'failed', error: 'NSFW content detected. Try running it again, or try a different prompt.' },
        /safety check blocked this prediction: "NSFW content detected/,
      ],
      [
        { kind: 'failed', error: 'The input or output was flagged as sensitive. (E005)' },
        /safety check blocked this prediction/,
      ],
      [{ kind: 'failed', error: 'CUDA out of memory' }, /could not make the image: "CUDA out of memory"/],
      [{ kind: 'ended', status: 'canceled' }, /was cancelled outside Atelier/],
      [{ kind: 'ended', status: 'aborted' }, /aborted prediction rfake\d+ before it started/],
      [{ kind: 'expired_output' }, /output link answered HTTP 404.*expired/],
      [{ kind: 'data_removed' }, /has removed prediction rfake\d+'s outputs/],
    ];
    for (const [scenario, words] of cases) {
      fake.setScenario(scenario);
      const ctx = recordingContext();
      const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'provider_error');
      expect(error.message).toMatch(words);
      expect(error.retryable).toBe(false);
      expect(error.details?.phase).toBe('after_send');
      expect(ctx.accepted).toBe(1);
    }
  });
});

describe('replicate: collecting accepted work again (resume)', () => {
  it('hands the prediction id and its URLs to onAccepted, and resume collects it without a second create', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const first = recordingContext();
    const running = provider.generate(request({ seed: 5 }), cfg, first);
    await waitFor(() => fake.polls().length > 0);
    expect(first.remotes).toEqual([
      {
        id: 'rfake1',
        data: { getUrl: `${fake.url}/v1/predictions/rfake1`, cancelUrl: `${fake.url}/v1/predictions/rfake1/cancel` },
      },
    ]);
    first.controller.abort();
    await rejectsWith(running, 'cancelled');
    // As if that run had died instead: the prediction still runs on Replicate until a later run collects it.
    fake.setTaskScenario('rfake1', { kind: 'success', processingPolls: 1 });
    const cancelsBefore = fake.cancels().length;
    expect(fake.predictions()).toEqual(['rfake1']);

    const later = recordingContext();
    const out = await provider.resume!(first.remotes[0]!, request({ seed: 5 }), cfg, later);
    expect(same(out.images[0]!.data)).toBe(true);
    expect(out.seed).toBe(5);
    expect(fake.submits()).toHaveLength(1);
    expect(fake.cancels()).toHaveLength(cancelsBefore);
    expect(later.accepted).toBe(0);
    expect(later.traces.map((t) => t.kind)).toContain('resume');
    expect(later.progress.some((p) => p.stage === 'generating' && p.steps === 28)).toBe(true);
  });

  it('ends a prediction Replicate no longer knows with that reason, marked as gone', async () => {
    const error = await rejectsWith(
      provider.resume!(
        { id: 'rlost', data: { getUrl: `${fake.url}/v1/predictions/rlost` } },
        request(),
        cfg,
        recordingContext(),
      ),
      'provider_error',
    );
    expect(error.message).toContain('no longer knows prediction rlost');
    expect(error.details).toMatchObject({ remoteGone: true, phase: 'after_send' });
    expect(fake.submits()).toHaveLength(0);
  });

  it('ends a prediction whose outputs expired with that reason, marked as gone', async () => {
    fake.setScenario({ kind: 'expired_output' });
    const first = recordingContext();
    await rejectsWith(provider.generate(request(), cfg, first), 'provider_error');
    const error = await rejectsWith(
      provider.resume!(first.remotes[0]!, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.message).toContain('may have expired');
    expect(error.details).toMatchObject({ remoteGone: true });
    expect(fake.submits()).toHaveLength(1);
  });
});

describe('replicate: the token stays with Replicate', () => {
  it('polls a urls.get elsewhere at the configured server instead, and never sends the token to an output host', () => {
    const base = 'https://api.replicate.com';
    expect(mayCarryKey('https://api.replicate.com/v1/predictions/x', base)).toBe(true);
    expect(mayCarryKey('http://127.0.0.1:9/v1/predictions/x', 'http://127.0.0.1:9')).toBe(true);
    expect(mayCarryKey('http://api.replicate.com/v1/predictions/x', base)).toBe(false);
    expect(mayCarryKey('https://replicate.delivery/xezq/out-0.png', base)).toBe(false);
    expect(mayCarryKey('https://evil.example/api.replicate.com', base)).toBe(false);
    expect(mayCarryKey('not a url', base)).toBe(false);
  });

  it('never shows the token in errors, traces or output even when Replicate echoes it', async () => {
    await fake.close();
    fake = await startFakeReplicate({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.url, apiKey: KEY });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createReplicateProvider(TIMING))]) {
      const failures: [Parameters<FakeReplicate['setScenario']>[0], Parameters<typeof rejectsWith>[1]][] = [
        [replicateErrors.rateLimited(), 'provider_rate_limited'],
        [replicateErrors.outOfCredit(), 'provider_rejected'],
        [{ kind: 'failed', error: 'failed' }, 'provider_error'],
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
      seen.push(JSON.stringify(await p.test({ ...cfg, apiKey: `${KEY}x` }, new AbortController().signal)));
    }
    expect(seen.join('\n')).toContain('(token ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

describe('replicate: connection test and presets', () => {
  it('checks the token with GET /v1/account and lists the presets', async () => {
    const ok = await provider.test(cfg, new AbortController().signal);
    expect(ok).toMatchObject({ ok: true, authenticated: true });
    expect(ok.message).toContain('atelier-tester');
    expect(ok.models).toContain('black-forest-labs/flux-schnell');
    expect(fake.requests[0]!.path).toBe('/v1/account');
    const bad = await provider.test({ ...cfg, apiKey: 'wrong-token' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
  });

  it('claims edits only for the presets that take an image, and a batch only where num_outputs exists', () => {
    const caps = (model: string) => provider.capabilities(config({ model }));
    expect(caps('black-forest-labs/flux-kontext-pro').operations.img2img.supported).toBe(true);
    expect(caps('black-forest-labs/flux-dev').operations.img2img.supported).toBe(true);
    expect(caps('ideogram-ai/ideogram-v2').operations.img2img.supported).toBe(false);
    expect(caps('black-forest-labs/flux-schnell').maxCount).toBe(4);
    expect(caps('black-forest-labs/flux-1.1-pro').maxCount).toBe(1);
    expect(caps('recraft-ai/recraft-v3').sizes.fixed).toContainEqual([1365, 1024]);
    expect(provider.isConfigured(config())).toBe(false);
    expect(provider.knownModels(config({ model: 'me/mine' }))).toContain('me/mine');
  });
});
