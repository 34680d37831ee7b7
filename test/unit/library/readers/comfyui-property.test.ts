import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readComfyui } from '../../../../electron/library/readers/comfyui.js';
import type { LoraRef, ReadSettings } from '../../../../electron/library/readers/types.js';

type Api = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

/** Text the reader keeps as it is: no blanks at the ends (prompts are trimmed), never empty. */
const word = fc.stringMatching(/^[a-z][a-z ,()]{0,20}[a-z]$/);
const fileName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,12}$/).map((name) => `${name}.safetensors`);

const pass = fc.record({
  seed: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  steps: fc.integer({ min: 1, max: 150 }),
  // JSON has no -0: the file says 0 (`+ 0` turns -0 into 0).
  cfg: fc.double({ min: 0, max: 30, noNaN: true }).map((n) => n + 0),
  sampler: fc.constantFrom('euler', 'euler_ancestral', 'dpmpp_2m', 'uni_pc'),
  scheduler: fc.constantFrom('normal', 'karras', 'simple', 'beta'),
  upscale: fc.boolean(),
  seedThroughPrimitive: fc.boolean(),
});

const spec = fc.record({
  model: fileName,
  loras: fc.array(
    fc.record({ name: fileName, weight: fc.double({ min: -2, max: 2, noNaN: true }).map((n) => n + 0) }),
    {
      maxLength: 3,
    },
  ),
  prompt: fc.oneof(
    word.map((text) => ({ parts: [text], delimiter: '' })),
    fc.record({
      parts: fc.tuple(word, word).map((p) => [...p]),
      delimiter: fc.constantFrom(', ', ' ', ' | '),
    }),
  ),
  negative: word,
  width: fc.integer({ min: 8, max: 4096 }).map((n) => n * 8),
  height: fc.integer({ min: 8, max: 4096 }).map((n) => n * 8),
  passes: fc.array(pass, { minLength: 1, maxLength: 4 }),
  modelSwitch: fc.boolean(),
  preview: fc.boolean(),
  /** Node ids: random, so the order they sort in says nothing of the chain. */
  ids: fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 40, maxLength: 40 }),
});

type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

/** The API graph the spec describes: loader → LoRAs → (switch) → samplers chained through upscales → decode → save. */
function build(s: Spec): Api {
  const graph: Api = {};
  let next = 0;
  const add = (class_type: string, inputs: Record<string, unknown>): string => {
    const id = String(s.ids[next++]);
    graph[id] = { class_type, inputs };
    return id;
  };
  const loader = add('CheckpointLoaderSimple', { ckpt_name: s.model });
  let model = loader;
  for (const lora of s.loras) {
    model = add('LoraLoader', {
      lora_name: lora.name,
      strength_model: lora.weight,
      strength_clip: 1,
      model: [model, 0],
    });
  }
  if (s.modelSwitch) {
    const decoy = add('CheckpointLoaderSimple', { ckpt_name: 'decoy.safetensors' });
    model = add('CR Model Input Switch', { Input: 2, model1: [decoy, 0], model2: [model, 0] });
  }
  const parts = s.prompt.parts.map((text) => add('PrimitiveStringMultiline', { value: text }));
  const text =
    parts.length === 1
      ? [parts[0], 0]
      : [
          add('StringConcatenate', { string_a: [parts[0], 0], string_b: [parts[1], 0], delimiter: s.prompt.delimiter }),
          0,
        ];
  const positive = add('CLIPTextEncode', { text, clip: [loader, 1] });
  const negative = add('CLIPTextEncode', { text: s.negative, clip: [loader, 1] });
  let latent = add('EmptyLatentImage', { width: s.width, height: s.height, batch_size: 1 });
  let first: string | undefined;
  for (const p of s.passes) {
    if (first !== undefined && p.upscale) {
      latent = add('LatentUpscaleBy', { upscale_method: 'nearest-exact', scale_by: 1.5, samples: [latent, 0] });
    }
    const seed = p.seedThroughPrimitive ? [add('PrimitiveInt', { value: p.seed }), 0] : p.seed;
    latent = add('KSampler', {
      seed,
      steps: p.steps,
      cfg: p.cfg,
      sampler_name: p.sampler,
      scheduler: p.scheduler,
      denoise: 1,
      model: [model, 0],
      positive: [positive, 0],
      negative: [negative, 0],
      latent_image: [latent, 0],
    });
    first ??= latent;
  }
  if (s.preview) add('PreviewImage', { images: [add('VAEDecode', { samples: [first!, 0], vae: [loader, 2] }), 0] });
  add('SaveImage', { images: [add('VAEDecode', { samples: [latent, 0], vae: [loader, 2] }), 0] });
  return graph;
}

/** What the reader must find: the first pass's settings, everything the chain gave it. */
function expected(s: Spec): ReadSettings {
  const p = s.passes[0]!;
  const loras: LoraRef[] = s.loras.map((l) => ({ name: l.name, weight: l.weight }));
  return {
    seed: p.seed.toString(),
    steps: p.steps,
    guidance: p.cfg,
    sampler: p.sampler,
    scheduler: p.scheduler,
    denoise: 1,
    prompt: s.prompt.parts.join(s.prompt.delimiter),
    negativePrompt: s.negative,
    model: s.model,
    ...(loras.length > 0 ? { loras } : {}),
    width: s.width,
    height: s.height,
  };
}

