import { asCount, asNumber, asSeed, asText, newFill, put, putLoras, type Fill } from './fields.js';
import { followInput, input, label, type ComfyNode, type Walk } from './comfyui-graph.js';
import type { NodeField } from './comfyui-node-table.js';
import { readModel, readSize, sizeOf, textField } from './comfyui-model.js';
import { nodeTexts, readPrompt } from './comfyui-prompts.js';
import { valueOf } from './comfyui-values.js';

/**
 * The nodes that carry a sampler's settings: the sampler itself, and for SamplerCustomAdvanced the noise
 * (seed), guider (cfg, prompts, model), sampler select (name) and sigmas (steps, scheduler, denoise) it links to.
 */
interface Parts {
  sampler: ComfyNode;
  noise?: ComfyNode;
  guider?: ComfyNode;
  select?: ComfyNode;
  sigmas?: ComfyNode;
}

function parts(walk: Walk, sampler: ComfyNode): Parts {
  const found: Parts = { sampler };
  const noise = followInput(walk, sampler, 'noise');
  const guider = followInput(walk, sampler, 'guider');
  const select = followInput(walk, sampler, 'sampler');
  const sigmas = followInput(walk, sampler, 'sigmas');
  if (noise !== undefined) found.noise = noise;
  if (guider !== undefined) found.guider = guider;
  if (select !== undefined) found.select = select;
  if (sigmas !== undefined) found.sigmas = sigmas;
  return found;
}

type SamplerField = 'seed' | 'steps' | 'guidance' | 'sampler' | 'scheduler' | 'denoise';

const COERCE: Record<SamplerField, (value: unknown) => string | number | undefined> = {
  seed: asSeed,
  steps: asCount,
  guidance: asNumber,
  sampler: asText,
  scheduler: asText,
  denoise: asNumber,
};

/** The first input the table names for `key` that is present, on the first of these nodes that has one. */
function pick(walk: Walk, fill: Fill, key: SamplerField, nodes: Array<ComfyNode | undefined>): void {
  for (const node of nodes) {
    if (node === undefined) continue;
    const name = walk.table.fieldInputs(node.classType, key as NodeField).find((n) => input(node, n) !== undefined);
    if (name === undefined) continue;
    put(fill, key, valueOf(walk, node, name), COERCE[key], `${label(node)} ${name}`);
    return;
  }
}

/** The loader a sampler takes its model and prompts from through one input (Efficiency's SDXL tuple). */
function pipeOf(walk: Walk, sampler: ComfyNode): ComfyNode | undefined {
  const name = walk.table.spec(sampler.classType)?.pipe;
  return name === undefined ? undefined : followInput(walk, sampler, name);
}

/** The node whose input holds a conditioning: the sampler, or the guider it links to. */
function promptOwner(p: Parts, name: string): [ComfyNode, string] | undefined {
  if (input(p.sampler, name) !== undefined) return [p.sampler, name];
  if (p.guider === undefined) return undefined;
  if (input(p.guider, name) !== undefined) return [p.guider, name];
  // BasicGuider (Flux) has one `conditioning` and no negative; DualCFGGuider (OmniGen2) `cond1` and `cond2`.
  if (name !== 'positive') return undefined;
  const guider = p.guider;
  const single = ['conditioning', 'cond1'].find((key) => input(guider, key) !== undefined);
  return single === undefined ? undefined : [guider, single];
}

function putPrompts(walk: Walk, fill: Fill, p: Parts): void {
  // A node that holds its own prompts (a person's rule, or a sampler with a text widget) is read first.
  const own = nodeTexts(walk, p.sampler, 'prompt');
  if (own.length > 0) {
    fill.settings.prompt = own.join('\n');
    const negative = nodeTexts(walk, p.sampler, 'negativePrompt');
    if (negative.length > 0 && walk.table.fieldInputs(p.sampler.classType, 'negativePrompt').length > 0)
      fill.settings.negativePrompt = negative.join('\n');
    return;
  }
  const pipe = pipeOf(walk, p.sampler);
  if (pipe !== undefined && input(p.sampler, 'positive') === undefined) {
    const texts = nodeTexts(walk, pipe, 'prompt');
    const negative = nodeTexts(walk, pipe, 'negativePrompt');
    if (texts.length > 0) fill.settings.prompt = texts.join('\n');
    if (negative.length > 0) fill.settings.negativePrompt = negative.join('\n');
    return;
  }
  const positive = promptOwner(p, 'positive');
  const negative = promptOwner(p, 'negative');
  const pos = positive === undefined ? undefined : readPrompt(walk, ...positive, 'prompt');
  const neg = negative === undefined ? undefined : readPrompt(walk, ...negative, 'negativePrompt');
  if (pos !== undefined && pos.texts.length > 0) fill.settings.prompt = pos.texts.join('\n');
  if (neg !== undefined && neg.texts.length > 0) fill.settings.negativePrompt = neg.texts.join('\n');
  // Flux samples at cfg 1: the guidance the person set is FluxGuidance's, kept beside the cfg.
  if (pos?.distilledGuidance !== undefined) fill.settings.distilledGuidance = pos.distilledGuidance;
}

function putModel(walk: Walk, fill: Fill, p: Parts): void {
  const own = textField(walk, p.sampler, 'model');
  if (own !== undefined) {
    fill.settings.model = own;
    return;
  }
  const pipe = walk.table.spec(p.sampler.classType)?.pipe;
  const [owner, name] =
    input(p.sampler, 'model') !== undefined
      ? [p.sampler, 'model']
      : pipe !== undefined && input(p.sampler, pipe) !== undefined
        ? [p.sampler, pipe]
        : [p.guider, 'model'];
  if (owner === undefined) return;
  const read = readModel(walk, owner, name);
  if (read.model !== undefined) fill.settings.model = read.model;
  putLoras(fill, read.loras);
}

/** Everything one sampler's generation used. */
export function readSampler(walk: Walk, sampler: ComfyNode): Fill {
  const fill = newFill();
  const p = parts(walk, sampler);
  pick(walk, fill, 'seed', [sampler, p.noise]);
  pick(walk, fill, 'steps', [sampler, p.sigmas]);
  pick(walk, fill, 'guidance', [sampler, p.guider]);
  pick(walk, fill, 'sampler', [sampler, p.select]);
  pick(walk, fill, 'scheduler', [sampler, p.sigmas]);
  pick(walk, fill, 'denoise', [sampler, p.sigmas]);
  putPrompts(walk, fill, p);
  putModel(walk, fill, p);
  const size = sizeOf(walk, sampler) ?? readSize(walk, sampler);
  if (size.width !== undefined) fill.settings.width = size.width;
  if (size.height !== undefined) fill.settings.height = size.height;
  return fill;
}

/** A model upscale (ImageUpscaleWithModel): the upscale model is all it has to say. */
export function readUpscale(walk: Walk, node: ComfyNode): Fill {
  const fill = newFill();
  const loader = followInput(walk, node, 'upscale_model');
  const model = loader === undefined ? undefined : textField(walk, loader, 'model');
  if (model !== undefined) fill.settings.model = model;
  return fill;
}
