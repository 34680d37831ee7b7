import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultWorkflow } from '../../electron/providers/comfyui/index.js';
import type { SourceImage } from '../../electron/providers/types.js';
import { recordingContext, rejectsWith, request } from '../integration/providers/helpers.js';
import { KIT_CHECKPOINTS, KIT_UPSCALER } from './contract/graphs.js';
import { call } from './contract/wire.js';
import { cfgFor, comfy, provider, serverHistory, serverQueue } from './helpers.js';

/** Atelier's ComfyUI provider against a real ComfyUI (the kit's, previews on): every case at 64×64, 2 steps. */
const IMAGE_ID = '0190a6e2-0000-7000-8000-000000000001';
const small = (overrides: Parameters<typeof request>[0] = {}) =>
  request({ width: 64, height: 64, steps: 2, ...overrides });
const graphOf = (change: (g: ReturnType<typeof defaultWorkflow>) => void) => {
  const g = defaultWorkflow();
  change(g);
  return JSON.stringify(g);
};

/** A 72×56 source with structure (a gradient), so a changed pixel shows. */
async function source(): Promise<SourceImage> {
  const pixels = Buffer.alloc(72 * 56 * 3);
  for (let i = 0; i < 72 * 56; i += 1) pixels.set([(i % 72) * 3, Math.floor(i / 72) * 4, 90], i * 3);
  return {
    data: await sharp(pixels, { raw: { width: 72, height: 56, channels: 3 } })
      .png()
      .toBuffer(),
    mime: 'image/png',
    width: 72,
    height: 56,
  };
}

describe('discovery', () => {
  it('Test connection lists the checkpoints and the upscale model, and gives no preview hint (previews are on)', async () => {
    const listed = await provider.test(cfgFor(comfy().url), new AbortController().signal);
    expect(listed).toMatchObject({
      ok: true,
      models: KIT_CHECKPOINTS,
      upscalers: [KIT_UPSCALER],
      message: 'Connected to ComfyUI 0.3.64: 2 checkpoints, 1 upscale model.',
    });
    expect(listed.hint).toBeUndefined();
  });
});

describe('text to image', () => {
  it('shows every step and the previews, scaled to the 64×64 output', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(small({ seed: 101 }), cfgFor(comfy().url), ctx);
    expect(ctx.progress.filter((p) => p.stage === 'sampling').map((p) => `${p.step}/${p.steps}`)).toEqual([
      '1/2',
      '2/2',
    ]);
    expect(ctx.partials.length).toBeGreaterThan(0);
    for (const preview of ctx.partials) expect(preview).toMatchObject({ mime: 'image/jpeg', width: 64, height: 64 });
    expect(out.images.map((i) => [i.mime, i.width, i.height])).toEqual([['image/png', 64, 64]]);
    expect(out.seed).toBe(101);
    expect(ctx.traces.some((t) => t.kind === 'hint' || t.kind === 'warning')).toBe(false);
  });

  it('a batch of two: one seed, batch positions 0 and 1', async () => {
    const out = await provider.generate(
      small({ seed: 102, count: 2, prompt: 'two owls' }),
      cfgFor(comfy().url),
      recordingContext(),
    );
    expect(out.images.map((i) => [i.seed, i.batchIndex, i.width])).toEqual([
      [102, 0, 64],
      [102, 1, 64],
    ]);
  });

  it('the same job again is a cached re-run, recognised and said', async () => {
    const first = await provider.generate(
      small({ seed: 103, prompt: 'a cached lighthouse' }),
      cfgFor(comfy().url),
      recordingContext(),
    );
    const ctx = recordingContext();
    const again = await provider.generate(
      small({ seed: 103, prompt: 'a cached lighthouse' }),
      cfgFor(comfy().url),
      ctx,
    );
    expect(again.info).toMatchObject({ cached: true, files: first.info!.files });
    expect(ctx.progress.some((p) => p.stage === 'sampling')).toBe(false);
    expect(ctx.traces.find((t) => t.kind === 'cached')?.message).toMatch(
      /^ComfyUI ran nothing: every node was cached from an earlier run of the same graph, so these are that run's files \(Atelier_\d{5}_\.png\)\.$/,
    );
  });

  it('two jobs at once on one server: each sees its own progress and its own image', async () => {
    const [a, b] = [recordingContext(), recordingContext()];
    const [outA, outB] = await Promise.all([
      provider.generate(small({ seed: 104, steps: 3, prompt: 'job a' }), cfgFor(comfy().url), a),
      provider.generate(small({ seed: 105, steps: 3, prompt: 'job b' }), cfgFor(comfy().url), b),
    ]);
    for (const ctx of [a, b])
      expect(ctx.progress.filter((p) => p.stage === 'sampling').map((p) => p.step)).toEqual([1, 2, 3]);
    expect([outA.images.length, outB.images.length]).toEqual([1, 1]);
    expect(outA.info!.files).not.toEqual(outB.info!.files);
  });

  it('a person’s own workflow with {{…}} placeholders', async () => {
    const workflow = graphOf((g) => {
      g['6']!.inputs.text = 'masterpiece, {{prompt}}';
      g['9']!.inputs.filename_prefix = 'Mine';
    });
    const out = await provider.generate(small({ seed: 106 }), cfgFor(comfy().url, { workflow }), recordingContext());
    expect(out.info!.files).toEqual([expect.stringMatching(/^Mine_\d{5}_\.png$/)]);
    expect(out.images[0]).toMatchObject({ width: 64, height: 64, seed: 106 });
  });
});

