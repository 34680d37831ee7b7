import { describe, expect, it } from 'vitest';
import { readComfyui } from '../../../../electron/library/readers/comfyui.js';

type Slot = { name: string; type: string; link: number | null; widget?: { name: string } };
type UiNode = {
  id: number | string;
  type: string;
  widgets_values?: unknown;
  inputs?: Slot[];
  outputs?: Array<{ name: string; type: string; links: number[] | null }>;
  mode?: number;
};

const slot = (name: string, type: string, link: number | null, widget?: string): Slot =>
  widget === undefined ? { name, type, link } : { name, type, link, widget: { name: widget } };
const out = (name: string, type: string, links: number[]) => ({ name, type, links });

/** Link rows as the UI writes them: [id, origin node, origin slot, target node, target slot, type]. */
type LinkRow = [number, number | string, number, number | string, number, string];

const readWorkflow = (workflow: unknown) => readComfyui(new Map([['workflow', JSON.stringify(workflow)]]));

/** The default graph as the UI saves it: loader 4, prompts 6/7, latent 5, sampler 3, decode 8, save 9. */
function uiGraph(): { nodes: UiNode[]; links: LinkRow[] } {
  return {
    nodes: [
      {
        id: 4,
        type: 'CheckpointLoaderSimple',
        widgets_values: ['ui.safetensors'],
        outputs: [out('MODEL', 'MODEL', [1])],
      },
      { id: 5, type: 'EmptyLatentImage', widgets_values: [640, 960, 1] },
      { id: 6, type: 'CLIPTextEncode', widgets_values: ['a paper boat'] },
      { id: 7, type: 'CLIPTextEncode', widgets_values: ['noise'] },
      {
        id: 3,
        type: 'KSampler',
        widgets_values: [1234567890123, 'randomize', 24, 6.5, 'dpmpp_2m', 'karras', 1],
        inputs: [
          slot('model', 'MODEL', 1),
          slot('positive', 'CONDITIONING', 2),
          slot('negative', 'CONDITIONING', 3),
          slot('latent_image', 'LATENT', 4),
        ],
      },
      { id: 8, type: 'VAEDecode', inputs: [slot('samples', 'LATENT', 5)] },
      { id: 9, type: 'SaveImage', widgets_values: ['x'], inputs: [slot('images', 'IMAGE', 6)] },
    ],
    links: [
      [1, 4, 0, 3, 0, 'MODEL'],
      [2, 6, 0, 3, 1, 'CONDITIONING'],
      [3, 7, 0, 3, 2, 'CONDITIONING'],
      [4, 5, 0, 3, 3, 'LATENT'],
      [5, 3, 0, 8, 0, 'LATENT'],
      [6, 8, 0, 9, 0, 'IMAGE'],
    ],
  };
}

