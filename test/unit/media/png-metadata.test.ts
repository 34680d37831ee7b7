import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import sharp from 'sharp';
import type { GenerateRequest } from '../../../shared/contract.js';
import { readAtelierChunk } from '../../../electron/media/png/atelier-chunk.js';
import { chunkCrcs, readChunks } from '../../../electron/media/png/chunks.js';
import { embedSettings, type ImageSettings } from '../../../electron/media/png/embed-settings.js';
import { readPngMetadata } from '../../../electron/media/png/read-metadata.js';
import { insertChunks, iTXt, makePng, pythonJsonDumps, tEXt, zTXt } from './helpers.js';

const request: GenerateRequest = {
  provider: 'builtin',
  prompt: 'a red fox in snow, "cinematic"',
  negativePrompt: 'blurry',
  width: 32,
  height: 24,
  count: 1,
  seed: 42,
  steps: 20,
  guidance: 7,
  sampler: 'Euler a',
  idempotencyKey: 'key-123',
};

function settings(overrides: Partial<ImageSettings> = {}): ImageSettings {
  return {
    request,
    jobId: '0190a6e2-0000-7000-8000-000000000001',
    index: 0,
    provider: 'builtin',
    model: 'builtin-v1',
    seed: 42,
    width: 32,
    height: 24,
    createdAt: 1_700_000_000_000,
    appVersion: '0.1.0',
    ...overrides,
  };
}

