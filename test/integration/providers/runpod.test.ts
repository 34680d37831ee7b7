import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAtelierChunk } from '../../../electron/media/png/atelier-chunk.js';
import { sniffImage } from '../../../electron/providers/http/image.js';
import { endpointOf, mayCarryKey } from '../../../electron/providers/runpod/connection.js';
import { createRunPodProvider } from '../../../electron/providers/runpod/index.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeRunPod, type RunPodScenario, runpodErrors, startFakeRunPod } from '../../fakes/runpod.js';
import { type Harness, startHarness, waitForStatus } from '../engine/harness.js';
import { config, grayMask, recordingContext, rejectsWith, request, sourcePng, visible, waitFor } from './helpers.js';

const KEY = 'rpa_FAKEKEY0123456789abcdef';
const MODEL = 'sd_xl_base_1.0.safetensors';
const provider = createRunPodProvider({ firstMs: 5, maxMs: 20 });
let fake: FakeRunPod;
let cfg: ProviderConfig;

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
interface RunBody {
  input: { workflow: Graph; images?: { name: string; image: string }[] };
  policy?: { executionTimeout?: number };
}

function sentBody(index = 0): RunBody {
  return fake.submits()[index]!.json as RunBody;
}

/** The config without one setting (a field left unset, as settings hold it). */
function without(c: ProviderConfig, key: 'baseUrl' | 'model' | 'apiKey'): ProviderConfig {
  const copy = { ...c };
  delete copy[key];
  return copy;
}

function node(graph: Graph, type: string): Record<string, unknown> {
  return Object.values(graph).find((n) => n.class_type === type)!.inputs;
}

beforeEach(async () => {
  fake = await startFakeRunPod({ apiKey: KEY });
  cfg = config({ baseUrl: fake.endpoint, apiKey: KEY, model: MODEL });
});
afterEach(async () => {
  await fake.close();
});

