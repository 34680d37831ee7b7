import { asNumber, asText } from './fields.js';
import { follow, input, isLink, MAX_DEPTH, spend, type ComfyNode, type Walk } from './comfyui-graph.js';
import { valueOf } from './comfyui-values.js';

export type PromptSide = 'prompt' | 'negativePrompt';

export interface PromptRead {
  /** Every distinct text reached, in the order the graph combines them (area prompts, SDXL g and l). */
  texts: string[];
  /** FluxGuidance (or CLIPTextEncodeFlux) on the way, nearest the sampler. */
  distilledGuidance?: number;
}

/** A node's prompt texts: an encoder's (either side), or a loader's that holds both prompts (Efficient Loader). */
export function nodeTexts(walk: Walk, node: ComfyNode, side: PromptSide): string[] {
  const negative = walk.table.fieldInputs(node.classType, 'negativePrompt');
  const keys =
    side === 'negativePrompt' && negative.length > 0 ? negative : walk.table.fieldInputs(node.classType, 'prompt');
  const texts: string[] = [];
  for (const key of keys) {
    const text = asText(valueOf(walk, node, key))?.trim();
    if (text !== undefined && text !== '') texts.push(text);
  }
  return texts;
}

/** The conditioning links a node passes on: the side its output names, or every `conditioning*` input. */
function upstream(walk: Walk, node: ComfyNode, output: number): Array<[string, unknown]> {
  if (walk.table.spec(node.classType)?.stops === true) return [];
  if (input(node, 'positive') !== undefined && input(node, 'negative') !== undefined) {
    const side = output === 1 ? 'negative' : 'positive';
    return [[side, input(node, side)]];
  }
  // Looking through a node's inputs costs as much as following them: a hostile node has a hundred thousand.
  const entries = Object.entries(node.inputs);
  if (!spend(walk, entries.length)) return [];
  return entries.filter(([name, value]) => /conditioning/i.test(name) && isLink(value));
}

function guidanceOf(walk: Walk, node: ComfyNode): number | undefined {
  for (const key of walk.table.fieldInputs(node.classType, 'distilledGuidance')) {
    const found = asNumber(valueOf(walk, node, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Follows a positive or negative link through conditioning nodes to the text encoders. */
export function readPrompt(walk: Walk, from: ComfyNode, name: string, side: PromptSide): PromptRead {
  const read: PromptRead = { texts: [] };
  const seen = new Set<string>();
  const visited = new Set<string>();
  const visit = (node: ComfyNode, inputName: string, value: unknown, depth: number): void => {
    const target = follow(walk, node, inputName, value);
    if (target === undefined || depth > MAX_DEPTH || visited.has(target.node.id)) return;
    visited.add(target.node.id);
    const guidance = guidanceOf(walk, target.node);
    if (read.distilledGuidance === undefined && guidance !== undefined) read.distilledGuidance = guidance;
    const texts = nodeTexts(walk, target.node, side);
    if (texts.length > 0) {
      for (const text of texts) {
        if (seen.has(text)) continue;
        seen.add(text);
        read.texts.push(text);
      }
      return;
    }
    for (const [next, link] of upstream(walk, target.node, target.output)) visit(target.node, next, link, depth + 1);
  };
  visit(from, name, input(from, name), 0);
  return read;
}