describe('embedding settings in a PNG', () => {
  it('writes parameters and atelier chunks before IDAT with correct CRCs, and the PNG still decodes', async () => {
    const png = await makePng();
    const out = embedSettings(png, settings());
    const types = readChunks(out).map((c) => c.type);
    expect(types.indexOf('tEXt')).toBeLessThan(types.indexOf('IDAT'));
    for (const c of chunkCrcs(out)) expect(c.stored).toBe(c.computed);
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([32, 24]);
    const raw = await sharp(out).raw().toBuffer();
    expect(raw.equals(await sharp(png).raw().toBuffer())).toBe(true);
  });

  it('writes the A1111 parameters text exactly', async () => {
    const meta = readPngMetadata(embedSettings(await makePng(), settings()));
    const parameters = meta.texts.find((t) => t.keyword === 'parameters');
    expect(parameters?.chunk).toBe('tEXt');
    expect(parameters?.text).toBe(
      'a red fox in snow, "cinematic"\nNegative prompt: blurry\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 42, Size: 32x24, Model: builtin-v1, Provider: builtin, Version: Atelier 0.1.0',
    );
    expect(meta.a1111).toMatchObject({
      prompt: request.prompt,
      negativePrompt: 'blurry',
      seed: 42,
      steps: 20,
      cfgScale: 7,
    });
  });

  it("writes Atelier's chunk with the full request minus the idempotency key", async () => {
    const meta = readPngMetadata(embedSettings(await makePng(), settings({ revisedPrompt: 'a fox' })));
    expect(meta.source).toBe('atelier');
    const { idempotencyKey: _key, ...withoutKey } = request;
    expect(meta.atelier?.request).toEqual(withoutKey);
    expect(meta.atelier).toMatchObject({
      jobId: settings().jobId,
      provider: 'builtin',
      seed: 42,
      version: '0.1.0',
      revisedPrompt: 'a fox',
    });
    expect(meta.texts.map((t) => t.text).join('')).not.toContain('key-123');
    expect(meta.settings).toMatchObject({
      prompt: request.prompt,
      seed: 42,
      steps: 20,
      guidance: 7,
      width: 32,
      height: 24,
      model: 'builtin-v1',
    });
  });

  it('switches to iTXt for text that is not Latin-1 (like PIL)', async () => {
    const prompt = '夕焼けの猫 🐈 — café';
    const meta = readPngMetadata(embedSettings(await makePng(), settings({ request: { ...request, prompt } })));
    expect(meta.texts.find((t) => t.keyword === 'parameters')?.chunk).toBe('iTXt');
    expect(meta.a1111?.prompt).toBe(prompt);
    expect(meta.atelier?.request.prompt).toBe(prompt);
  });

  it("keeps a provider's own parameters chunk and replaces an old atelier chunk", async () => {
    const a1111Png = insertChunks(await makePng(), [
      tEXt('parameters', 'cat\nSteps: 30, Sampler: Euler, CFG scale: 5, Seed: 9, Size: 32x24, Model hash: abc'),
      tEXt('atelier', '{"stale":true}'),
    ]);
    const out = embedSettings(a1111Png, settings());
    const meta = readPngMetadata(out);
    expect(meta.texts.filter((t) => t.keyword === 'parameters')).toHaveLength(1);
    expect(meta.a1111?.params['Model hash']).toBe('abc');
    expect(meta.texts.filter((t) => t.keyword === 'atelier')).toHaveLength(1);
    expect(meta.atelier?.jobId).toBe(settings().jobId);
  });

  it('round-trips any prompt through the atelier chunk (newlines, non-Latin-1, commas, quotes)', async () => {
    const png = await makePng(8, 8);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
        fc.option(fc.string({ unit: 'binary', maxLength: 100 }), { nil: undefined }),
        (prompt, negativePrompt) => {
          const req: GenerateRequest = {
            ...request,
            prompt,
            ...(negativePrompt === undefined ? {} : { negativePrompt }),
          };
          if (negativePrompt === undefined) delete req.negativePrompt;
          const meta = readPngMetadata(embedSettings(png, settings({ request: req })));
          expect(meta.atelier?.request.prompt).toBe(prompt);
          expect(meta.atelier?.request.negativePrompt).toBe(negativePrompt);
          for (const c of chunkCrcs(embedSettings(png, settings({ request: req })))) expect(c.stored).toBe(c.computed);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('round-trips prompts through A1111 parameters when A1111 can represent them', async () => {
    const png = await makePng(8, 8);
    const prompt = fc
      .array(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ' ').trim()),
        { minLength: 1, maxLength: 3 },
      )
      .map((lines) => lines.join('\n'))
      .filter((p) => p.trim() !== '' && p === p.trim() && !/(^|\n)Negative prompt:/.test(p));
    fc.assert(
      fc.property(prompt, (p) => {
        const meta = readPngMetadata(embedSettings(png, settings({ request: { ...request, prompt: p } })));
        expect(meta.a1111?.prompt).toBe(p);
        expect(meta.a1111?.negativePrompt).toBe('blurry');
      }),
      { numRuns: 200 },
    );
  });
});

describe('reading metadata other tools write', () => {
  it('reads tEXt, zTXt and compressed/uncompressed iTXt, before IDAT or after it', async () => {
    const png = insertChunks(
      insertChunks(await makePng(), [tEXt('a', 'latin-1 é'), zTXt('b', 'zipped text')]),
      [iTXt('c', 'ünïcødé 猫', true, 'ja', 'タイトル'), iTXt('d', 'plain ✓', false)],
      'IEND',
    );
    const texts = readPngMetadata(png).texts;
    expect(texts).toEqual([
      { keyword: 'a', text: 'latin-1 é', chunk: 'tEXt' },
      { keyword: 'b', text: 'zipped text', chunk: 'zTXt' },
      { keyword: 'c', text: 'ünïcødé 猫', chunk: 'iTXt' },
      { keyword: 'd', text: 'plain ✓', chunk: 'iTXt' },
    ]);
    expect(readPngMetadata(png).source).toBeNull();
  });

  it('reads an A1111 parameters chunk written as iTXt after IDAT', async () => {
    const png = insertChunks(
      await makePng(),
      [
        iTXt(
          'parameters',
          '猫\nNegative prompt: 犬\nSteps: 20, Sampler: Euler a, CFG scale: 7, Seed: 1, Size: 512x512, Model: sd15',
          false,
        ),
      ],
      'IEND',
    );
    const meta = readPngMetadata(png);
    expect(meta.source).toBe('a1111');
    expect(meta.settings).toEqual({
      prompt: '猫',
      negativePrompt: '犬',
      steps: 20,
      sampler: 'Euler a',
      guidance: 7,
      seed: 1,
      width: 512,
      height: 512,
      model: 'sd15',
    });
  });

  it('reads ComfyUI prompt and workflow chunks (ASCII-escaped JSON in tEXt)', async () => {
    const graph = {
      '3': {
        class_type: 'KSampler',
        inputs: {
          seed: 156680208700286,
          steps: 20,
          cfg: 8,
          sampler_name: 'euler',
          scheduler: 'normal',
          denoise: 1,
          model: ['4', 0],
          positive: ['6', 0],
          negative: ['7', 0],
          latent_image: ['5', 0],
        },
      },
      '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' } },
      '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 768, batch_size: 1 } },
      '6': { class_type: 'CLIPTextEncode', inputs: { text: 'beautiful scenery, 夕焼け', clip: ['4', 1] } },
      '7': { class_type: 'CLIPTextEncode', inputs: { text: 'text, watermark', clip: ['4', 1] } },
      '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'ComfyUI', images: ['8', 0] } },
    };
    const workflow = { last_node_id: 9, nodes: [{ id: 3, type: 'KSampler' }] };
    const promptText = pythonJsonDumps(graph);
    expect(/^[\x20-\x7e]*$/.test(promptText)).toBe(true);
    const png = insertChunks(await makePng(), [
      tEXt('prompt', promptText),
      tEXt('workflow', pythonJsonDumps(workflow)),
    ]);
    const meta = readPngMetadata(png);
    expect(meta.source).toBe('comfyui');
    expect(meta.comfyui?.workflow).toEqual(workflow);
    expect(meta.settings).toEqual({
      prompt: 'beautiful scenery, 夕焼け',
      negativePrompt: 'text, watermark',
      seed: 156680208700286,
      steps: 20,
      guidance: 8,
      sampler: 'euler',
      width: 512,
      height: 768,
      model: 'v1-5-pruned-emaonly.safetensors',
    });
  });

  it('reads InvokeAI invokeai_metadata (v3+)', async () => {
    const meta = {
      generation_mode: 'txt2img',
      positive_prompt: 'a castle',
      negative_prompt: 'fog',
      width: 768,
      height: 512,
      seed: 7,
      cfg_scale: 6.5,
      steps: 30,
      scheduler: 'dpmpp_2m',
      model: { key: 'k', hash: 'h', name: 'juggernaut', base: 'sdxl', type: 'main' },
      app_version: '5.0.0',
    };
    const png = insertChunks(await makePng(), [
      tEXt('invokeai_metadata', JSON.stringify(meta)),
      tEXt('invokeai_graph', '{}'),
    ]);
    const read = readPngMetadata(png);
    expect(read.source).toBe('invokeai');
    expect(read.settings).toEqual({
      prompt: 'a castle',
      negativePrompt: 'fog',
      seed: 7,
      steps: 30,
      guidance: 6.5,
      sampler: 'dpmpp_2m',
      width: 768,
      height: 512,
      model: 'juggernaut',
    });
  });

  it('reads legacy InvokeAI sd-metadata and Dream strings', async () => {
    const sd = {
      model: 'stable diffusion',
      model_weights: 'stable-diffusion-1.5',
      app_id: 'invoke-ai/InvokeAI',
      app_version: '2.3.5',
      image: {
        prompt: [{ prompt: 'a lighthouse [fog, rain]', weight: 1 }],
        steps: 50,
        cfg_scale: 7.5,
        height: 512,
        width: 640,
        seed: 12345,
        type: 'txt2img',
        sampler: 'k_lms',
      },
    };
    const legacy = readPngMetadata(insertChunks(await makePng(), [tEXt('sd-metadata', JSON.stringify(sd))]));
    expect(legacy.invokeai?.format).toBe('sd-metadata');
    expect(legacy.settings).toEqual({
      prompt: 'a lighthouse',
      negativePrompt: 'fog, rain',
      seed: 12345,
      steps: 50,
      guidance: 7.5,
      sampler: 'k_lms',
      width: 640,
      height: 512,
      model: 'stable-diffusion-1.5',
    });

    const dream = readPngMetadata(
      insertChunks(await makePng(), [
        tEXt('Dream', '"a lighthouse [fog]" -s 50 -S 12345 -W 512 -H 576 -C 7.5 -A k_lms'),
      ]),
    );
    expect(dream.invokeai?.format).toBe('Dream');
    expect(dream.settings).toEqual({
      prompt: 'a lighthouse',
      negativePrompt: 'fog',
      seed: 12345,
      steps: 50,
      guidance: 7.5,
      sampler: 'k_lms',
      width: 512,
      height: 576,
    });
  });

  it('ignores malformed chunks and a foreign atelier keyword without failing', async () => {
    const png = insertChunks(await makePng(), [
      { type: 'zTXt', data: Uint8Array.from([0x62, 0, 0, 1, 2, 3]) },
      tEXt('atelier', 'not json'),
      tEXt('prompt', '{broken'),
    ]);
    const meta = readPngMetadata(png);
    expect(meta.atelier).toBeUndefined();
    expect(meta.comfyui?.graph).toBeUndefined();
    expect(meta.texts.map((t) => t.keyword)).toEqual(['atelier', 'prompt']);
  });

  it('rejects bytes that are not a PNG', () => {
    expect(() => readPngMetadata(Uint8Array.of(1, 2, 3))).toThrow(/Not a PNG/);
  });
});

describe('reading only the atelier record', () => {
  it('finds the record readPngMetadata finds (the last one), leaving every other text undecoded', async () => {
    const png = embedSettings(await makePng(), settings());
    expect(readAtelierChunk(png)).toEqual(readPngMetadata(png).atelier);
    // A zTXt that would not inflate is never touched, and a later record wins as in readPngMetadata.
    const second = JSON.stringify({ ...readPngMetadata(png).atelier, jobId: '0190a6e2-0000-7000-8000-000000000002' });
    const noisy = insertChunks(
      png,
      [{ type: 'zTXt', data: Uint8Array.from([...Buffer.from('parameters\0\0'), 1, 2, 3]) }, tEXt('atelier', second)],
      'IEND',
    );
    expect(readAtelierChunk(noisy)).toEqual(readPngMetadata(noisy).atelier);
    expect(readAtelierChunk(noisy)?.jobId).toBe('0190a6e2-0000-7000-8000-000000000002');
    expect(readAtelierChunk(await makePng())).toBeUndefined();
  });
});