describe('runpod: text to image', () => {
  it('sends Atelier’s ComfyUI graph to /run with the key, polls /status until COMPLETED and decodes the images', async () => {
    fake.setScenario({ kind: 'success', queuedPolls: 2, runningPolls: 2 });
    const ctx = recordingContext();
    const out = await provider.generate(request({ seed: 77, width: 64, height: 48, steps: 12 }), cfg, ctx);
    expect(out.images).toHaveLength(1);
    expect(out.images[0]).toMatchObject({ mime: 'image/png', width: 64, height: 48, seed: 77 });
    expect(out.seed).toBe(77);
    const [submit] = fake.submits();
    expect(submit!.method).toBe('POST');
    expect(submit!.path).toBe('/v2/ep-fake/run');
    expect(submit!.headers.authorization).toBe(`Bearer ${KEY}`);
    const { input, policy } = sentBody();
    expect(node(input.workflow, 'KSampler')).toMatchObject({ seed: 77, steps: 12 });
    expect(node(input.workflow, 'CheckpointLoaderSimple')).toEqual({ ckpt_name: MODEL });
    expect(node(input.workflow, 'CLIPTextEncode').text).toBe('a red fox in snow');
    expect(node(input.workflow, 'EmptyLatentImage')).toEqual({ width: 64, height: 48, batch_size: 1 });
    expect(input.images).toBeUndefined();
    expect(policy?.executionTimeout).toBe(10_000);
    expect(fake.polls()).toHaveLength(5);
    expect(fake.polls()[0]!.path).toBe('/v2/ep-fake/status/job-1-u1');
    expect(fake.polls().every((p) => p.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(out.info).toMatchObject({ runpodJobId: 'job-1-u1', files: ['ComfyUI_00001_.png'], executionTimeMs: 4567 });
    expect(ctx.accepted).toBe(1);
  });

  it('reports IN_QUEUE as queued and IN_PROGRESS as generating, with the time a worker took to pick the job up', async () => {
    fake.setScenario({ kind: 'success', queuedPolls: 2, runningPolls: 3 });
    const ctx = recordingContext();
    await provider.generate(request({ width: 64, height: 64 }), cfg, ctx);
    const stages = ctx.progress.map((p) => p.stage);
    expect(stages.filter((s) => s === 'queued').length).toBeGreaterThanOrEqual(2);
    expect(stages.filter((s) => s === 'generating')).toHaveLength(3);
    expect(stages.indexOf('generating')).toBeGreaterThan(stages.lastIndexOf('queued'));
    expect(stages.slice(-2)).toEqual(['downloading', 'done']);
    const started = ctx.traces.find((t) => t.kind === 'started');
    expect(started?.message).toMatch(/after 1\.2 s in the queue/);
    expect(ctx.traces.filter((t) => t.kind === 'queued')).toHaveLength(1);
  });

  it('makes a batch in one job: every image carries the seed and its place in the batch', async () => {
    const out = await provider.generate(request({ seed: 5, count: 3, width: 32, height: 32 }), cfg, recordingContext());
    expect(node(sentBody().input.workflow, 'EmptyLatentImage').batch_size).toBe(3);
    expect(out.images.map((i) => [i.seed, i.batchIndex])).toEqual([
      [5, 0],
      [5, 1],
      [5, 2],
    ]);
  });

  it('fills a person’s workflow from settings, placeholders and all', async () => {
    const workflow = JSON.stringify({
      '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'flux1-dev-fp8.safetensors' } },
      '2': { class_type: 'CLIPTextEncode', inputs: { text: 'cinematic, {{prompt}}', clip: ['1', 1] } },
      '3': { class_type: 'EmptyLatentImage', inputs: { width: '{{width}}', height: '{{height}}', batch_size: 1 } },
      '4': { class_type: 'KSampler', inputs: { seed: '{{seed}}', model: ['1', 0], latent_image: ['3', 0] } },
      '9': { class_type: 'SaveImage', inputs: { images: ['4', 0], filename_prefix: 'x' } },
    });
    const out = await provider.generate(
      request({ seed: 9, width: 40, height: 24 }),
      { ...without(cfg, 'model'), workflow },
      recordingContext(),
    );
    const graph = sentBody().input.workflow;
    expect(graph['2']!.inputs.text).toBe('cinematic, a red fox in snow');
    expect(graph['3']!.inputs).toMatchObject({ width: 40, height: 24 });
    expect(graph['4']!.inputs.seed).toBe(9);
    expect(out.images[0]).toMatchObject({ width: 40, height: 24 });
  });

  it('downloads S3 links without the key, reads the worker’s pre-5.0 output.message, and traces output.errors', async () => {
    fake.setScenario({ kind: 'success', output: 's3', warnings: ['Error uploading x.png to S3: slow bucket'] });
    const ctx = recordingContext();
    const fromS3 = await provider.generate(request({ width: 16, height: 16 }), cfg, ctx);
    expect(fromS3.images[0]).toMatchObject({ width: 16, height: 16 });
    expect(fake.downloads()).toHaveLength(1);
    expect(fake.downloads()[0]!.headers.authorization).toBeUndefined();
    expect(ctx.traces.some((t) => t.kind === 'warning' && /slow bucket/.test(t.message))).toBe(true);

    fake.setScenario({ kind: 'success', output: 'legacy' });
    const legacy = await provider.generate(request({ width: 24, height: 16 }), cfg, recordingContext());
    expect(legacy.images[0]).toMatchObject({ width: 24, height: 16 });
  });

  it('refuses before sending: no endpoint address, no checkpoint, an upscale, a size ComfyUI cannot make', async () => {
    const p = provider;
    const noAddress = await rejectsWith(
      p.generate(request(), without(cfg, 'baseUrl'), recordingContext()),
      'invalid_request',
    );
    expect(noAddress.message).toMatch(/api\.runpod\.ai\/v2\/<endpoint-id>/);
    expect(endpointOf({ ...cfg, baseUrl: 'https://api.runpod.ai/v2/abc123/run' })).toEqual({
      base: 'https://api.runpod.ai/v2/abc123',
      id: 'abc123',
    });
    expect(() => p.validate(request(), { ...cfg, baseUrl: 'https://api.runpod.ai/v2/a/b' })).toThrow(
      /must name the endpoint/,
    );
    expect(() => p.validate(request(), { ...cfg, baseUrl: 'https://api.runpod.ai/v2' })).toThrow(
      /must name the endpoint/,
    );
    const noModel = await rejectsWith(
      p.generate(request(), without(cfg, 'model'), recordingContext()),
      'invalid_request',
    );
    expect(noModel.message).toMatch(/checkpoint your RunPod worker has/);
    expect(() => p.validate(request({ upscale: { imageId: 'i', factor: 2 } }), cfg)).toThrow(/cannot upscale/);
    await rejectsWith(p.generate(request({ width: 1001 }), cfg, recordingContext()), 'invalid_request');
    expect(() => p.validate(request({ count: 5 }), cfg)).toThrow(/at most 4 images/);
    expect(p.capabilities(cfg).maxCount).toBe(4);
    await rejectsWith(p.generate(request(), without(cfg, 'apiKey'), recordingContext()), 'provider_auth');
    expect(fake.requests).toHaveLength(0);
    expect(p.isConfigured(cfg)).toBe(true);
    expect(p.isConfigured(without(cfg, 'apiKey'))).toBe(false);
    expect(p.isConfigured(without(cfg, 'baseUrl'))).toBe(false);
  });
});

describe('runpod: capabilities', () => {
  it('claims ComfyUI’s edits by the workflow’s placeholders, and no upscale or previews', () => {
    const caps = provider.capabilities(cfg);
    expect(caps.operations.img2img.supported).toBe(true);
    expect(caps.operations.inpaint.supported).toBe(true);
    expect(caps.operations.upscale).toMatchObject({ supported: false });
    expect(caps.maxPartialImages).toBe(0);
    const textOnly = JSON.stringify({
      '1': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}' } },
      '9': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
    });
    const custom = provider.capabilities({ ...cfg, workflow: textOnly });
    expect(custom.operations.img2img).toMatchObject({ supported: false });
    expect(custom.operations.img2img.reason).toMatch(/no \{\{input_image\}\} placeholder/);
    expect(provider.requiresModel!(cfg)).toBe(true);
    expect(provider.requiresModel!({ ...cfg, workflow: textOnly })).toBe(false);
    expect(provider.knownModels(cfg)).toEqual([MODEL]);
  });
});

describe('runpod: edits', () => {
  it('sends the source as a named data URI in input.images, the name the graph’s LoadImage uses', async () => {
    const ctx = recordingContext();
    const image = sourcePng(48, 32);
    ctx.inputs = { image };
    const out = await provider.generate(request({ inputImage: { imageId: 'img-1', strength: 0.4 } }), cfg, ctx);
    const { input } = sentBody();
    expect(input.images).toHaveLength(1);
    const [sent] = input.images!;
    expect(sent!.name).toMatch(/^atelier-image-[0-9a-f]{24}\.png$/);
    expect(sent!.image.startsWith('data:image/png;base64,')).toBe(true);
    expect(Buffer.from(sent!.image.split(',')[1]!, 'base64').equals(Buffer.from(image.data))).toBe(true);
    expect(node(input.workflow, 'LoadImage').image).toBe(sent!.name);
    expect(node(input.workflow, 'KSampler').denoise).toBe(0.4);
    expect(out.images[0]).toMatchObject({ width: 48, height: 32 });
  });

  it('refuses images whose size the source cannot give (a worker answering for another graph)', async () => {
    fake.setScenario({ kind: 'success', size: { width: 64, height: 64 } });
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(48, 32) };
    const error = await rejectsWith(
      provider.generate(request({ inputImage: { imageId: 'img-1' } }), cfg, ctx),
      'provider_error',
    );
    expect(error.message).toMatch(/a 64×64 image where 48×32 was expected/);
  });

  it('sends image and mask for a masked edit, each under the name its loader uses', async () => {
    const ctx = recordingContext();
    ctx.inputs = { image: sourcePng(32, 32), mask: await grayMask(32, 32, (x) => x < 16) };
    await provider.generate(request({ inputImage: { imageId: 'img-1' }, mask: { imageId: 'mask-1' } }), cfg, ctx);
    const { input } = sentBody();
    const names = input.images!.map((i) => i.name);
    expect(names).toHaveLength(2);
    expect(names[1]).toMatch(/^atelier-mask-/);
    expect(node(input.workflow, 'LoadImage').image).toBe(names[0]);
    expect(node(input.workflow, 'LoadImageMask').image).toBe(names[1]);
  });

  it('refuses a job over /run’s 10 MB before sending it', async () => {
    const ctx = recordingContext();
    const big = sourcePng(8, 8);
    ctx.inputs = { image: { ...big, data: new Uint8Array(8 * 1024 * 1024) } };
    const error = await rejectsWith(
      provider.generate(request({ inputImage: { imageId: 'i' } }), cfg, ctx),
      'invalid_request',
    );
    expect(error.message).toMatch(/more than the 10 MB/);
    expect(fake.submits()).toHaveLength(0);
  });
});

