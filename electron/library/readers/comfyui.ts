import { newWalk, toGraph } from './comfyui-graph.js';
import { readSampler } from './comfyui-sampler.js';
import { orderedSamplers } from './comfyui-samplers.js';
import { comfySources } from './comfyui-sources.js';
import { workflowToApi } from './comfyui-workflow.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';

/** The library keeps this many other samplers' settings (to-imported.ts): reading more would be work thrown away. */
const MAX_ALTERNATIVES = 20;

/** ComfyUI: walks the API graph (or the UI workflow) from each sampler to its prompts, model and size. */
export const readComfyui: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  const sources = comfySources(texts);
  if (!sources.claimed) return undefined;
  const api = sources.prompt ?? (sources.workflow === undefined ? undefined : workflowToApi(sources.workflow));
  const walk = newWalk(toGraph(api ?? {}));
  const samplers = orderedSamplers(walk.graph);
  const fills = samplers.slice(0, MAX_ALTERNATIVES + 1).map((sampler) => readSampler(walk, sampler));
  const problems = [...sources.problems, ...fills.flatMap((fill) => fill.problems), ...walk.problems];
  if (api !== undefined && samplers.length === 0) problems.push('no sampler found in the graph');
  const result: GeneratorRead = { source: 'comfyui', settings: fills[0]?.settings ?? {}, problems };
  if (fills.length > 1) result.alternatives = fills.slice(1).map((fill) => fill.settings);
  return result;
};