/** JSON with 64-bit seeds written as the exact digits ComfyUI writes. */
const json = (graph: Api): string =>
  JSON.stringify(graph, (_, value: unknown) => (typeof value === 'bigint' ? `@@${value}@@` : value)).replace(
    /"@@(\d+)@@"/g,
    '$1',
  );

describe('ComfyUI tracer over generated graphs', () => {
  it('reads the first pass exactly, and every later pass in order', () => {
    fc.assert(
      fc.property(spec, (s) => {
        const read = readComfyui(new Map([['prompt', json(build(s))]]));
        expect(read?.settings).toEqual(expected(s));
        expect(read?.passes?.map((p) => p.settings.seed) ?? []).toEqual(
          s.passes.slice(1).map((p) => p.seed.toString()),
        );
        expect(read?.passes?.map((p) => p.role) ?? []).toEqual(
          s.passes.slice(1).map((p) => (p.upscale ? 'hires' : 'sampler')),
        );
        expect(read?.alternatives).toBeUndefined();
        expect(read?.problems).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * Hostile graphs built against each walk: a stall shows as the test's timeout (no time is asserted). Each is a few
 * MB, the size the library reads whole.
 */
describe('ComfyUI tracer on hostile graphs', () => {
  const readApi = (graph: Api) => readComfyui(new Map([['prompt', JSON.stringify(graph)]]));
  const readUi = (workflow: unknown) => readComfyui(new Map([['workflow', JSON.stringify(workflow)]]));

  it('a chain of 30,000 samplers, each the next pass of the one before', () => {
    const graph: Api = { '0': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64 } } };
    for (let i = 1; i <= 30_000; i++) {
      graph[String(i)] = {
        class_type: 'KSampler',
        inputs: {
          seed: i,
          steps: 1,
          positive: ['p', 0],
          negative: ['p', 0],
          model: ['m', 0],
          latent_image: [String(i - 1), 0],
        },
      };
    }
    graph['p'] = { class_type: 'CLIPTextEncode', inputs: { text: 'x' } };
    graph['m'] = { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'm' } };
    graph['s'] = { class_type: 'SaveImage', inputs: { images: ['30000', 0] } };
    const read = readApi(graph);
    expect(read?.passes?.length).toBeLessThanOrEqual(20);
  });

  it('forty string joins that each take the one before twice (2^40 parts unshared)', () => {
    const graph: Api = { '0': { class_type: 'PrimitiveString', inputs: { value: 'ab'.repeat(1000) } } };
    for (let i = 1; i <= 40; i++) {
      graph[String(i)] = {
        class_type: 'StringConcatenate',
        inputs: { string_a: [String(i - 1), 0], string_b: [String(i - 1), 0], delimiter: '' },
      };
    }
    graph['e'] = { class_type: 'CLIPTextEncode', inputs: { text: ['40', 0] } };
    graph['k'] = { class_type: 'KSampler', inputs: { seed: 1, positive: ['e', 0], latent_image: ['l', 0] } };
    graph['l'] = { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64 } };
    const read = readApi(graph);
    expect(read?.settings.prompt?.length ?? 0).toBeLessThanOrEqual(1_000_000);
  });

  it('switches that select each other in a ring, and a string node that reads itself', () => {
    const graph: Api = {
      a: { class_type: 'CR Text Input Switch', inputs: { Input: 1, text1: ['b', 0], text2: 'x' } },
      b: { class_type: 'CR Text Input Switch', inputs: { Input: 1, text1: ['a', 0], text2: 'y' } },
      c: { class_type: 'StringConcatenate', inputs: { string_a: ['c', 0], string_b: ['a', 0] } },
      e: { class_type: 'CLIPTextEncode', inputs: { text: ['c', 0] } },
      k: { class_type: 'KSampler', inputs: { seed: 1, positive: ['e', 0], model: ['a', 0] } },
    };
    expect(readApi(graph)?.settings.seed).toBe('1');
  });

  it('subgraphs nested 40 deep, each holding two of the next (2^40 nodes if expanded whole)', () => {
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const subgraphs = Array.from({ length: 40 }, (_, n) => ({
      id: id(n),
      nodes:
        n === 39
          ? [{ id: 1, type: 'KSampler', widgets_values: [n, 'fixed', 1, 1, 'euler', 'normal', 1] }]
          : [
              { id: 1, type: id(n + 1), inputs: [] },
              { id: 2, type: id(n + 1), inputs: [] },
            ],
      links: [],
    }));
    const workflow = { nodes: [{ id: 1, type: id(0) }], links: [], definitions: { subgraphs } };
    expect(readUi(workflow)?.source).toBe('comfyui');
  });

  it('a 5 MB workflow of reroutes chained end to end, each link a step further from the sampler', () => {
    const count = 60_000;
    const nodes: unknown[] = [{ id: 0, type: 'CheckpointLoaderSimple', widgets_values: ['deep.safetensors'] }];
    const links: unknown[] = [];
    for (let i = 1; i <= count; i++) {
      nodes.push({ id: i, type: 'Reroute', inputs: [{ name: '', type: '*', link: i }] });
      links.push([i, i - 1, 0, i, 0, 'MODEL']);
    }
    nodes.push({
      id: count + 1,
      type: 'KSampler',
      widgets_values: [1, 'fixed', 1, 1, 'euler', 'normal', 1],
      inputs: [{ name: 'model', type: 'MODEL', link: count + 1 }],
    });
    links.push([count + 1, count, 0, count + 1, 0, 'MODEL']);
    const workflow = { nodes, links };
    expect(JSON.stringify(workflow).length).toBeGreaterThan(4_000_000);
    expect(readUi(workflow)?.settings.seed).toBe('1');
  });
});

describe('ComfyUI prompt comments', () => {
  it('takes out block and line comments as the UI does, leaving the rest', async () => {
    const { withoutComments } = await import('../../../../electron/library/readers/comfyui-comments.js');
    expect(withoutComments('a cat, /* not this */ a hat // nor this\nhttp:/x /* open')).toBe(
      'a cat,  a hat \nhttp:/x ',
    );
  });

  it('in one pass over a megabyte of unclosed comment openers', async () => {
    const { withoutComments } = await import('../../../../electron/library/readers/comfyui-comments.js');
    expect(withoutComments(`x${'/* '.repeat(350_000)}`)).toBe('x');
    expect(withoutComments('/a'.repeat(500_000))).toHaveLength(1_000_000);
    expect(withoutComments('/'.repeat(1_000_000))).toBe('');
  });
});

describe('ComfyUI tracer on hostile buses', () => {
  it('context nodes that extend each other in a ring, and a switch among them', () => {
    const graph: Api = {
      a: { class_type: 'Context (rgthree)', inputs: { base_ctx: ['b', 0] } },
      b: { class_type: 'Context (rgthree)', inputs: { base_ctx: ['a', 0] } },
      s: { class_type: 'Context Switch (rgthree)', inputs: { ctx_01: ['a', 0] } },
      k: {
        class_type: 'KSampler',
        inputs: { seed: ['s', 8], model: ['a', 1], positive: ['b', 4], latent_image: ['s', 6] },
      },
      o: { class_type: 'SaveImage', inputs: { images: ['s', 7] } },
    };
    const read = readComfyui(new Map([['prompt', JSON.stringify(graph)]]));
    expect(read?.settings).toEqual({});
  });

  it('a model passed along 200 contexts reaches its loader', () => {
    const graph: Api = { m: { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'far.safetensors' } } };
    graph['c0'] = { class_type: 'Context (rgthree)', inputs: { model: ['m', 0] } };
    for (let i = 1; i < 200; i++)
      graph[`c${i}`] = { class_type: 'Context (rgthree)', inputs: { base_ctx: [`c${i - 1}`, 0] } };
    graph['k'] = { class_type: 'KSampler', inputs: { seed: 1, model: ['c199', 1], latent_image: ['l', 0] } };
    graph['l'] = { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64 } };
    expect(readComfyui(new Map([['prompt', JSON.stringify(graph)]]))?.settings.model).toBe('far.safetensors');
  });
});

describe('ComfyUI group nodes on hostile workflows', () => {
  // Before each inner node paid for its slots (and the slot lookup was a Map), this took past the 20 s limit.
  it('a group of 100,000 open inputs, and three thousand instances of it', () => {
    const inner = Array.from({ length: 100 }, (_, i) => ({
      type: 'KSampler',
      widgets_values: [i, 'fixed', 1, 1, 'euler', 'normal', 1],
      inputs: Array.from({ length: 1_000 }, (_, s) => ({ name: `in_${s}`, type: 'X', link: null })),
    }));
    const nodes = Array.from({ length: 3_000 }, (_, id) => ({ id, type: 'workflow>Big', inputs: [] }));
    const workflow = { nodes, links: [], extra: { groupNodes: { Big: { nodes: inner, links: [], external: [] } } } };
    expect(readComfyui(new Map([['workflow', JSON.stringify(workflow)]]))?.source).toBe('comfyui');
  });
});

describe('ComfyUI subgraphs on hostile workflows', () => {
  // Before a node paid for its slots, this took past the 20 s limit (each instance went through all 100,000).
  it('a subgraph whose one node has 100,000 inputs, used 20,000 times', () => {
    const id = '00000000-0000-4000-8000-00000000abcd';
    const inner = {
      id: 1,
      type: 'KSampler',
      widgets_values: [1, 'fixed', 1, 1, 'euler', 'normal', 1],
      inputs: Array.from({ length: 100_000 }, (_, s) => ({ name: `in_${s}`, type: 'X', link: null })),
    };
    const nodes = Array.from({ length: 20_000 }, (_, n) => ({ id: n, type: id }));
    const workflow = { nodes, links: [], definitions: { subgraphs: [{ id, nodes: [inner], links: [] }] } };
    expect(readComfyui(new Map([['workflow', JSON.stringify(workflow)]]))?.source).toBe('comfyui');
  });
});