describe('runpod: cancel and timeout', () => {
  it('cancel POSTs /cancel/<id> with the key so the endpoint stops billing, and says so in the trace', async () => {
    fake.setScenario({ kind: 'held' });
    const ctx = recordingContext();
    const running = provider.generate(request(), cfg, ctx);
    await waitFor(() => fake.polls().length >= 2);
    ctx.controller.abort();
    const error = await rejectsWith(running, 'cancelled');
    expect(error.details?.phase).toBe('after_send');
    expect(fake.cancels()).toHaveLength(1);
    expect(fake.cancels()[0]!.path).toBe('/v2/ep-fake/cancel/job-1-u1');
    expect(fake.cancels()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.job('job-1-u1')!.cancelled).toBe(true);
    expect(ctx.traces.some((t) => t.kind === 'cancel' && /it confirmed/.test(t.message))).toBe(true);
  });

  it('a cancel that comes before the job left sends nothing and says nothing was sent', async () => {
    const ctx = recordingContext();
    ctx.controller.abort();
    const error = await rejectsWith(provider.generate(request(), cfg, ctx), 'cancelled');
    expect(error.details?.phase).toBe('before_accept');
    expect(fake.requests).toHaveLength(0);
    expect(ctx.accepted).toBe(0);
  });

  it('a job that outlasts its timeout is cancelled on RunPod too and ends as a timeout', async () => {
    fake.setScenario({ kind: 'held' });
    const ctx = recordingContext();
    const error = await rejectsWith(provider.generate(request({ timeoutMs: 300 }), cfg, ctx), 'timeout');
    expect(error.message).toMatch(/may still have run it/);
    expect(fake.cancels()).toHaveLength(1);
  });
});

