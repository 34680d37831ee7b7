import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { truncation } from '../../../../electron/library/import/truncation.js';
import { readAvifItems } from '../../../../electron/library/readers/avif-items.js';
import { readContainerTexts } from '../../../../electron/library/readers/containers.js';
import { sniffImage } from '../../../../electron/library/readers/sniff.js';
import { readCivitai } from '../../../../electron/library/readers/civitai.js';
import { readComfyui } from '../../../../electron/library/readers/comfyui.js';
import { readDrawthings } from '../../../../electron/library/readers/drawthings.js';
import { readFooocus } from '../../../../electron/library/readers/fooocus.js';
import { readHuggingface } from '../../../../electron/library/readers/huggingface.js';
import { readInvokeai } from '../../../../electron/library/readers/invokeai.js';
import { readMidjourney } from '../../../../electron/library/readers/midjourney.js';
import { readNovelai } from '../../../../electron/library/readers/novelai.js';
import { readRuinedfooocus } from '../../../../electron/library/readers/ruinedfooocus.js';
import { readStabilitymatrix } from '../../../../electron/library/readers/stabilitymatrix.js';
import { readSwarmui } from '../../../../electron/library/readers/swarmui.js';
import { readTensorart } from '../../../../electron/library/readers/tensorart.js';
import type { GeneratorRead, GeneratorReader, ReadSettings } from '../../../../electron/library/readers/types.js';
import { avifWith, baseAvif, box, fullBox } from '../../../fixtures/images/avif.js';
import { buildExif, unicodeComment } from '../../../fixtures/images/tiff-exif.js';

const KEYS = [
  'prompt',
  'workflow',
  'parameters',
  'invokeai_metadata',
  'invokeai_graph',
  'sd-metadata',
  'Dream',
  'fooocus_scheme',
  'exif:UserComment',
  'exif:Make',
  'exif:Model',
  'exif:Software',
  'exif:MakerNote',
  'generation_data',
  'parameters-json',
  'smproj',
  'Software',
  'Comment',
  'Description',
  'Source',
  'xmp',
  'XML:com.adobe.xmp',
  'iptc:Caption',
];
const IDS = ['1', '2', '3', '4', '5', '__proto__', 'constructor'];
const INPUTS = [
  'positive',
  'negative',
  'model',
  'latent_image',
  'samples',
  'conditioning',
  'conditioning_1',
  'conditioning_to',
  'guider',
  'noise',
  'sampler',
  'sigmas',
  'text',
  'text_g',
  't5xxl',
  'seed',
  'noise_seed',
  'steps',
  'cfg',
  'width',
  'height',
  'lora_name',
  'strength_model',
  'ckpt_name',
  'value',
  'guidance',
  'images',
  '__proto__',
];
const CLASSES = [
  'KSampler',
  'SamplerCustomAdvanced',
  'KSamplerSelect',
  'CLIPTextEncode',
  'ConditioningCombine',
  'FluxGuidance',
  'LoraLoader',
  'CheckpointLoaderSimple',
  'EmptyLatentImage',
  'LatentUpscale',
  'SaveImage',
  'BasicGuider',
  'PrimitiveNode',
];

