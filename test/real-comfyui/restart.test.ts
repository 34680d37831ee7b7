import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PREVIEWS_HINT } from '../../electron/providers/comfyui/preview-hint.js';
import { recordingContext, rejectsWith, request, sourcePng, waitFor } from '../integration/providers/helpers.js';
import { type RealComfy, startComfy } from './kit.js';
import { cfgFor, provider } from './helpers.js';

/**
 * A second real server, started without previews (ComfyUI's default) and without upscale models, which is then
 * killed mid-job and started again: progress without previews, the Settings hint, Lanczos upscaling, a clear error
 * for the lost job, and a working next job.
 */
let server: RealComfy;

beforeAll(async () => {
  server = await startComfy({ previews: false, upscaleModels: false });
});
afterAll(async () => {
  await server?.stop();
});

describe('a server started without previews', () => {
  it('still shows progress; the job and Test connection say how to get previews', async () => {
    const listed = await provider.test(cfgFor(server.url), new AbortController().signal);
    expect(listed).toMatchObject({ ok: true, hint: NO_PREVIEWS_HINT });
    const ctx = recordingContext();
    const out = await provider.generate(
      request({ width: 64, height: 64, steps: 2, seed: 301 }),
      cfgFor(server.url),
      ctx,
    );
    expect(out.images).toHaveLength(1);
    expect(ctx.progress.filter((p) => p.stage === 'sampling').map((p) => p.step)).toEqual([1, 2]);
    expect(ctx.partials).toHaveLength(0);
    expect(ctx.traces.find((t) => t.kind === 'hint')?.message).toBe(NO_PREVIEWS_HINT);
  });
});

describe('a server without upscale models', () => {
  it('upscales ×2 with Lanczos', async () => {
    const listed = await provider.test(cfgFor(server.url), new AbortController().signal);
    expect(listed.upscalers).toEqual([]);
    const ctx = Object.assign(recordingContext(), { inputs: { image: sourcePng(72, 56) } });
    const out = await provider.generate(
      request({ width: 72, height: 56, upscale: { imageId: '0190a6e2-0000-7000-8000-000000000001', factor: 2 } }),
      cfgFor(server.url),
      ctx,
    );
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[144, 112]]);
    expect(out.info?.upscaler).toBe('lanczos');
  });
});

describe('a server killed mid-job', () => {
  it('fails the job with a clear error, and the next job after its restart succeeds', async () => {
    const ctx = recordingContext();
    const pending = provider.generate(
      request({ width: 256, height: 256, steps: 20, seed: 302 }),
      cfgFor(server.url),
      ctx,
    );
    await waitFor(() => ctx.progress.some((p) => p.stage === 'sampling'), 120_000);
    server.kill();
    const error = await rejectsWith(pending, 'provider_error');
    expect(error.message).toBe(
      'The connection to ComfyUI dropped while ComfyUI was running the prompt (the WebSocket closed). ComfyUI may still have run the request, so Atelier does not re-send it automatically.',
    );
    expect(error.retryable).toBe(false);
    await server.restart();
    const out = await provider.generate(
      request({ width: 64, height: 64, steps: 2, seed: 303 }),
      cfgFor(server.url),
      recordingContext(),
    );
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[64, 64]]);
  });
});