describe('runpod: failures', () => {
  it('names a bad key, an unknown endpoint, a full queue (Retry-After kept) and RunPod’s own 5xx', async () => {
    const bad = recordingContext();
    const auth = await rejectsWith(provider.generate(request(), { ...cfg, apiKey: 'wrong' }, bad), 'provider_auth');
    expect(auth.message).toMatch(/did not accept the API key \(HTTP 401\)/);
    expect(bad.accepted).toBe(0);

    const lost = await rejectsWith(
      provider.generate(request(), { ...cfg, baseUrl: `${fake.url}/v2/ep-other` }, recordingContext()),
      'provider_rejected',
    );
    expect(lost.message).toMatch(/has no endpoint "ep-other" \(HTTP 404\)/);
    expect(lost.retryable).toBe(false);

    fake.setScenario(runpodErrors.rateLimited(7));
    const limited = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_rate_limited');
    expect(limited.retryable).toBe(true);
    expect(limited.details).toMatchObject({ retryAfterMs: 7000, phase: 'before_accept' });

    fake.setScenario(runpodErrors.serverError());
    const broken = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(broken.message).toMatch(/HTTP 500/);
    expect(fake.polls()).toHaveLength(0);
  });

  it('says in words why an accepted job ended without images, never retried', async () => {
    const cases: [RunPodScenario, RegExp][] = [
      [
        {
          kind: 'failed',
          error: 'Workflow validation failed:\n• Node 4 (errors): ckpt_name: Value not in list',
          details: ['Available checkpoint models: other.safetensors'],
        },
        /worker could not run the workflow: "Workflow validation failed: Node 4 \(errors\): ckpt_name: Value not in list — Available checkpoint models: other\.safetensors"/,
      ],
      [
        { kind: 'handler_exception', message: 'CUDA out of memory' },
        /could not run the workflow: "CUDA out of memory"/,
      ],
      [{ kind: 'timed_out' }, /ran past the execution timeout \(TIMED_OUT\)/],
      [{ kind: 'success', output: 'no_images' }, /sent back no images \(does the workflow end in a SaveImage/],
    ];
    for (const [scenario, words] of cases) {
      fake.setScenario(scenario);
      const ctx = recordingContext();
      const error = await rejectsWith(
        provider.generate(request({ width: 64, height: 64 }), cfg, ctx),
        'provider_error',
      );
      expect(error.message).toMatch(words);
      expect(error.retryable).toBe(false);
      expect(error.details?.phase).toBe('after_send');
      expect(ctx.accepted).toBe(1);
    }
  });

  it('passes on ComfyUI’s own validation words when the worker has no file a LoadImage names', async () => {
    const workflow = JSON.stringify({
      '1': { class_type: 'LoadImage', inputs: { image: 'on-my-pc.png' } },
      '2': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}' } },
      '9': { class_type: 'SaveImage', inputs: { images: ['1', 0] } },
    });
    const error = await rejectsWith(
      provider.generate(request(), { ...cfg, workflow }, recordingContext()),
      'provider_error',
    );
    expect(error.message).toMatch(/Node 1 \(errors\): Invalid image file: on-my-pc\.png/);
  });

  it('asks again through three failed status calls in a row, and gives up on the fourth without a new /run', async () => {
    fake.setScenario({ kind: 'success', queuedPolls: 0, runningPolls: 0, pollErrors: 3 });
    const ctx = recordingContext();
    const out = await provider.generate(request({ width: 16, height: 16 }), cfg, ctx);
    expect(out.images).toHaveLength(1);
    expect(fake.polls()).toHaveLength(4);
    expect(ctx.traces.filter((t) => t.kind === 'warning' && /asking again/.test(t.message))).toHaveLength(3);

    fake.setScenario({ kind: 'success', pollErrors: 4 });
    const error = await rejectsWith(provider.generate(request(), cfg, recordingContext()), 'provider_error');
    expect(error.message).toMatch(/HTTP 502/);
    expect(error.details).toMatchObject({ phase: 'after_send' });
    expect(fake.submits()).toHaveLength(2);
    expect(fake.polls()).toHaveLength(8);
  });

  it('waits as long as a 429 poll’s Retry-After says, then keeps polling the same job', async () => {
    fake.setScenario({ kind: 'success', queuedPolls: 0, runningPolls: 0, pollRetryAfter: '0.2' });
    await provider.generate(request({ width: 16, height: 16 }), cfg, recordingContext());
    const [limited, done] = fake.polls();
    expect(done!.at - limited!.at).toBeGreaterThanOrEqual(190);
    expect(fake.submits()).toHaveLength(1);
  });
});