// Random API graphs whose links point anywhere, themselves included: cycles, dangling links, wrong shapes.
const link = fc.tuple(fc.constantFrom(...IDS, '99'), fc.integer({ min: -1, max: 2 }));
const apiGraph = fc.dictionary(
  fc.constantFrom(...IDS),
  fc.record({
    class_type: fc.constantFrom(...CLASSES),
    inputs: fc.dictionary(
      fc.constantFrom(...INPUTS),
      fc.oneof({ arbitrary: link, weight: 4 }, fc.string(), fc.nat(), fc.jsonValue()),
      { maxKeys: 12 },
    ),
  }),
);
const workflow = fc.record({
  nodes: fc.array(
    fc.record({
      id: fc.constantFrom(1, 2, 3, 4),
      type: fc.constantFrom(...CLASSES, 'Reroute'),
      inputs: fc.array(fc.record({ name: fc.constantFrom(...INPUTS, ''), link: fc.integer({ min: 0, max: 5 }) })),
      widgets_values: fc.oneof(fc.array(fc.jsonValue()), fc.jsonValue()),
    }),
  ),
  links: fc.array(
    fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.nat(2), fc.nat(5), fc.nat(3)),
  ),
});
// A real graph (LoRA chain, area prompts, hires pass, primitive seed) with every link rewired at random.
const RICH: Record<string, { class_type: string; inputs: Record<string, unknown> }> = {
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'm.safetensors' } },
  '2': { class_type: 'LoraLoader', inputs: { lora_name: 'l', strength_model: 0.5, model: ['1', 0] } },
  '3': { class_type: 'CLIPTextEncode', inputs: { text: 'a', clip: ['2', 1] } },
  '4': { class_type: 'CLIPTextEncode', inputs: { text: ['9', 0] } },
  '5': { class_type: 'ConditioningSetArea', inputs: { conditioning: ['3', 0] } },
  '6': { class_type: 'ConditioningCombine', inputs: { conditioning_1: ['5', 0], conditioning_2: ['4', 0] } },
  '7': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 512 } },
  '8': {
    class_type: 'KSampler',
    inputs: {
      seed: ['9', 0],
      steps: 20,
      model: ['2', 0],
      positive: ['6', 0],
      negative: ['4', 0],
      latent_image: ['7', 0],
    },
  },
  '9': { class_type: 'PrimitiveNode', inputs: { value: 5 } },
  '10': { class_type: 'LatentUpscale', inputs: { width: 1024, height: 1024, samples: ['8', 0] } },
  '11': {
    class_type: 'KSampler',
    inputs: { seed: 1, model: ['2', 0], positive: ['6', 0], negative: ['4', 0], latent_image: ['10', 0] },
  },
  '12': { class_type: 'SaveImage', inputs: { images: ['11', 0] } },
};
const RICH_LINKS = Object.values(RICH).flatMap((n) => Object.values(n.inputs).filter(Array.isArray)).length;
const rewired = fc
  .array(fc.constantFrom(...Object.keys(RICH), '99'), { minLength: RICH_LINKS, maxLength: RICH_LINKS })
  .map((targets) => {
    let i = 0;
    return JSON.stringify(RICH, (_key, value: unknown) => (Array.isArray(value) ? [targets[i++], value[1]] : value));
  });
const nonFinite = (json: string) => json.replace(/\d+(\.\d+)?/g, (n, _f, at: number) => (at % 3 === 0 ? 'NaN' : n));

const text = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  apiGraph.map((g) => JSON.stringify(g)),
  rewired,
  apiGraph.map((g) => nonFinite(JSON.stringify(g))),
  workflow.map((w) => JSON.stringify(w)),
  apiGraph.map((g) => `prompt:${JSON.stringify(g)}`),
  fc.jsonValue().map((v) => JSON.stringify({ sui_image_params: v, sui_models: v })),
  fc
    .dictionary(fc.constantFrom('sui_image_params', 'prompt', 'image', 'model', 'loras', 'seed'), fc.jsonValue())
    .map((v) => JSON.stringify(v)),
  fc.constantFrom('fooocus', 'a1111', 'Fooocus v2.5.5', '{"prompt":', '"a [b" -S 99999999999999999999 -s x -W'),
);
const texts = fc.dictionary(fc.constantFrom(...KEYS), text).map((entries) => new Map(Object.entries(entries)));

/** JSON objects with a reader's own keys, every value arbitrary: reaches each field's parsing. */
const shaped = (keys: string[]) =>
  fc
    .dictionary(
      fc.constantFrom(...keys),
      fc.oneof(fc.string(), fc.jsonValue(), fc.constantFrom('NaN', '(1152, 896)', '1e400')),
    )
    .map((v) => nonFinite(JSON.stringify(v)));
