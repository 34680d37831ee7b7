/**
 * `npm run bench -- comfyui-tracer`: the ComfyUI reader tracing graphs from the saved image back to the first pass.
 * Rows: a typical graph (a real SDXL base + refiner file's API prompt, then its UI workflow alone) against a 1 ms
 * target, and 5 MB workflows (many chains of real node classes; one reroute chain end to end) against 50 ms.
 * Each row: the whole read (JSON parse included), the JSON parse alone, and what the trace adds (held to the target);
 * best of runs. The load average is printed: on a shared machine every figure grows with it.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { readComfyui } from '../electron/library/readers/comfyui.js';
import { readContainerTexts } from '../electron/library/readers/containers.js';
import { parseJson } from '../electron/library/readers/json.js';
import { bestOf, printTable } from './lib/text-table.js';

const TYPICAL_MS = 1;
const LARGE_MS = 50;

const slot = (name: string, type: string, link: number | null) => ({ name, type, link });

/**
 * A UI workflow of `chains` independent txt2img chains (loader, LoRA, two encoders, latent, sampler, decode, save),
 * each prompt `promptChars` long: long prompts make a few hundred chains 5 MB, short ones take tens of thousands.
 */
function manyChains(chains: number, promptChars = 280): string {
  const nodes: unknown[] = [];
  const links: unknown[] = [];
  let id = 0;
  let link = 0;
  const wire = (from: number, to: number, toSlot: number, type: string): number => {
    links.push([++link, from, 0, to, toSlot, type]);
    return link;
  };
  for (let c = 0; c < chains; c++) {
    const [loader, lora, pos, neg, latent, sampler, decode, save] = Array.from({ length: 8 }, () => ++id);
    nodes.push({ id: loader, type: 'CheckpointLoaderSimple', widgets_values: [`model_${c}.safetensors`] });
    nodes.push({
      id: lora,
      type: 'LoraLoader',
      widgets_values: [`style_${c}.safetensors`, 0.8, 1],
      inputs: [slot('model', 'MODEL', wire(loader!, lora!, 0, 'MODEL'))],
    });
    const prompt = `a lighthouse at dusk, number ${c}, `;
    nodes.push({
      id: pos,
      type: 'CLIPTextEncode',
      widgets_values: [prompt.repeat(Math.ceil(promptChars / prompt.length))],
    });
    nodes.push({ id: neg, type: 'CLIPTextEncode', widgets_values: ['blurry, lowres, watermark'] });
    nodes.push({ id: latent, type: 'EmptyLatentImage', widgets_values: [1024, 1024, 1] });
    nodes.push({
      id: sampler,
      type: 'KSampler',
      widgets_values: [c, 'randomize', 30, 7, 'euler', 'normal', 1],
      inputs: [
        slot('model', 'MODEL', wire(lora!, sampler!, 0, 'MODEL')),
        slot('positive', 'CONDITIONING', wire(pos!, sampler!, 1, 'CONDITIONING')),
        slot('negative', 'CONDITIONING', wire(neg!, sampler!, 2, 'CONDITIONING')),
        slot('latent_image', 'LATENT', wire(latent!, sampler!, 3, 'LATENT')),
      ],
    });
    nodes.push({
      id: decode,
      type: 'VAEDecode',
      inputs: [slot('samples', 'LATENT', wire(sampler!, decode!, 0, 'LATENT'))],
    });
    nodes.push({ id: save, type: 'SaveImage', inputs: [slot('images', 'IMAGE', wire(decode!, save!, 0, 'IMAGE'))] });
  }
  return JSON.stringify({ nodes, links });
}

/** A UI workflow whose one model link passes through `count` reroutes. */
function rerouteChain(count: number): string {
  const nodes: unknown[] = [{ id: 0, type: 'CheckpointLoaderSimple', widgets_values: ['deep.safetensors'] }];
  const links: unknown[] = [];
  for (let i = 1; i <= count; i++) {
    nodes.push({ id: i, type: 'Reroute', inputs: [slot('', '*', i)], pos: [i * 10, i * 10], size: [75, 26] });
    links.push([i, i - 1, 0, i, 0, 'MODEL']);
  }
  nodes.push({
    id: count + 1,
    type: 'KSampler',
    widgets_values: [1, 'fixed', 1, 1, 'euler', 'normal', 1],
    inputs: [slot('model', 'MODEL', count + 1)],
  });
  links.push([count + 1, count, 0, count + 1, 0, 'MODEL']);
  return JSON.stringify({ nodes, links });
}

/** Grows a workflow until its JSON is about `bytes` long. */
function sized(make: (n: number) => string, bytes: number): string {
  const probe = make(100);
  return make(Math.ceil((100 * bytes) / probe.length));
}

export async function run(): Promise<void> {
  const file = join(import.meta.dirname, '../test/fixtures/real/comfyui/sdxl-base-refiner.png');
  const texts = (await readContainerTexts(new Uint8Array(readFileSync(file)), 'png')).texts;
  const cases: Array<{ name: string; key: 'prompt' | 'workflow'; text: string; target: number }> = [
    { name: 'typical: SDXL base + refiner, API prompt', key: 'prompt', text: texts.get('prompt')!, target: TYPICAL_MS },
    { name: 'typical: the same, UI workflow only', key: 'workflow', text: texts.get('workflow')!, target: TYPICAL_MS },
    {
      name: '5 MB workflow: 600 chains, 8 kB prompts',
      key: 'workflow',
      text: sized((n) => manyChains(n, 8_000), 5e6),
      target: LARGE_MS,
    },
    {
      name: '5 MB workflow: 29,000 small nodes (8-node chains)',
      key: 'workflow',
      text: sized((n) => manyChains(n), 5e6),
      target: LARGE_MS,
    },
    { name: '5 MB workflow: one reroute chain', key: 'workflow', text: sized(rerouteChain, 5e6), target: LARGE_MS },
  ];
  const rows = cases.map(({ name, key, text, target }) => {
    const map = new Map([[key, text]]);
    const whole = bestOf(() => void readComfyui(map), { minRuns: 5, maxRuns: 200, ms: 500 });
    const parse = bestOf(() => void parseJson(text), { minRuns: 5, maxRuns: 200, ms: 500 });
    const trace = Math.max(0, whole - parse);
    const parsed = JSON.parse(text) as { nodes?: unknown[] };
    const nodes = Array.isArray(parsed.nodes) ? parsed.nodes.length : Object.keys(parsed).length;
    return [
      name,
      `${(text.length / 1e6).toFixed(2)} MB`,
      String(nodes),
      whole.toFixed(3),
      parse.toFixed(3),
      trace.toFixed(3),
      `< ${target}`,
      trace < target ? 'yes' : 'NO',
    ];
  });
  printTable(
    `ComfyUI tracer: ms per read (best of runs; the load average was ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
    ['graph', 'size', 'nodes', 'read ms', 'JSON parse ms', 'trace ms', 'target ms', 'trace on target'],
    rows,
  );
}
