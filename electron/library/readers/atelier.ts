import { ATELIER_KEYWORD, parseAtelierChunk } from '../../media/png/atelier-chunk.js';
import { compact } from './fields.js';
import { seedString, type GeneratorRead, type TextMap } from './types.js';

/** Atelier's own `atelier` iTXt chunk: the full request, and the seed and model the run actually used. */
export function readAtelier(texts: TextMap): GeneratorRead | undefined {
  const text = texts.get(ATELIER_KEYWORD);
  const chunk = text === undefined ? undefined : parseAtelierChunk(text);
  if (chunk === undefined) return undefined;
  const r = chunk.request;
  const seed = seedString(chunk.seed ?? r.seed);
  return {
    source: 'atelier',
    settings: compact({
      prompt: r.prompt,
      negativePrompt: r.negativePrompt || undefined,
      seed,
      steps: r.steps,
      guidance: r.guidance,
      sampler: r.sampler,
      model: chunk.model ?? r.model,
      width: r.width,
      height: r.height,
    }),
    problems: [],
  };
}
