import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readAtelierChunk } from '../../../electron/media/png/atelier-chunk.js';
import { mayCarryKey } from '../../../electron/providers/bfl/connection.js';
import { createBflProvider } from '../../../electron/providers/bfl/index.js';
import { sniffImage } from '../../../electron/providers/http/image.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeBfl, SAMPLE_PNG, bflErrors, startFakeBfl } from '../../fakes/bfl.js';
import { startHarness, waitForStatus, type Harness } from '../engine/harness.js';
import { config, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const KEY = 'bfl-fake-key-0123456789abcdef';
const provider = createBflProvider({ firstMs: 5, maxMs: 20 });
let fake: FakeBfl;
let cfg: ProviderConfig;

beforeEach(async () => {
  fake = await startFakeBfl({ apiKey: KEY });
  cfg = config({ baseUrl: fake.url, apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

describe('bfl: collecting accepted work again (resume)', () => {
  it('hands the task id and polling URL to onAccepted, and resume collects it without a second submit', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const first = recordingContext();
    const running = provider.generate(request({ seed: 5 }), cfg, first);
    await waitFor(() => fake.polls().length > 0);
    expect(first.remotes).toEqual([
      { id: 'gen_fake1', data: { pollingUrl: `${fake.url}/v1/get_result?id=gen_fake1` } },
    ]);
    first.controller.abort();
    await rejectsWith(running, 'cancelled');

    fake.setTaskScenario('gen_fake1', { kind: 'success', pendingPolls: 0 });
    const later = recordingContext();
    const out = await provider.resume!(first.remotes[0]!, request({ seed: 5 }), cfg, later);
    expect(Buffer.from(out.images[0]!.data).equals(SAMPLE_PNG)).toBe(true);
    expect(out.seed).toBe(5);
    expect(fake.submits()).toHaveLength(1);
    expect(later.accepted).toBe(0);
    expect(later.traces.map((t) => t.kind)).toContain('resume');
  });

  it('ends a task BFL no longer knows with that reason, marked as gone', async () => {
    const error = await rejectsWith(
      provider.resume!(
        { id: 'gen_lost', data: { pollingUrl: `${fake.url}/v1/get_result?id=gen_lost` } },
        request(),
        cfg,
        recordingContext(),
      ),
      'provider_error',
    );
    expect(error.message).toContain('no longer knows this task');
    expect(error.details).toMatchObject({ remoteGone: true });
    expect(fake.submits()).toHaveLength(0);
  });

  it('ends a task whose result link expired with that reason, marked as gone', async () => {
    fake.setScenario({ kind: 'expired_sample' });
    const first = recordingContext();
    await rejectsWith(provider.generate(request(), cfg, first), 'provider_error');
    const error = await rejectsWith(
      provider.resume!(first.remotes[0]!, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(error.message).toContain('may have expired');
    expect(error.details).toMatchObject({ remoteGone: true });
  });
});

describe('bfl: text to image', () => {
  it('submits with x-key, polls the returned polling_url while Pending, and downloads the sample at once', async () => {
    fake.setScenario({ kind: 'success', pendingPolls: 3 });
    const ctx = recordingContext();
    const out = await provider.generate(request({ model: 'flux-2-pro', seed: 77, width: 1024, height: 768 }), cfg, ctx);
    expect(Buffer.from(out.images[0]!.data).equals(SAMPLE_PNG)).toBe(true);
    expect(out.seed).toBe(77);
    const [submit] = fake.submits();
    expect(submit!.path).toBe('/v1/flux-2-pro');
    expect(submit!.headers['x-key']).toBe(KEY);
    expect(submit!.json).toEqual({
      prompt: 'a red fox in snow',
      width: 1024,
      height: 768,
      seed: 77,
      output_format: 'png',
    });
    expect(fake.polls()).toHaveLength(4);
    expect(fake.polls()[0]!.query).toEqual({ id: 'gen_fake1' });
    expect(fake.downloads()[0]!.headers['x-key']).toBeUndefined();
    expect(ctx.progress.filter((p) => p.stage === 'generating')).toHaveLength(3);
    expect(ctx.accepted).toBe(1);
    expect(ctx.traces.find((t) => t.kind === 'accepted')?.data).toEqual({ bflTaskId: 'gen_fake1' });
  });

  it('calls onAccepted only after the submit answered, never for a refused submit', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.polls().length > 0);
    expect(ctx.accepted).toBe(1);
    expect(fake.submits()[0]!.seq).toBeLessThan(fake.polls()[0]!.seq);
    ctx.controller.abort();
    await rejectsWith(running, 'cancelled');
    fake.setScenario(bflErrors.forbidden());
    const refused = recordingContext();
    await rejectsWith(provider.generate(request(), cfg, refused), 'provider_auth');
    expect(refused.accepted).toBe(0);
  });

  it('sends flux-2-flex its steps and guidance, and refuses sizes BFL would reject before sending', async () => {
    await provider.generate(request({ model: 'flux-2-flex', steps: 30, guidance: 4 }), cfg, recordingContext());
    expect(fake.submits()[0]!.json).toMatchObject({ steps: 30, guidance: 4 });
    await rejectsWith(provider.generate(request({ width: 1000 }), cfg, recordingContext()), 'invalid_request');
    expect(fake.submits()).toHaveLength(1);
  });
});

describe('bfl: polling', () => {
  it('waits as long as a 429 poll’s Retry-After says, then keeps polling the same task', async () => {
    fake.setScenario({ kind: 'success', pendingPolls: 0, pollRetryAfter: '0.2' });
    const out = await provider.generate(request(), cfg, recordingContext());
    expect(Buffer.from(out.images[0]!.data).equals(SAMPLE_PNG)).toBe(true);
    const [limited, ready] = fake.polls();
    expect(ready!.at - limited!.at).toBeGreaterThanOrEqual(190);
    expect(fake.submits()).toHaveLength(1);
  });

  it('sends the key only to a polling URL on BFL (https) or on the configured server', () => {
    const base = 'https://api.bfl.ai';
    expect(mayCarryKey('https://api.eu.bfl.ai/v1/get_result?id=1', base)).toBe(true);
    expect(mayCarryKey('https://api.bfl.ai/v1/get_result?id=1', base)).toBe(true);
    expect(mayCarryKey('http://127.0.0.1:9/v1/get_result?id=1', 'http://127.0.0.1:9')).toBe(true);
    expect(mayCarryKey('http://api.eu.bfl.ai/v1/get_result?id=1', base)).toBe(false);
    expect(mayCarryKey('https://evil.example/bfl.ai', base)).toBe(false);
    expect(mayCarryKey('https://notbfl.ai/x', base)).toBe(false);
    expect(mayCarryKey('not a url', base)).toBe(false);
  });

  it('keeps at most 24 tasks in flight by default, as BFL allows', () => {
    const entry = defaultProviders().find((e) => e.provider.id === 'bfl');
    expect(entry?.defaults.enabled).toBe(true);
    expect(entry?.defaults.concurrency).toBeLessThanOrEqual(24);
    expect(entry?.maxConcurrency).toBe(24);
    expect(entry?.provider.isConfigured(config())).toBe(false);
  });
});

describe('bfl: edits', () => {
  it('sends the library image as base64 input_image beside the prompt', async () => {
    const ctx = recordingContext();
    const image = sourcePng(8, 8);
    ctx.inputs = { image };
    await provider.generate(request({ inputImage: { imageId: 'img-1' } }), cfg, ctx);
    const sent = fake.submits()[0]!.json as { input_image: string };
    expect(Buffer.from(sent.input_image, 'base64').equals(Buffer.from(image.data))).toBe(true);
  });
});

describe('bfl: failures', () => {
  it('names moderation, an error, a lost task and an expired sample link, all after acceptance', async () => {
    const cases: [Parameters<FakeBfl['setScenario']>[0], RegExp][] = [
      [{ kind: 'terminal', status: 'Request Moderated' }, /moderation blocked the prompt or input image/],
      [{ kind: 'terminal', status: 'Content Moderated' }, /moderation blocked the generated image/],
      [
        { kind: 'terminal', status: 'Error', error: 'GPU fell over' },
        /could not make the image \(Error\): "GPU fell over"/,
      ],
      [{ kind: 'terminal', status: 'Task not found' }, /no longer knows this task/],
      [{ kind: 'expired_sample' }, /download link answered HTTP 403.*expired/],
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

  it('says 402 is out of credits and never retries it; 429 is retryable after Retry-After; 403 is a bad key', async () => {
    fake.setScenario(bflErrors.outOfCredits());
    const credits = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rejected');
    expect(credits.message).toMatch(/out of credits/);
    expect(credits.retryable).toBe(false);
    fake.setScenario(bflErrors.rateLimited(7));
    const limited = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(limited.retryable).toBe(true);
    expect(limited.details?.retryAfterMs).toBe(7000);
    fake.setScenario(bflErrors.forbidden());
    await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_auth');
    expect(fake.polls()).toHaveLength(0);
  });

  it('cancel stops polling and says in the trace that BFL has no cancel endpoint', async () => {
    fake.setScenario({ kind: 'pending_forever' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.polls().length >= 2);
    ctx.controller.abort();
    await rejectsWith(running, 'cancelled');
    // The poll loop and its waits run inside generate() and end on the signal: settled, it polls no more (a wait
    // that ignored the signal would keep a pending_forever task polling and this test would time out).
    expect(fake.polls().length).toBeGreaterThanOrEqual(2);
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /no cancel endpoint/.test(t.message))).toBe(true);
  });
});

describe('bfl: the key stays secret', () => {
  it('never shows the key in errors, traces or output even when the server echoes it', async () => {
    await fake.close();
    fake = await startFakeBfl({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.url, apiKey: KEY });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createBflProvider({ firstMs: 5, maxMs: 20 }))]) {
      const failures: [Parameters<FakeBfl['setScenario']>[0], Parameters<typeof rejectsWith>[1]][] = [
        [bflErrors.rateLimited(), 'provider_rate_limited'],
        [{ kind: 'terminal', status: 'Error', error: 'failed' }, 'provider_error'],
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
      seen.push(JSON.stringify(await p.generate(request(), cfg, ctx)), JSON.stringify(ctx.traces));
      seen.push(JSON.stringify(await p.test(cfg, new AbortController().signal)));
    }
    expect(seen.join('\n')).toContain('(key ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

describe('bfl: connection test', () => {
  it('accepts a good key (a lost task answers) and says when the key is bad', async () => {
    expect(await provider.test(cfg, new AbortController().signal)).toMatchObject({ ok: true, authenticated: true });
    expect(fake.requests[0]!.headers['x-key']).toBe(KEY);
    const bad = await provider.test({ ...cfg, apiKey: 'wrong-key-123' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
  });
});

describe('bfl through the engine', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('runs a job submitted to bfl and stores its PNG with the settings embedded', async () => {
    fake.setScenario({ kind: 'success', pendingPolls: 1 });
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { bfl: { apiKey: KEY, baseUrl: fake.url } } });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'bfl',
      model: 'flux-2-pro',
      prompt: 'a lighthouse at dusk',
      width: 1024,
      height: 768,
      count: 1,
    });
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done.status).toBe('succeeded');
    const png = readFileSync(h.engine.resolveMedia('image', done.images[0]!.id)!.path);
    expect(sniffImage(png)).toMatchObject({ width: 24, height: 16 });
    expect(readAtelierChunk(png)).toMatchObject({
      provider: 'bfl',
      model: 'flux-2-pro',
      request: { prompt: 'a lighthouse at dusk' },
    });
    expect(JSON.stringify(done)).not.toContain(KEY);
  });
});
