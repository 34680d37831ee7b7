import { newWalk, toGraph, type Walk } from './comfyui-graph.js';
import { nodeTable } from './comfyui-node-table.js';
import { readSampler, readUpscale } from './comfyui-sampler.js';
import { comfySources } from './comfyui-sources.js';
import { traceGraph, type Stage } from './comfyui-trace.js';
import { workflowToApi } from './comfyui-workflow.js';
import type { Fill } from './fields.js';
import type { GeneratorRead, GeneratorReader, Pass, PassRole, ReadSettings, ReaderOptions, TextMap } from './types.js';

/** The library keeps this many other samplers' settings and passes (to-imported.ts): more would be thrown away. */
const MAX_ALTERNATIVES = 20;
const MAX_PASSES = 20;

function readStage(walk: Walk, stage: Stage): Fill {
  const samples = walk.table.spec(stage.node.classType)?.fields !== undefined || stage.kind === 'sampler';
  return samples ? readSampler(walk, stage.node) : readUpscale(walk, stage.node);
}

function roleOf(stage: Stage, settings: ReadSettings, first: ReadSettings): PassRole {
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
  const api = sources.prompt ?? (sources.workflow === undefined ? undefined : workflowToApi(sources.workflow));
  const walk = newWalk(toGraph(api ?? {}), nodeTable(options?.comfyNodeRules ?? []));
  const { chain, others } = traceGraph(walk);
  const fills = chain.slice(0, MAX_PASSES + 1).map((stage) => readStage(walk, stage));
  const otherFills = others.slice(0, MAX_ALTERNATIVES).map((node) => readSampler(walk, node));
  const first = fills[0]?.settings ?? {};
  const problems = [
    ...sources.problems,
    ...[...fills, ...otherFills].flatMap((fill) => fill.problems),
    ...walk.problems,
  ];
  if (api !== undefined && chain.length === 0) problems.push('no sampler found in the graph');
  const result: GeneratorRead = { source: sources.civitai === true ? 'civitai' : 'comfyui', settings: first, problems };
  const passes: Pass[] = fills.slice(1).map((fill, i) => {
    const stage = chain[i + 1]!;
    return {
      role: roleOf(stage, fill.settings, first),
      classType: stage.node.classType.slice(0, 200),
      settings: fill.settings,
    };
  });
  if (passes.length > 0) result.passes = passes;
  if (otherFills.length > 0) result.alternatives = otherFills.map((fill) => fill.settings);
  return result;
};
