import { afterEach, describe, expect, it } from 'vitest';
import { STOPPING_STAGE } from '../../../electron/providers/comfyui/cancel.js';
import { createComfyUIProvider, defaultWorkflow } from '../../../electron/providers/comfyui/index.js';
import { NO_PREVIEWS_HINT } from '../../../electron/providers/comfyui/preview-hint.js';
import { openSocket } from '../../../electron/providers/comfyui/socket.js';
import { Deadline } from '../../../electron/providers/http/deadline.js';
import type { ProviderConfig } from '../../../electron/providers/types.js';
import { type FakeComfy, type FakeComfyOptions, startFakeComfyUI } from '../../fakes/comfyui.js';
import { config, recordingContext, rejectsWith, request, sourcePng, waitFor } from './helpers.js';

/**
 * What the real ComfyUI does that the provider must handle (each shape recorded from a real server and held by the
 * fake through test/integration/providers/comfyui-contract.test.ts); the same cases run against a real ComfyUI in
 * test/real-comfyui/.
 */
let fake: FakeComfy;
let cfg: ProviderConfig;
const provider = createComfyUIProvider({ cancelGraceMs: 200, historyWaitMs: 300 });
const small = (overrides: Parameters<typeof request>[0] = {}) =>
  request({ width: 64, height: 64, steps: 2, ...overrides });

async function start(options: FakeComfyOptions = {}): Promise<void> {
  fake = await startFakeComfyUI(options);
  cfg = config({ baseUrl: fake.url, model: 'v1-5-pruned-emaonly.safetensors' });
}
afterEach(async () => {
  await fake?.close();
});

describe('a validation error keeps the server’s explanation', () => {
  it('a range error names the input and the reason, not the input alone', async () => {
    await start();
    const workflow = JSON.stringify({
      ...defaultWorkflow(),
      '5': { class_type: 'EmptyLatentImage', inputs: { width: 4, height: '{{height}}', batch_size: 1 } },
    });
    const error = await rejectsWith(
      provider.generate(small(), { ...cfg, workflow }, recordingContext()),
      'provider_rejected',
    );
    expect(error.message).toBe(
      'ComfyUI rejected the workflow. ComfyUI said: "Prompt outputs failed validation — node 5 (EmptyLatentImage): width: Value 4 smaller than min of 16"',
    );
  });

  it('an unknown node class reads as one sentence', async () => {
    await start();
    const workflow = JSON.stringify({
      ...defaultWorkflow(),
      '9': { class_type: 'NoSuchNode', inputs: { images: ['8', 0] } },
    });
    const error = await rejectsWith(
      provider.generate(small(), { ...cfg, workflow }, recordingContext()),
      'provider_rejected',
    );
    expect(error.message).toBe(
      'ComfyUI rejected the workflow. ComfyUI said: "Cannot execute because node NoSuchNode does not exist (Node ID \'#9\')"',
    );
  });
});

describe('a 200 with node_errors', () => {
  const branches = (saveFrom: string) =>
    JSON.stringify({
      ...defaultWorkflow(),
      '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'Atelier', images: [saveFrom, 0] } },
      '10': { class_type: 'LoadImage', inputs: { image: 'not-there.png' } },
      '11': { class_type: 'SaveImage', inputs: { filename_prefix: 'Other', images: ['10', 0] } },
      '12': { class_type: 'PreviewImage', inputs: { images: ['8', 0] } },
    });

  it('is said on the job when another output was dropped, and the job keeps its images', async () => {
    await start();
    const ctx = recordingContext();
    const out = await provider.generate(small(), { ...cfg, workflow: branches('8') }, ctx);
    expect(out.images).toHaveLength(1);
    expect(ctx.traces.find((t) => t.kind === 'warning')?.message).toBe(
      'ComfyUI ran the workflow without output node 11, which failed validation: node 10 (LoadImage): image: Custom validation failed for node: Invalid image file: not-there.png',
    );
  });

  it('fails the job, and stops the prompt, when the output Atelier reads from was dropped', async () => {
    await start();
    const ctx = recordingContext();
    const error = await rejectsWith(
      provider.generate(small(), { ...cfg, workflow: branches('10') }, ctx),
      'provider_rejected',
    );
    expect(error.message).toMatch(
      /^ComfyUI dropped the part of the workflow Atelier reads images from \(output nodes 9, 11\) because it failed validation: node 10 \(LoadImage\): image: Custom validation failed/,
    );
    expect(ctx.accepted).toBe(1);
    // Not the PreviewImage branch's temp files passed off as the result.
    expect(fake.requests.filter((r) => r.path === '/view')).toHaveLength(0);
    expect(fake.queueDeleteRequests()).toHaveLength(1);
  });
});

describe('samplers and schedulers are checked against the server’s lists first', () => {
  it.each([
    ['sampler', { sampler: 'dpmpp_9m' }],
    ['scheduler', { scheduler: 'fancy' }],
  ] as const)('an unknown %s is refused before anything is sent, even an upload', async (what, overrides) => {
    await start();
    const ctx = Object.assign(recordingContext(), { inputs: { image: sourcePng(64, 64) } });
    const error = await rejectsWith(
      provider.generate(
        request({
          width: 64,
          height: 64,
          inputImage: { imageId: '0190a6e2-0000-7000-8000-000000000001' },
          ...overrides,
        }),
        cfg,
        ctx,
      ),
      'invalid_request',
    );
    expect(error.message).toMatch(
      new RegExp(
        `^This ComfyUI server has no ${what} "${Object.values(overrides)[0]}"\\. It has: .*\\. Nothing was sent\\.$`,
      ),
    );
    expect(error.message).toContain(
      what === 'sampler' ? 'euler, euler_cfg_pp, euler_ancestral' : 'simple, sgm_uniform, karras',
    );
    expect(error.details).toMatchObject({ field: what, phase: 'before_accept' });
    expect(fake.promptRequests()).toHaveLength(0);
    expect(fake.uploads).toHaveLength(0);
    expect(fake.sockets).toHaveLength(0);
  });

  it('one the server lists goes through', async () => {
    await start();
    const out = await provider.generate(small({ sampler: 'dpmpp_2m', scheduler: 'karras' }), cfg, recordingContext());
    expect(out.images).toHaveLength(1);
  });
});