describe('from an image', () => {
  it('image to image: the upload is byte-identical to the source, the result its size', async () => {
    const image = await source();
    const ctx = Object.assign(recordingContext(), { inputs: { image } });
    const out = await provider.generate(
      request({ width: 72, height: 56, steps: 2, seed: 107, inputImage: { imageId: IMAGE_ID, strength: 0.5 } }),
      cfgFor(comfy().url),
      ctx,
    );
    const name = String(ctx.traces.find((t) => t.kind === 'upload')!.data!.name);
    expect(readFileSync(join(comfy().dir, 'in', name)).equals(Buffer.from(image.data))).toBe(true);
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[72, 56]]);
  });

  it('a masked edit with a batch of two: the unmasked half is unchanged in both', async () => {
    const image = await source();
    const raw = Buffer.alloc(72 * 56);
    for (let i = 0; i < raw.length; i += 1) raw[i] = i % 72 < 36 ? 255 : 0;
    const mask = {
      data: await sharp(raw, { raw: { width: 72, height: 56, channels: 1 } })
        .png()
        .toBuffer(),
      mime: 'image/png',
      width: 72,
      height: 56,
    };
    const ctx = Object.assign(recordingContext(), { inputs: { image, mask } });
    const out = await provider.generate(
      request({
        width: 72,
        height: 56,
        steps: 2,
        seed: 108,
        count: 2,
        inputImage: { imageId: IMAGE_ID, strength: 1 },
        mask: { imageId: IMAGE_ID },
      }),
      cfgFor(comfy().url),
      ctx,
    );
    expect(out.images).toHaveLength(2);
    const before = await sharp(image.data).removeAlpha().raw().toBuffer();
    for (const result of out.images) {
      const after = await sharp(result.data).removeAlpha().raw().toBuffer();
      let kept = 0;
      let changed = 0;
      for (let p = 0; p < 72 * 56; p += 1) {
        const differs = [0, 1, 2].some((c) => Math.abs(after[p * 3 + c]! - before[p * 3 + c]!) > 1);
        if (p % 72 >= 36) kept += differs ? 0 : 1;
        else changed += differs ? 1 : 0;
      }
      expect(kept).toBe(36 * 56);
      expect(changed).toBeGreaterThan(0);
    }
  });

  it('upscale ×2 with the upscale model (chosen by its name), its progress shown as upscaling', async () => {
    const ctx = Object.assign(recordingContext(), { inputs: { image: await source() } });
    const out = await provider.generate(
      request({ width: 72, height: 56, upscale: { imageId: IMAGE_ID, factor: 2 } }),
      cfgFor(comfy().url),
      ctx,
    );
    expect(out.images.map((i) => [i.width, i.height])).toEqual([[144, 112]]);
    expect(out.info?.upscaler).toBe(KIT_UPSCALER);
    expect(ctx.progress.filter((p) => p.step !== undefined).map((p) => p.stage)).toEqual(['upscaling']);
  });
});

describe('every validation error reaches the person with the server’s explanation', () => {
  const said = (text: string) => `ComfyUI rejected the workflow. ComfyUI said: "${text}"`;
  it.each([
    [
      'a range error',
      graphOf((g) => (g['5']!.inputs.width = 4)),
      said('Prompt outputs failed validation — node 5 (EmptyLatentImage): width: Value 4 smaller than min of 16'),
    ],
    [
      'a value from a short list',
      graphOf((g) => (g['3']!.inputs.scheduler = 'nope')),
      said(
        "Prompt outputs failed validation — node 3 (KSampler): scheduler: Value not in list: 'nope' not in ['simple', 'sgm_uniform', 'karras', 'exponential', 'ddim_uniform', 'beta', 'normal', 'linear_quadratic', 'kl_optimal']",
      ),
    ],
    [
      'a value from a long list',
      graphOf((g) => (g['3']!.inputs.sampler_name = 'nope')),
      said(
        "Prompt outputs failed validation — node 3 (KSampler): sampler_name: Value not in list: 'nope' not in (list of length 42)",
      ),
    ],
    [
      'an unknown node class',
      graphOf((g) => (g['9']!.class_type = 'NoSuchNode')),
      said("Cannot execute because node NoSuchNode does not exist (Node ID '#9')"),
    ],
    [
      'a graph with no output',
      graphOf((g) => delete g['9']),
      said('Prompt has no outputs: the workflow needs an output node such as SaveImage'),
    ],
    [
      'a link to a missing node',
      graphOf((g) => (g['3']!.inputs.model = ['99', 0])),
      said(
        "Prompt outputs failed validation — node 3 (KSampler): Exception when validating inner node: '99' (a link names node 99, which is not in the workflow)",
      ),
    ],
  ])('%s', async (_label, workflow, message) => {
    const error = await rejectsWith(
      provider.generate(small(), cfgFor(comfy().url, { workflow }), recordingContext()),
      'provider_rejected',
    );
    expect(error.message).toBe(message);
  });
});