const FOOOCUS_KEYS = [
  'full_prompt',
  'full_negative_prompt',
  'prompt',
  'negative_prompt',
  'steps',
  'guidance_scale',
  'seed',
  'sampler',
  'scheduler',
  'resolution',
  'base_model',
  'base_model_hash',
  'loras',
  'lora_combined_1',
];
const SWARM_KEYS = [
  'prompt',
  'negativeprompt',
  'model',
  'seed',
  'steps',
  'cfgscale',
  'width',
  'height',
  'sampler',
  'scheduler',
  'loras',
  'loraweights',
  'initimagecreativity',
];
const INVOKE_KEYS = [
  'positive_prompt',
  'negative_prompt',
  'seed',
  'steps',
  'cfg_scale',
  'scheduler',
  'width',
  'height',
  'model',
  'loras',
  'strength',
  'image',
  'model_weights',
  'model_hash',
];
const RUINED_KEYS = ['Prompt', 'Negative', 'steps', 'cfg', 'width', 'height', 'seed', 'sampler_name', 'scheduler'];
const HF_KEYS = ['prompt', 'negative_prompt', 'resolution', 'guidance_scale', 'seed', 'sampler', 'Model', 'strength'];
const TENSOR_KEYS = ['prompt', 'negativePrompt', 'seed', 'steps', 'cfgScale', 'ksamplerName', 'width', 'baseModel'];
const MATRIX_KEYS = ['PositivePrompt', 'NegativePrompt', 'Seed', 'Steps', 'CfgScale', 'Sampler', 'ModelName', 'Width'];
const DRAW_KEYS = ['c', 'uc', 'seed', 'steps', 'scale', 'sampler', 'model', 'size', 'strength', 'lora'];
const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const NOVELAI_KEYS = ['prompt', 'uc', 'seed', 'steps', 'scale', 'sampler', 'width', 'v4_prompt', 'v4_negative_prompt'];
const loraList = fc.array(
  fc.tuple(fc.string(), fc.oneof(fc.string(), fc.constantFrom('1.0 - a', ' - ', '0.5 - b - c'))),
);
const owned: Record<string, fc.Arbitrary<Map<string, string>>> = {
  fooocus: fc.tuple(shaped(FOOOCUS_KEYS), fc.constantFrom('fooocus', 'a1111', 'other'), fc.string()).map(
    ([json, scheme, text]) =>
      new Map([
        ['parameters', scheme === 'a1111' ? text : json],
        ['fooocus_scheme', scheme],
      ]),
  ),
  swarmui: shaped(SWARM_KEYS).map(
    (json) => new Map([['parameters', `{"sui_image_params":${json},"sui_models":${json}}`]]),
  ),
  invokeai: fc
    .tuple(shaped(INVOKE_KEYS), fc.constantFrom('invokeai_metadata', 'sd-metadata', 'Dream'), fc.string())
    .map(
      ([json, key, text]) =>
        new Map([
          [
            key,
            key === 'Dream'
              ? `"${text}" -s ${text} -S ${text} -C ${text}`
              : key === 'sd-metadata'
                ? `{"image":${json}}`
                : json,
          ],
        ]),
    ),
  comfyui: rewired.map((graph) => new Map([['prompt', graph]])),
  ruinedfooocus: fc
    .tuple(
      shaped(RUINED_KEYS),
      fc.oneof(
        loraList.map((l) => JSON.stringify(l)),
        fc.string().map((t) => JSON.stringify(t)),
      ),
    )
    .map(([json, loras]) => new Map([['parameters', `{"software":"RuinedFooocus","loras":${loras},${json.slice(1)}`]])),
  huggingface: shaped(HF_KEYS).map(
    (json) => new Map([['parameters', `{"num_inference_steps":${JSON.stringify(json.length % 7)},${json.slice(1)}`]]),
  ),
  civitai: fc
    .tuple(fc.string(), fc.jsonValue(), fc.string())
    .map(
      ([prompt, list, tail]) =>
        new Map([['exif:UserComment', `${prompt}\nSteps: 1, Civitai resources: ${JSON.stringify(list)}${tail}`]]),
    ),
  tensorart: fc.tuple(shaped(TENSOR_KEYS), rewired).map(
    ([json, graph]) =>
      new Map([
        ['generation_data', `${json}\0`],
        ['prompt', graph],
      ]),
  ),
  stabilitymatrix: fc.tuple(shaped(MATRIX_KEYS), rewired).map(
    ([json, graph]) =>
      new Map([
        ['parameters-json', json],
        ['prompt', graph],
      ]),
  ),
  drawthings: fc
    .tuple(shaped(DRAW_KEYS), fc.constantFrom('xmp', 'XML:com.adobe.xmp'), fc.boolean())
    .map(([json, key, alt]) => {
      const comment = alt ? `<rdf:Alt><rdf:li>${xmlEscape(json)}</rdf:li></rdf:Alt>` : xmlEscape(json);
      return new Map([
        [key, `<xmp:CreatorTool>Draw Things</xmp:CreatorTool><exif:UserComment>${comment}</exif:UserComment>`],
      ]);
    }),
  midjourney: fc
    .tuple(fc.string(), fc.constantFrom('Description', 'exif:ImageDescription', 'iptc:Caption', 'xmp'))
    .map(([text, key]) => {
      const body = `${text} --seed ${text} --niji ${text} Job ID: bb9dd2e0-2352-4506-942b-9ac923610b8d`;
      return new Map([[key, key === 'xmp' ? `<dc:description><rdf:Alt><rdf:li>${body}</rdf:li>` : body]]);
    }),
  novelai: fc
    .tuple(shaped(NOVELAI_KEYS), fc.constantFrom('Software', 'exif:Software'), fc.string())
    .map(([json, where, text]) =>
      where === 'Software'
        ? new Map([
            ['Software', 'NovelAI'],
            ['Comment', json],
            ['Description', text],
          ])
        : new Map([
            ['exif:Software', 'NovelAI Diffusion V4.5'],
            ['exif:UserComment', JSON.stringify({ Comment: json, Source: text })],
          ]),
    ),
};

const NUMBERS: Array<keyof ReadSettings> = ['steps', 'guidance', 'width', 'height', 'denoise'];