describe('ComfyUI UI workflows', () => {
  it('reads widget values by position, stepping over the seed control widget', () => {
    expect(readWorkflow(uiGraph())?.settings).toEqual({
      seed: '1234567890123',
      steps: 24,
      guidance: 6.5,
      sampler: 'dpmpp_2m',
      scheduler: 'karras',
      denoise: 1,
      prompt: 'a paper boat',
      negativePrompt: 'noise',
      model: 'ui.safetensors',
      width: 640,
      height: 960,
    });
  });

  it('a seed widget converted to an input keeps its place among the values; the link it takes wins', () => {
    const ui = uiGraph();
    const sampler = ui.nodes.find((n) => n.id === 3)!;
    sampler.inputs!.push(slot('seed', 'INT', 7, 'seed'));
    ui.nodes.push({ id: 20, type: 'PrimitiveNode', widgets_values: [777, 'fixed'], outputs: [out('INT', 'INT', [7])] });
    ui.links.push([7, 20, 0, 3, 4, 'INT']);
    expect(readWorkflow(ui)?.settings).toMatchObject({ seed: '777', steps: 24, guidance: 6.5 });
  });

  it('names the widgets of a node the table does not know from its own input slots', () => {
    const ui = uiGraph();
    ui.nodes.push({
      id: 30,
      type: 'SomeonesPromptNode',
      widgets_values: ['from an unknown node'],
      inputs: [slot('text', 'STRING', null, 'text')],
      outputs: [out('STRING', 'STRING', [8])],
    });
    const encoder = ui.nodes.find((n) => n.id === 6)!;
    encoder.inputs = [slot('text', 'STRING', 8, 'text')];
    ui.links.push([8, 30, 0, 6, 0, 'STRING']);
    expect(readWorkflow(ui)?.settings.prompt).toBe('from an unknown node');
  });

  it('does not place an older unknown node’s values by the few slots it turned into inputs', () => {
    const ui = uiGraph();
    // Widgets [style, text, strength]; only `text` was turned into an input (left unlinked): its slot is the one name.
    ui.nodes.push({
      id: 31,
      type: 'SomeonesOldPromptNode',
      widgets_values: ['cinematic', 'a harbour', 0.5],
      inputs: [slot('text', 'STRING', null, 'text')],
      outputs: [out('STRING', 'STRING', [9])],
    });
    ui.nodes.find((n) => n.id === 6)!.inputs = [slot('text', 'STRING', 9, 'text')];
    ui.links.push([9, 31, 0, 6, 0, 'STRING']);
    expect(readWorkflow(ui)?.settings.prompt).toBeUndefined();
  });

  it('passes through reroutes and bypassed nodes, and leaves muted ones out', () => {
    const ui = uiGraph();
    // 4 → reroute 40 → bypassed LoRA 41 → sampler; a muted LoRA 42 hangs off the loader.
    ui.nodes.push({ id: 40, type: 'Reroute', inputs: [slot('', '*', 1)], outputs: [out('', 'MODEL', [10])] });
    ui.nodes.push({
      id: 41,
      type: 'LoraLoaderModelOnly',
      mode: 4,
      widgets_values: ['bypassed.safetensors', 1],
      inputs: [slot('model', 'MODEL', 10)],
      outputs: [out('MODEL', 'MODEL', [11])],
    });
    ui.nodes.push({ id: 42, type: 'LoraLoaderModelOnly', mode: 2, widgets_values: ['muted.safetensors', 1] });
    ui.links.push([10, 40, 0, 41, 0, 'MODEL'], [11, 41, 0, 3, 0, 'MODEL']);
    ui.nodes.find((n) => n.id === 3)!.inputs![0]!.link = 11;
    const read = readWorkflow(ui);
    expect(read?.settings.model).toBe('ui.safetensors');
    expect(read?.settings.loras).toBeUndefined();
  });

  it("keeps rgthree Power Lora Loader's LoRA objects from its widget values", () => {
    const ui = uiGraph();
    ui.nodes.push({
      id: 50,
      type: 'Power Lora Loader (rgthree)',
      widgets_values: [
        {},
        { type: 'PowerLoraLoaderHeaderWidget' },
        { on: true, lora: 'style.safetensors', strength: 0.75, strengthTwo: null },
        { on: false, lora: 'off.safetensors', strength: 1, strengthTwo: null },
        {},
        '',
      ],
      inputs: [slot('model', 'MODEL', 1)],
      outputs: [out('MODEL', 'MODEL', [12])],
    });
    ui.links.push([12, 50, 0, 3, 0, 'MODEL']);
    ui.nodes.find((n) => n.id === 3)!.inputs![0]!.link = 12;
    expect(readWorkflow(ui)?.settings.loras).toEqual([{ name: 'style.safetensors', weight: 0.75 }]);
  });

  it('expands a subgraph: its inner nodes are traced, its inputs and outputs joined to the outer links', () => {
    // The sampler and its prompt live in a subgraph fed the model from outside; its output goes to VAEDecode.
    const subgraph = {
      id: '2b1e6a4c-0000-4000-8000-000000000001',
      name: 'sample',
      inputs: [{ name: 'model', type: 'MODEL', linkIds: [101] }],
      outputs: [{ name: 'LATENT', type: 'LATENT', linkIds: [105] }],
      nodes: [
        { id: 1, type: 'CLIPTextEncode', widgets_values: ['inside the subgraph'] },
        { id: 2, type: 'CLIPTextEncode', widgets_values: ['bad'] },
        { id: 3, type: 'EmptyLatentImage', widgets_values: [512, 512, 1] },
        {
          id: 4,
          type: 'KSampler',
          widgets_values: [99, 'fixed', 8, 3, 'euler', 'simple', 1],
          inputs: [
            slot('model', 'MODEL', 101),
            slot('positive', 'CONDITIONING', 102),
            slot('negative', 'CONDITIONING', 103),
            slot('latent_image', 'LATENT', 104),
          ],
        },
      ],
      links: [
        { id: 101, origin_id: -10, origin_slot: 0, target_id: 4, target_slot: 0, type: 'MODEL' },
        { id: 102, origin_id: 1, origin_slot: 0, target_id: 4, target_slot: 1, type: 'CONDITIONING' },
        { id: 103, origin_id: 2, origin_slot: 0, target_id: 4, target_slot: 2, type: 'CONDITIONING' },
        { id: 104, origin_id: 3, origin_slot: 0, target_id: 4, target_slot: 3, type: 'LATENT' },
        { id: 105, origin_id: 4, origin_slot: 0, target_id: -20, target_slot: 0, type: 'LATENT' },
      ],
    };
    const workflow = {
      nodes: [
        { id: 4, type: 'CheckpointLoaderSimple', widgets_values: ['outer.safetensors'] },
        { id: 10, type: subgraph.id, inputs: [slot('model', 'MODEL', 1)], outputs: [out('LATENT', 'LATENT', [2])] },
        { id: 8, type: 'VAEDecode', inputs: [slot('samples', 'LATENT', 2)] },
        { id: 9, type: 'SaveImage', inputs: [slot('images', 'IMAGE', 3)] },
      ],
      links: [
        [1, 4, 0, 10, 0, 'MODEL'],
        [2, 10, 0, 8, 0, 'LATENT'],
        [3, 8, 0, 9, 0, 'IMAGE'],
      ],
      definitions: { subgraphs: [subgraph] },
    };
    expect(readWorkflow(workflow)?.settings).toMatchObject({
      seed: '99',
      steps: 8,
      prompt: 'inside the subgraph',
      negativePrompt: 'bad',
      model: 'outer.safetensors',
      width: 512,
    });
  });

  it('survives a subgraph that holds itself and a reroute cycle, in bounded time', () => {
    const id = '2b1e6a4c-0000-4000-8000-000000000002';
    const workflow = {
      nodes: [
        { id: 1, type: id, inputs: [slot('x', 'MODEL', 1)], outputs: [out('y', 'MODEL', [2])] },
        { id: 2, type: 'Reroute', inputs: [slot('', '*', 2)], outputs: [out('', '*', [1])] },
      ],
      links: [
        [1, 2, 0, 1, 0, 'MODEL'],
        [2, 1, 0, 2, 0, 'MODEL'],
      ],
      definitions: {
        subgraphs: [
          {
            id,
            nodes: [{ id: 5, type: id, inputs: [slot('x', 'MODEL', 7)] }],
            links: [{ id: 7, origin_id: -10, origin_slot: 0, target_id: 5, target_slot: 0 }],
          },
        ],
      },
    };
    const read = readWorkflow(workflow);
    expect(read?.source).toBe('comfyui');
    expect(read?.settings).toEqual({});
  });
});

