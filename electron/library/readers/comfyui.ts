import { fillFromSummary } from './comfyui-civitai.js';
import { newWalk, toGraph, type Walk } from './comfyui-graph.js';
import { nodeTable } from './comfyui-node-lookup.js';
import { readSampler, readUpscale } from './comfyui-sampler.js';
import { comfySources } from './comfyui-sources.js';
import { traceGraph, type Stage } from './comfyui-trace.js';
import { workflowToGraph } from './comfyui-workflow.js';
import type { Fill } from './fields.js';
import type { GeneratorRead, GeneratorReader, Pass, PassRole, ReadSettings, ReaderOptions, TextMap } from './types.js';

/** The library keeps this many other samplers' settings and passes (to-imported.ts): more would be thrown away. */
const MAX_ALTERNATIVES = 20;
const MAX_PASSES = 20;

function readStage(walk: Walk, stage: Stage): Fill {
  const samples = walk.table.spec(stage.node.classType)?.fields !== undefined || stage.kind !== 'upscaler';
  return samples ? readSampler(walk, stage.node) : readUpscale(walk, stage.node);
}

function roleOf(walk: Walk, stage: Stage, settings: ReadSettings, first: ReadSettings): PassRole {
  if (stage.kind === 'script') return walk.table.spec(stage.node.classType)?.scriptPass ?? 'sampler';
  if (stage.kind === 'detailer') return 'detailer';
  if (stage.kind === 'upscaler') return 'upscale';
  if (stage.upscaled) return 'hires';
  if (settings.model !== undefined && first.model !== undefined && settings.model !== first.model) return 'refiner';
  return 'sampler';
}

/** ComfyUI: traces the API graph (or the UI workflow) from the saved image back to its first pass. */
export const readComfyui: GeneratorReader = (texts: TextMap, options?: ReaderOptions): GeneratorRead | undefined => {
  const sources = comfySources(texts);
  if (!sources.claimed) return undefined;
  const graph =
    sources.prompt !== undefined
      ? toGraph(sources.prompt)
      : sources.workflow === undefined
        ? undefined
        : workflowToGraph(sources.workflow);
  const walk = newWalk(graph ?? new Map(), nodeTable(options?.comfyNodeRules ?? []));
  const { first: firstStage, passes: later, others } = traceGraph(walk);
  const firstFill = firstStage === undefined ? undefined : readStage(walk, firstStage);
  const laterFills = later.slice(0, MAX_PASSES).map((stage) => readStage(walk, stage));
  const otherFills = others.slice(0, MAX_ALTERNATIVES).map((node) => readSampler(walk, node));
  const traced = firstFill?.settings ?? {};
  const first = sources.civitaiSummary === undefined ? traced : fillFromSummary(traced, sources.civitaiSummary);
  const problems = [
    ...sources.problems,
    ...[firstFill, ...laterFills, ...otherFills].flatMap((fill) => fill?.problems ?? []),
    ...walk.problems,
  ];
  if (graph !== undefined && firstStage === undefined && later.length === 0 && sources.civitaiSummary === undefined)
    problems.push('no sampler found in the graph');
  const result: GeneratorRead = { source: sources.civitai === true ? 'civitai' : 'comfyui', settings: first, problems };
  const passes: Pass[] = laterFills.map((fill, i) => {
    const stage = later[i]!;
    return {
      role: roleOf(walk, stage, fill.settings, first),
      classType: stage.node.classType.slice(0, 200),
      settings: fill.settings,
    };
  });
  if (passes.length > 0) result.passes = passes;
  if (otherFills.length > 0) result.alternatives = otherFills.map((fill) => fill.settings);
  return result;
};
