import { follow, sortedNodes, input, isLink, spend, type ComfyNode, type Walk } from './comfyui-graph.js';
import { DEFAULT_FROM } from './comfyui-node-table.js';

/** The longest run of nodes from an output back to its first pass that is followed: far past any real graph. */
const MAX_CHAIN = 512;

/** Scripts chained to one sampler: a handful at most in any real graph. */
const MAX_SCRIPTS = 16;

/** A node that makes or remakes the image: a sampler, a detailer, an upscaler. */
export interface Stage {
  node: ComfyNode;
  kind: 'sampler' | 'detailer' | 'upscaler' | 'script';
  /** An upscale (latent or image) lies between the stage before and this one: a hires fix. */
  upscaled: boolean;
}

/** KSampler, KSamplerAdvanced, SamplerCustom*, any *Sampler* that samples (not KSamplerSelect, which names one). */
function stageKind(walk: Walk, node: ComfyNode): Stage['kind'] | undefined {
  const role = walk.table.spec(node.classType)?.role;
  if (role === 'sampler' || role === 'detailer' || role === 'upscaler') return role;
  if (role !== undefined || !/sampler/i.test(node.classType)) return undefined;
  return ['latent_image', 'positive', 'guider'].some((name) => input(node, name) !== undefined) ? 'sampler' : undefined;
}

const isUpscale = (walk: Walk, node: ComfyNode): boolean =>
  /upscale|scale/i.test(node.classType) && walk.table.spec(node.classType)?.role !== 'sampler';

/** The input an image or latent comes in by: the table's, the usual names, else any linked input named like one. */
function fromInput(walk: Walk, node: ComfyNode): string | undefined {
  const listed = walk.table.spec(node.classType)?.from;
  const found = (listed ?? DEFAULT_FROM).find((name) => isLink(input(node, name)));
  if (found !== undefined || listed !== undefined) return found;
  // Looking through a node's inputs costs as much as following them: a hostile node has a hundred thousand.
  const names = Object.keys(node.inputs);
  if (!spend(walk, names.length)) return undefined;
  return names.find((name) => /image|latent|samples|pixels/i.test(name) && isLink(input(node, name)));
}

/** The earlier pass a sampler's positive conditioning carries (Stable Cascade: stage B is conditioned on C's latent). */
function priorPass(walk: Walk, sampler: ComfyNode): ComfyNode | undefined {
  const conditioning = follow(walk, sampler, 'positive', input(sampler, 'positive'))?.node;
  const prior = conditioning === undefined ? undefined : walk.table.spec(conditioning.classType)?.prior;
  return prior === undefined ? undefined : follow(walk, conditioning!, prior, input(conditioning!, prior))?.node;
}

/** Efficiency's scripts a sampler runs after its own pass, in the order they are chained to it. */
function scriptsOf(walk: Walk, sampler: ComfyNode): ComfyNode[] {
  const found: ComfyNode[] = [];
  const seen = new Set<string>([sampler.id]);
  let target = follow(walk, sampler, 'script', input(sampler, 'script'))?.node;
  for (let depth = 0; target !== undefined && depth < MAX_SCRIPTS && !seen.has(target.id); depth++) {
    seen.add(target.id);
    if (walk.table.spec(target.classType)?.role === 'script') found.push(target);
    target = follow(walk, target, 'script', input(target, 'script'))?.node;
  }
  return found.reverse();
}

/** The stages from `start` back to the first pass, the first pass first. */
export function chainTo(walk: Walk, start: ComfyNode): Stage[] {
  const stages: Stage[] = [];
  const visited = new Set<string>();
  let node: ComfyNode | undefined = start;
  let upscaled = false;
  for (let steps = 0; node !== undefined && steps < MAX_CHAIN && !visited.has(node.id); steps++) {
    visited.add(node.id);
    // An upscale (even one that is a stage itself, a model upscale) makes the stage after it a hires fix.
    if (isUpscale(walk, node)) upscaled = true;
    const kind = stageKind(walk, node);
    if (kind !== undefined) {
      const later = stages[stages.length - 1];
      if (later !== undefined) later.upscaled = upscaled;
      // A sampler's scripts run after it: walking back, they come first.
      for (const script of scriptsOf(walk, node).reverse())
        stages.push({ node: script, kind: 'script', upscaled: false });
      stages.push({ node, kind, upscaled: false });
      upscaled = false;
    }
    const prior: ComfyNode | undefined = kind === 'sampler' ? priorPass(walk, node) : undefined;
    const name = fromInput(walk, node);
    node = prior ?? (name === undefined ? undefined : follow(walk, node, name, input(node, name))?.node);
  }
  return stages.reverse();
}

export interface Trace {
  /** The first pass: the first sampler of the chain that made the saved image (else its first detailer). */
  first?: Stage;
  /** Every later stage of that chain, in the order they ran; with no first pass, all of its stages (an upscale). */
  passes: Stage[];
  /** Samplers outside that chain: other generations the graph describes. */
  others: ComfyNode[];
}

const better = (a: { save: boolean; chain: Stage[] }, b: { save: boolean; chain: Stage[] }): boolean =>
  a.save !== b.save ? a.save : a.chain.length > b.chain.length;

/** The first pass samples from noise or from the image it was given: an upscale before it only readied that image. */
function split(chain: Stage[]): Pick<Trace, 'first' | 'passes'> {
  const sampler = chain.findIndex((stage) => stage.kind === 'sampler');
  const at = sampler >= 0 ? sampler : chain.findIndex((stage) => stage.kind === 'detailer');
  return at < 0 ? { passes: chain } : { first: chain[at]!, passes: chain.slice(at + 1) };
}

/**
 * From each output node back to the first pass; the chain of a save (over a preview), the longest, the lowest id.
 * Without an output (a workflow cut short), from each stage no other stage builds on.
 */
export function traceGraph(walk: Walk): Trace {
  const nodes = sortedNodes(walk.graph);
  const stages = nodes.filter((node) => stageKind(walk, node) !== undefined);
  if (stages.length === 0) return { passes: [], others: [] };
  const outputs = nodes.filter(
    (node) => walk.table.isOutputClass(node.classType) && fromInput(walk, node) !== undefined,
  );
  const starts = outputs.length > 0 ? outputs : stages;
  const chains: Stage[][] = [];
  let best: { save: boolean; chain: Stage[] } | undefined;
  for (const start of starts) {
    if (!spend(walk, 1)) break;
    const chain = chainTo(walk, start);
    if (chain.length === 0) continue;
    chains.push(chain);
    const candidate = { save: /save/i.test(start.classType), chain };
    if (best === undefined || better(candidate, best)) best = candidate;
  }
  const chain = best?.chain ?? chainTo(walk, stages[stages.length - 1]!);
  const inChain = new Set(chain.map((stage) => stage.node.id));
  const isOther = (node: ComfyNode): boolean => !inChain.has(node.id) && stageKind(walk, node) === 'sampler';
  // Other chains' first samplers lead the others: they are the other generations; any sampler left follows by id.
  const firsts = chains.map((c) => c.find((stage) => stage.kind === 'sampler')?.node).filter((n) => n !== undefined);
  const others = [...new Set([...firsts.filter(isOther), ...stages.filter(isOther)])];
  return { ...split(chain), others };
}