describe('a workflow with one invalid output branch (HTTP 200 with node_errors)', () => {
  const branches = (saveFrom: string) =>
    graphOf((g) => {
      g['9']!.inputs.images = [saveFrom, 0];
      g['10'] = { class_type: 'LoadImage', inputs: { image: 'not-there.png' } };
      g['11'] = { class_type: 'SaveImage', inputs: { filename_prefix: 'Other', images: ['10', 0] } };
      g['12'] = { class_type: 'PreviewImage', inputs: { images: ['8', 0] } };
    });

  it('the valid branch runs and the dropped one is said on the job', async () => {
    const ctx = recordingContext();
    const out = await provider.generate(small({ seed: 109 }), cfgFor(comfy().url, { workflow: branches('8') }), ctx);
    expect(out.images).toHaveLength(1);
    expect(ctx.traces.find((t) => t.kind === 'warning')?.message).toBe(
      'ComfyUI ran the workflow without output node 11, which failed validation: node 10 (LoadImage): image: Custom validation failed for node: Invalid image file: not-there.png',
    );
  });

  it('the job fails when the branch Atelier reads from was dropped, and the prompt is off the server', async () => {
    const ctx = recordingContext();
    const error = await rejectsWith(
      provider.generate(small({ seed: 110 }), cfgFor(comfy().url, { workflow: branches('10') }), ctx),
      'provider_rejected',
    );
    expect(error.message).toMatch(
      /^ComfyUI dropped the part of the workflow Atelier reads images from \(output nodes 9, 11\) because it failed validation: node 10 \(LoadImage\): image: Custom validation failed for node: Invalid image file: not-there\.png$/,
    );
    const promptId = String(ctx.traces.find((t) => t.kind === 'request')!.data!.promptId);
    const queue = await serverQueue(comfy().url);
    expect([...queue.running, ...queue.pending]).not.toContain(promptId);
  });
});

describe('an unknown sampler or scheduler', () => {
  it('is refused before anything is sent: no upload, no prompt', async () => {
    const inputs = () => readdirSync(join(comfy().dir, 'in')).sort();
    const before = {
      files: inputs(),
      history: Object.keys((await call(comfy().url, 'GET', '/history')).json as object).length,
    };
    for (const [what, overrides] of [
      ['sampler', { sampler: 'dpmpp_9m' }],
      ['scheduler', { scheduler: 'fancy' }],
    ] as const) {
      const ctx = Object.assign(recordingContext(), { inputs: { image: await source() } });
      const error = await rejectsWith(
        provider.generate(
          request({ width: 72, height: 56, inputImage: { imageId: IMAGE_ID }, ...overrides }),
          cfgFor(comfy().url),
          ctx,
        ),
        'invalid_request',
      );
      expect(error.message).toMatch(
        new RegExp(`^This ComfyUI server has no ${what} ".+"\\. It has: .+\\. Nothing was sent\\.$`),
      );
    }
    expect({
      files: inputs(),
      history: Object.keys((await call(comfy().url, 'GET', '/history')).json as object).length,
    }).toEqual(before);
  });

  it('every sampler Atelier offers is one the server has', async () => {
    const caps = provider.capabilities(cfgFor(comfy().url));
    const info = (await call(comfy().url, 'GET', '/object_info/KSampler')).json as {
      KSampler: { input: { required: { sampler_name: [string[]] } } };
    };
    expect(caps.samplers!.filter((s) => !info.KSampler.input.required.sampler_name[0].includes(s))).toEqual([]);
  });
});

describe('the server’s own record afterwards', () => {
  it('a finished prompt is in its history as a success', async () => {
    const ctx = recordingContext();
    await provider.generate(small({ seed: 111, prompt: 'a history check' }), cfgFor(comfy().url), ctx);
    const promptId = String(ctx.traces.find((t) => t.kind === 'request')!.data!.promptId);
    expect((await serverHistory(comfy().url, promptId))?.status.status_str).toBe('success');
  });
});