/** Every real file under test/fixtures/real/comfyui that carries both graphs. */
async function bothGraphs(): Promise<Array<{ name: string; prompt: string; workflow: string }>> {
  const { readContainerTexts } = await import('../../../../electron/library/readers/containers.js');
  const { comfySources } = await import('../../../../electron/library/readers/comfyui-sources.js');
  const { sniffImage } = await import('../../../../electron/library/readers/sniff.js');
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = join(import.meta.dirname, '../../../fixtures/real/comfyui');
  const found = [];
  const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v));
  for (const name of readdirSync(dir).filter((n) => !n.endsWith('.json') && !n.endsWith('.md'))) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    const sources = comfySources((await readContainerTexts(bytes, sniffImage(bytes).format!)).texts);
    if (sources.prompt !== undefined && sources.workflow !== undefined) {
      found.push({ name, prompt: json(sources.prompt), workflow: json(sources.workflow) });
    }
  }
  return found;
}

describe('ComfyUI real workflows read alone', () => {
  it('give the first pass the API prompt of the same file gives (subgraphs, group nodes, 2023 and 2025 formats)', async () => {
    const files = await bothGraphs();
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const { name, prompt, workflow } of files) {
      const fromPrompt = readComfyui(new Map([['prompt', prompt]]))?.settings;
      const fromWorkflow = readComfyui(new Map([['workflow', workflow]]))?.settings;
      expect({ name, ...fromWorkflow }).toEqual({ name, ...fromPrompt });
    }
  });
});
