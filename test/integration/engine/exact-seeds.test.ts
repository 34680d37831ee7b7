import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import { parseChannelInput } from '../../../shared/validate.js';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { readPngMetadata } from '../../../electron/media/png/read-metadata.js';
import { startFakeA1111, startFakeComfyUI, type FakeA1111, type FakeComfy } from '../../fakes/index.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

/** 2^64-1 and its neighbours: past 2^53 a JS number would round every one of them to 18446744073709551616. */
const TOP = '18446744073709551615';

describe('64-bit seeds are kept, shown and sent exactly', () => {
  let h: Harness | undefined;
  let comfy: FakeComfy | undefined;
  let a1111: FakeA1111 | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await comfy?.close();
    await a1111?.close();
    h = comfy = a1111 = undefined;
  });

  /** What a host does with a person's submit: the channel's contract first, then the handler. */
  async function submit(raw: unknown) {
    return h!.engine.handlers['jobs.submit'](parseChannelInput('jobs.submit', raw));
  }

  async function run(raw: unknown): Promise<JobDetail> {
    const { job } = await submit(raw);
    const done = await waitForStatus(h!.engine, job.id, ['succeeded', 'failed']);
    expect(done.errorDetail ?? null).toBeNull();
    return done;
  }

  /** The image's pixels (each file's own metadata differs: job id, time). */
  async function pixelsOf(job: JobDetail, index: number): Promise<string> {
    const file = h!.engine.resolveMedia('image', job.images[index]!.id);
    return createHash('sha256')
      .update(await sharp(file!.path).raw().toBuffer())
      .digest('hex');
  }

  it('ComfyUI receives every digit of a 20-digit seed, and the job, its images, its PNG and a restart keep them', async () => {
    comfy = await startFakeComfyUI();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: comfy.url, model: 'v1-5-pruned-emaonly.safetensors' } },
    });
    const done = await run({
      provider: 'comfyui',
      prompt: 'a harbour at dusk',
      width: 64,
      height: 64,
      count: 2,
      seed: TOP,
      steps: 2,
    });

    const [sent] = comfy.promptRequests();
    // The raw request text, not a parsed copy: JSON.parse would round the number and hide a wrong digit.
    expect(sent!.body).toMatch(/"seed":18446744073709551615[,}]/);
    expect(sent!.body).not.toContain('"seed":"');

    const seeds = (job: JobDetail) => ({
      request: job.request.seed,
      result: job.result?.seed,
      images: job.images.map((i) => [i.seed, i.batchIndex]),
    });
    const expected = {
      request: TOP,
      result: TOP,
      images: [
        [TOP, 0],
        [TOP, 1],
      ],
    };
    expect(seeds(done)).toEqual(expected);
    const listed = (await h.engine.handlers['jobs.list']({ limit: 10, view: 'active' })).items.find(
      (j) => j.id === done.id,
    )!;
    expect(listed.images.map((i) => i.seed)).toEqual([TOP, TOP]);
    const file = h.engine.resolveMedia('image', done.images[1]!.id);
    const meta = readPngMetadata(readFileSync(file!.path));
    expect(meta.atelier?.seed).toBe(TOP);
    expect(meta.atelier?.request.seed).toBe(TOP);
    expect(meta.a1111?.params['Seed']).toBe(TOP);

    await h.engine.close({ graceMs: 0 });
    await h.open();
    expect(seeds(await h.engine.handlers['jobs.get']({ id: done.id }))).toEqual(expected);
  });

  it('a ComfyUI workflow of the person’s own keeps a 64-bit number written into it, digit for digit', async () => {
    comfy = await startFakeComfyUI();
    h = await startHarness({ providers: defaultProviders() });
    // Its own seed, no {{seed}}: ComfyUI's "Save (API Format)" writes a 64-bit seed as a bare JSON number.
    const workflow = `{
      "3": {"class_type": "KSampler", "inputs": {"seed": 18446744073709551557, "steps": 2, "cfg": 7, "sampler_name": "euler", "scheduler": "normal",
            "denoise": 1, "model": ["4", 0], "positive": ["6", 0], "negative": ["6", 0], "latent_image": ["5", 0]}},
      "4": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "v1-5-pruned-emaonly.safetensors"}},
      "5": {"class_type": "EmptyLatentImage", "inputs": {"width": 64, "height": 64, "batch_size": 1}},
      "6": {"class_type": "CLIPTextEncode", "inputs": {"text": "{{prompt}}", "clip": ["4", 1]}},
      "8": {"class_type": "VAEDecode", "inputs": {"samples": ["3", 0], "vae": ["4", 2]}},
      "9": {"class_type": "SaveImage", "inputs": {"filename_prefix": "Atelier", "images": ["8", 0]}}
    }`;
    await h.engine.handlers['settings.update']({
      providers: { comfyui: { enabled: true, baseUrl: comfy.url, workflow } },
    });
    const done = await run({ provider: 'comfyui', prompt: 'a harbour at dawn', width: 64, height: 64, count: 1 });
    expect(comfy.promptRequests()[0]!.body).toContain('"seed":18446744073709551557,');
    // The workflow's own seed is not Atelier's to claim.
    expect(done.images[0]!.seed).toBeUndefined();
  });

  it('"42" and 42 are one request: the same idempotency key finds the same job', async () => {
    h = await startHarness({ providers: defaultProviders() });
    const request = {
      provider: 'builtin',
      prompt: 'one seed, two spellings',
      width: 64,
      height: 64,
      count: 1,
      idempotencyKey: 'seed-spelling',
    };
    const first = await submit({ ...request, seed: '42' });
    const second = await submit({ ...request, seed: 42 });
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, job: { id: first.job.id } });
    expect(first.job.request.seed).toBe(42);
  });

  it('A1111 takes 32-bit seeds: a larger one is refused before anything is sent', async () => {
    a1111 = await startFakeA1111();
    h = await startHarness({ providers: defaultProviders() });
    await h.engine.handlers['settings.update']({ providers: { a1111: { enabled: true, baseUrl: a1111.url } } });
    const request = { provider: 'a1111', prompt: 'a kite', width: 64, height: 64, count: 1, steps: 2 };
    for (const seed of ['4294967296', TOP]) {
      const error = await submit({ ...request, seed }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_request');
      const message = `A1111 seeds go up to 4294967295 (a 32-bit number); ${seed} is larger. Nothing was sent.`;
      expect((error as AppError).message).toBe(message);
      expect((error as AppError).details?.['fields']).toEqual({ seed: message });
    }
    expect(a1111.generationRequests()).toHaveLength(0);
    expect((await h.engine.handlers['jobs.list']({ limit: 10, view: 'all' })).items).toHaveLength(0);
    // The largest 32-bit seed still goes through, as a plain number in the body.
    const done = await run({ ...request, seed: 4294967295 });
    expect(done.images[0]!.seed).toBe(4294967295);
    expect(a1111.generationRequests()[0]!.body).toContain('"seed":4294967295');
  });

  it('built-in: a 64-bit seed always gives the same image, and each of its digits counts', async () => {
    h = await startHarness({ providers: defaultProviders() });
    const request = { provider: 'builtin', prompt: 'a lighthouse in fog', width: 64, height: 64, count: 2 };
    const a = await run({ ...request, seed: TOP });
    const again = await run({ ...request, seed: TOP });
    const next = await run({ ...request, seed: '18446744073709551614' });
    // Same low 32 bits as TOP, different high bits: a seed cut to 32 bits would render these alike.
    const high = await run({ ...request, seed: String(BigInt(TOP) - (1n << 40n)) });
    expect(a.images.map((i) => i.seed)).toEqual([TOP, 0]);
    expect(next.images.map((i) => i.seed)).toEqual(['18446744073709551614', TOP]);
    const first = await pixelsOf(a, 0);
    expect(await pixelsOf(again, 0)).toBe(first);
    expect(await pixelsOf(next, 1)).toBe(first);
    expect(await pixelsOf(next, 0)).not.toBe(first);
    expect(await pixelsOf(high, 0)).not.toBe(first);
  });
});