describe('previews', () => {
  it('a 512×512 JPEG preview of a 64×64 job reaches the job scaled to 64×64', async () => {
    await start({ previews: true });
    const ctx = recordingContext();
    await provider.generate(small(), cfg, ctx);
    expect(ctx.partials).toHaveLength(2);
    for (const preview of ctx.partials) expect(preview).toMatchObject({ mime: 'image/jpeg', width: 64, height: 64 });
    expect(ctx.traces.some((t) => t.kind === 'hint')).toBe(false);
  });

  it('a preview smaller than the output is kept at its own size, and says it', async () => {
    await start({ previews: true });
    const ctx = recordingContext();
    await provider.generate(request({ width: 1024, height: 768, steps: 1 }), cfg, ctx);
    expect(ctx.partials[0]).toMatchObject({ mime: 'image/jpeg', width: 512, height: 384 });
  });

  it('a server that sends none: the job and Test connection both say how to turn them on', async () => {
    await start();
    const ctx = recordingContext();
    await provider.generate(small(), cfg, ctx);
    expect(ctx.progress.filter((p) => p.stage === 'sampling').map((p) => p.step)).toEqual([1, 2]);
    expect(ctx.partials).toHaveLength(0);
    expect(ctx.traces.find((t) => t.kind === 'hint')?.message).toBe(NO_PREVIEWS_HINT);
    expect((await provider.test(cfg, new AbortController().signal)).hint).toBe(NO_PREVIEWS_HINT);
    await fake.close();
    await start({ previews: true });
    expect((await provider.test(cfg, new AbortController().signal)).hint).toBeUndefined();
  });
});

describe('cancel waits for the server to stop', () => {
  it('while a slow step finishes: "stopping after this step", and cancelled only once the server’s queue is empty', async () => {
    // Step 3 on takes 1.5 s before the server looks at the interrupt again, as on a loaded machine.
    await start({ scenario: { kind: 'success', steps: 6, stepMs: 5, slowSteps: { from: 3, ms: 1500 } } });
    const ctx = recordingContext();
    const pending = provider.generate(small(), cfg, ctx);
    await waitFor(() => ctx.progress.some((p) => p.step === 2));
    ctx.controller.abort();
    await waitFor(() => ctx.progress.at(-1)?.stage === STOPPING_STAGE);
    let runningAtEnd: string[] | undefined;
    await rejectsWith(
      pending.finally(() => (runningAtEnd = fake.queue().running)),
      'cancelled',
    );
    expect(runningAtEnd).toEqual([]);
    // Nothing counts steps once stopping was said.
    expect(ctx.progress.slice(ctx.progress.findIndex((p) => p.stage === STOPPING_STAGE) + 1)).toEqual([]);
    expect(ctx.traces.filter((t) => t.kind === 'cancel').at(-1)?.message).toMatch(
      /^ComfyUI stopped prompt .* after \d+\.\d s\.$/,
    );
  });
});

describe('one socket per client id', () => {
  it('a second socket for a client id that is open is refused, so the first keeps its messages', async () => {
    await start();
    const deadline = new Deadline(new AbortController().signal, 5_000);
    const scope = { provider: 'ComfyUI', deadline, secrets: [] };
    const url = `${fake.url.replace(/^http/, 'ws')}/ws?clientId=one-client`;
    const first = await openSocket(url, {}, scope);
    await expect(openSocket(url, {}, scope)).rejects.toMatchObject({ code: 'internal' });
    expect(fake.sockets).toHaveLength(1);
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.close();
    await closed;
    const again = await openSocket(url, {}, scope);
    again.terminate();
    deadline.dispose();
  });
});

describe('a fully cached re-run', () => {
  it('is recognised and said: the earlier run’s files, no steps', async () => {
    await start();
    const first = await provider.generate(small({ seed: 77 }), cfg, recordingContext());
    const ctx = recordingContext();
    const again = await provider.generate(small({ seed: 77 }), cfg, ctx);
    expect(again.info).toMatchObject({ cached: true, files: first.info!.files });
    expect(ctx.progress.some((p) => p.stage === 'sampling')).toBe(false);
    expect(ctx.traces.find((t) => t.kind === 'cached')?.message).toBe(
      `ComfyUI ran nothing: every node was cached from an earlier run of the same graph, so these are that run's files (${(first.info!.files as string[]).join(', ')}).`,
    );
    expect(first.info).not.toHaveProperty('cached');
  });
});

describe('an upscale with a model', () => {
  it('shows the upscale node’s progress as upscaling', async () => {
    await start({ upscaleModels: ['2x-Tiny.safetensors'] });
    const ctx = Object.assign(recordingContext(), { inputs: { image: sourcePng(72, 56) } });
    await provider.generate(
      request({ width: 72, height: 56, upscale: { imageId: '0190a6e2-0000-7000-8000-000000000001', factor: 2 } }),
      cfg,
      ctx,
    );
    expect(ctx.progress.filter((p) => p.step !== undefined)).toEqual([
      { stage: 'upscaling', step: 1, steps: 1, fraction: 1 },
    ]);
  });
});