/** What every answer must be, whatever the input: the reader's source, exact-digit seeds, finite numbers. */
function wellFormed(read: GeneratorRead | undefined, source: string): void {
  if (read === undefined) return;
  expect(read.source).toBe(source);
  expect(read.problems.every((p) => typeof p === 'string')).toBe(true);
  for (const settings of [read.settings, ...(read.alternatives ?? [])]) {
    if (settings.seed !== undefined) expect(settings.seed).toMatch(/^\d+$/);
    for (const key of NUMBERS) if (settings[key] !== undefined) expect(Number.isFinite(settings[key])).toBe(true);
  }
}

const READERS: Array<[string, GeneratorReader]> = [
  ['comfyui', readComfyui],
  ['invokeai', readInvokeai],
  ['fooocus', readFooocus],
  ['swarmui', readSwarmui],
  ['ruinedfooocus', readRuinedfooocus],
  ['huggingface', readHuggingface],
  ['civitai', readCivitai],
  ['tensorart', readTensorart],
  ['stabilitymatrix', readStabilitymatrix],
  ['novelai', readNovelai],
  ['drawthings', readDrawthings],
  ['midjourney', readMidjourney],
];

describe('generator readers on arbitrary texts', () => {
  for (const [source, reader] of READERS) {
    it(`${source} never throws and answers in shape, on any text in any key`, () => {
      fc.assert(
        fc.property(texts, (map) => wellFormed(reader(map), source)),
        { numRuns: 300 },
      );
    });

    it(`${source} never throws and answers in shape, on its own keys with arbitrary values (rewired graphs for ComfyUI)`, () => {
      fc.assert(
        fc.property(owned[source]!, (map) => wellFormed(reader(map), source)),
        { numRuns: 300 },
      );
    });
  }
});

// AVIF box trees of the types the reader follows, with arbitrary bodies and sizes that may lie.
const BOX_TYPES = ['iinf', 'infe', 'iloc', 'iprp', 'ipco', 'ipma', 'ispe', 'pitm', 'idat', 'mdat', 'free'];
const { tree: boxTree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc
      .record({ type: fc.constantFrom(...BOX_TYPES), full: fc.boolean(), body: fc.uint8Array({ maxLength: 40 }) })
      .map((b) => (b.full ? fullBox(b.type, b.body[0] ?? 0, 1, b.body) : box(b.type, b.body))),
    fc
      .record({
        type: fc.constantFrom(...BOX_TYPES),
        version: fc.nat(3),
        children: fc.array(tie('tree'), { maxLength: 4 }),
      })
      .map((b) => fullBox(b.type, b.version, 0, (b.children as number[][]).flat())),
  ),
}));
const FTYP = box('ftyp', [...new TextEncoder().encode('avif'), 0, 0, 0, 0, ...new TextEncoder().encode('mif1')]);
const lie = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 });

function avifReadsInShape(bytes: Uint8Array): Promise<void> {
  const sniffed = sniffImage(bytes);
  expect(sniffed.format).toBe('avif');
  if (sniffed.width !== undefined) expect(Number.isInteger(sniffed.width) && sniffed.width > 0).toBe(true);
  const cut = truncation(bytes, 'avif');
  expect(cut === null || typeof cut === 'string').toBe(true);
  const items = readAvifItems(bytes);
  for (const problem of items.problems) expect(typeof problem).toBe('string');
  return readContainerTexts(bytes, 'avif').then((texts) => expect(Array.isArray(texts.problems)).toBe(true));
}

describe('AVIF boxes on any bytes', () => {
  it('never throws on random box trees in and after a meta box, with bytes overwritten anywhere', async () => {
    const trees = fc.array(boxTree, { maxLength: 5 }).map((boxes) => (boxes as number[][]).flat());
    await fc.assert(
      fc.asyncProperty(trees, trees, lie, async (inMeta, after, flips) => {
        const bytes = Uint8Array.from([...FTYP, ...fullBox('meta', 0, 0, inMeta), ...after]);
        for (const [at, value] of flips)
          if (bytes.length > FTYP.length) bytes[FTYP.length + (at % (bytes.length - FTYP.length))] = value;
        await avifReadsInShape(bytes);
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on a real AVIF with its EXIF and XMP items, cut anywhere or with bytes overwritten', async () => {
    const exif = buildExif({ UserComment: unicodeComment('a cat\nSteps: 20, Seed: 1') });
    const file = avifWith(await baseAvif(16, 16), { exif, xmp: '<x:xmpmeta/>' });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: file.length }), lie, async (cut, flips) => {
        const bytes = Uint8Array.from(file.subarray(0, Math.max(cut, FTYP.length + 1)));
        for (const [at, value] of flips) bytes[FTYP.length + (at % (bytes.length - FTYP.length))] = value;
        await avifReadsInShape(bytes);
      }),
      { numRuns: 400 },
    );
  });
});