describe('runpod: collecting accepted work again (resume)', () => {
  it('hands the job id and endpoint to onAccepted before polling, and resume collects it without a second /run', async () => {
    fake.setScenario({ kind: 'held' });
    // The first run keeps waiting as a run would when Atelier stops mid-job; a later run collects the job.
    const stopped = createRunPodProvider({ firstMs: 60_000, maxMs: 60_000 });
    const first = recordingContext();
    const running = stopped.generate(request({ width: 32, height: 32 }), cfg, first);
    await waitFor(() => fake.polls().length > 0);
    expect(first.remotes).toHaveLength(1);
    const [remote] = first.remotes;
    expect(remote!.id).toBe('job-1-u1');
    expect(remote!.data).toMatchObject({ endpoint: fake.endpoint, usesSeed: 'yes' });
    expect(fake.submits()[0]!.seq).toBeLessThan(fake.polls()[0]!.seq);

    fake.setJobScenario('job-1-u1', { kind: 'success', queuedPolls: 0, runningPolls: 1 });
    const later = recordingContext();
    const out = await provider.resume!(remote!, request({ width: 32, height: 32 }), cfg, later);
    expect(out.images[0]).toMatchObject({ width: 32, height: 32 });
    expect(out.seed).toBe(Number(remote!.data!.seed));
    expect(fake.submits()).toHaveLength(1);
    expect(later.accepted).toBe(0);
    expect(later.traces.map((t) => t.kind)).toContain('resume');
    first.controller.abort();
    await rejectsWith(running, 'cancelled');
  });

  it('ends a job RunPod no longer knows (404, or an answer without a status) with that reason, marked as gone', async () => {
    const unknown = await rejectsWith(
      provider.resume!({ id: 'job-lost', data: { endpoint: fake.endpoint } }, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(unknown.message).toMatch(/no longer knows job job-lost: its result expired/);
    expect(unknown.details).toMatchObject({ remoteGone: true, phase: 'after_send' });

    fake.setScenario({ kind: 'status_missing' });
    const first = recordingContext();
    const missing = await rejectsWith(provider.generate(request(), cfg, first), 'provider_error');
    expect(missing.details).toMatchObject({ remoteGone: true });
    expect(fake.submits()).toHaveLength(1);
  });

  it('ends a job whose result expired after it completed, or whose storage link expired, as gone', async () => {
    fake.setScenario({ kind: 'expires_after_completion' });
    const first = recordingContext();
    await provider.generate(request({ width: 16, height: 16 }), cfg, first);
    const expired = await rejectsWith(
      provider.resume!(first.remotes[0]!, request(), cfg, recordingContext()),
      'provider_error',
    );
    expect(expired.message).toMatch(/RunPod keeps it 30 minutes/);
    expect(expired.details).toMatchObject({ remoteGone: true });

    fake.setScenario({ kind: 's3_expired' });
    const link = await rejectsWith(
      provider.generate(request({ width: 16, height: 16 }), cfg, recordingContext()),
      'provider_error',
    );
    expect(link.message).toMatch(/storage link answered HTTP 403/);
    expect(link.details).toMatchObject({ remoteGone: true });
  });

  it('sends the key to a stored endpoint only when it is the configured one or RunPod’s own over https', async () => {
    const error = await rejectsWith(
      provider.resume!(
        { id: 'job-1-u1', data: { endpoint: 'https://collector.example/v2/ep-fake' } },
        request(),
        cfg,
        recordingContext(),
      ),
      'provider_error',
    );
    expect(error.message).toMatch(/will not send the key there/);
    expect(fake.requests).toHaveLength(0);
    expect(mayCarryKey('https://api.runpod.ai/v2/abc', fake.endpoint)).toBe(true);
    expect(mayCarryKey(`${fake.url}/v2/other`, fake.endpoint)).toBe(true);
    expect(mayCarryKey('http://api.runpod.ai/v2/abc', fake.endpoint)).toBe(false);
    expect(mayCarryKey('https://api.runpod.ai.evil.example/v2/abc', fake.endpoint)).toBe(false);
    expect(mayCarryKey('not a url', fake.endpoint)).toBe(false);
  });
});

describe('runpod: the key stays secret', () => {
  it('never shows the key in errors, traces or output even when RunPod echoes it', async () => {
    await fake.close();
    fake = await startFakeRunPod({ apiKey: KEY, echoKey: true });
    cfg = config({ baseUrl: fake.endpoint, apiKey: KEY, model: MODEL });
    const seen: string[] = [];
    for (const p of [provider, redactingProvider(createRunPodProvider({ firstMs: 5, maxMs: 20 }))]) {
      const failures: RunPodScenario[] = [
        runpodErrors.rateLimited(),
        { kind: 'failed', error: 'boom' },
        { kind: 'handler_exception', message: 'bad token' },
      ];
      for (const scenario of failures) {
        fake.setScenario(scenario);
        const ctx = recordingContext();
        const error = await p.generate(request(), cfg, ctx).catch((e: unknown) => e);
        seen.push(visible(error as never), JSON.stringify(ctx.traces));
      }
      const bad = await rejectsWith(
        p.generate(request(), { ...cfg, apiKey: `${KEY}x` }, recordingContext()),
        'provider_auth',
      );
      seen.push(visible(bad));
      fake.setScenario({ kind: 'success' });
      const ctx = recordingContext();
      seen.push(
        JSON.stringify(await p.generate(request({ width: 16, height: 16 }), cfg, ctx)),
        JSON.stringify(ctx.traces),
      );
      seen.push(JSON.stringify(ctx.remotes));
      seen.push(JSON.stringify(await p.test(cfg, new AbortController().signal)));
    }
    expect(seen.join('\n')).toContain('(key ***)');
    for (const text of seen) expect(text).not.toContain(KEY);
  });
});

describe('runpod: connection test', () => {
  it('checks key and endpoint with /health and says how many workers are up', async () => {
    const ok = await provider.test(cfg, new AbortController().signal);
    expect(ok).toMatchObject({ ok: true, authenticated: true, models: [MODEL] });
    expect(ok.message).toMatch(/endpoint ep-fake: 1 worker idle, 0 running; 0 jobs in queue, 0 in progress/);
    expect(fake.requests[0]!.path).toBe('/v2/ep-fake/health');
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    fake.setIdleWorkers(0);
    const cold = await provider.test(cfg, new AbortController().signal);
    expect(cold.message).toMatch(/0 workers idle, 0 running \(the first job waits while a worker starts\)/);

    const bad = await provider.test({ ...cfg, apiKey: 'wrong' }, new AbortController().signal);
    expect(bad).toMatchObject({ ok: false, reachable: true, authenticated: false });
    const lost = await provider.test({ ...cfg, baseUrl: `${fake.url}/v2/nope` }, new AbortController().signal);
    expect(lost).toMatchObject({ ok: false, reachable: true });
    expect(lost.message).toMatch(/no endpoint "nope"/);
    const unset = await provider.test(without(cfg, 'baseUrl'), new AbortController().signal);
    expect(unset).toMatchObject({ ok: false, reachable: false });
    expect(fake.submits()).toHaveLength(0);
  });
});

describe('runpod through the engine', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('runs a job submitted to runpod and stores its PNG with the settings embedded, the key nowhere; then edits it', async () => {
    fake.setScenario({ kind: 'success', queuedPolls: 1, runningPolls: 1 });
    const runpod = createRunPodProvider({ firstMs: 5, maxMs: 20 });
    h = await startHarness({
      providers: [{ provider: runpod, defaults: { enabled: true, timeoutMs: 60_000, concurrency: 1 } }],
    });
    await h.engine.handlers['settings.update']({
      providers: { runpod: { apiKey: KEY, baseUrl: fake.endpoint, model: MODEL } },
    });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'runpod',
      prompt: 'a lighthouse at dusk',
      width: 96,
      height: 64,
      count: 1,
      seed: 31,
    });
    const done = await waitForStatus(h.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    expect(done.status).toBe('succeeded');
    const png = readFileSync(h.engine.resolveMedia('image', done.images[0]!.id)!.path);
    expect(sniffImage(png)).toMatchObject({ width: 96, height: 64 });
    expect(readAtelierChunk(png)).toMatchObject({ provider: 'runpod', request: { prompt: 'a lighthouse at dusk' } });
    expect(node(sentBody().input.workflow, 'KSampler').seed).toBe(31);
    expect(JSON.stringify(done)).not.toContain(KEY);

    // The stored image, edited: the engine reads it from the library and the worker gets it by name.
    const edit = await h.engine.handlers['jobs.submit']({
      provider: 'runpod',
      prompt: 'the lighthouse at night',
      width: 96,
      height: 64,
      count: 1,
      inputImage: { imageId: done.images[0]!.id, strength: 0.5 },
    });
    const edited = await waitForStatus(h.engine, edit.job.id, ['succeeded', 'failed']);
    expect(edited.errorDetail ?? null).toBeNull();
    expect(edited.status).toBe('succeeded');
    const { input } = sentBody(1);
    expect(Buffer.from(input.images![0]!.image.split(',')[1]!, 'base64').equals(png)).toBe(true);
    expect(node(input.workflow, 'LoadImage').image).toBe(input.images![0]!.name);
  });
});
