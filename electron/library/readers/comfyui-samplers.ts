import { budgetFor, byId, input, isLink, type ComfyNode, type Graph } from './comfyui-graph.js';

// Beyond any real graph; a hostile one stops here.
const MAX_VISITS = 10_000;

interface Budget {
  left: number;
}

/** KSampler, KSamplerAdvanced, SamplerCustom*, any *Sampler* that samples (not KSamplerSelect, which names one). */
export function isSampler(node: ComfyNode): boolean {
  if (!/sampler/i.test(node.classType)) return false;
  return ['latent_image', 'positive', 'guider'].some((name) => input(node, name) !== undefined);
}

const isOutput = (node: ComfyNode): boolean =>
  /save|preview/i.test(node.classType) && input(node, 'images') !== undefined;

/** Nodes upstream of `start`, nearest first (breadth first), `start` excluded. */
function upstream(graph: Graph, start: ComfyNode, budget: Budget): ComfyNode[] {
  const seen = new Set<string>([start.id]);
  const order: ComfyNode[] = [];
  const queue = [start];
  for (let i = 0; i < queue.length && seen.size < MAX_VISITS && budget.left > 0; i++) {
    const values = Object.values(queue[i]!.inputs);
    budget.left -= values.length + 1;
    for (const value of values) {
      const node = isLink(value) ? graph.get(String(value[0])) : undefined;
      if (node === undefined || seen.has(node.id)) continue;
      seen.add(node.id);
      order.push(node);
      queue.push(node);
    }
  }
  return order;
}

/** The sampler nearest an output node; else the last in the chain (one no other sampler builds on). */
function mainSampler(graph: Graph, samplers: ComfyNode[]): ComfyNode {
  // Each output and sampler searches again: a bound on each search alone is no bound on them all.
  const budget: Budget = { left: budgetFor(graph, 32) };
  const outputs = [...graph.values()].filter(isOutput).sort(byId);
  for (const output of outputs) {
    const nearest = upstream(graph, output, budget).find(isSampler);
    if (nearest !== undefined) return nearest;
  }
  const feeding = new Set(
    samplers.flatMap((s) =>
      upstream(graph, s, budget)
        .filter(isSampler)
        .map((n) => n.id),
    ),
  );
  return [...samplers].reverse().find((s) => !feeding.has(s.id)) ?? samplers[samplers.length - 1]!;
}

/** Every sampler of the graph, the one that made the saved image first. */
export function orderedSamplers(graph: Graph): ComfyNode[] {
  const samplers = [...graph.values()].filter(isSampler).sort(byId);
  if (samplers.length < 2) return samplers;
  const main = mainSampler(graph, samplers);
  return [main, ...samplers.filter((s) => s !== main)];
}
