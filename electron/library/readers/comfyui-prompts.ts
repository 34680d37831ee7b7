import { asNumber, asText } from './fields.js';
import { follow, input, isLink, MAX_DEPTH, spend, valueOf, type ComfyNode, type Walk } from './comfyui-graph.js';

// Text encoder inputs, the main prompt first: CLIPTextEncode, Flux/SD3 (t5xxl before clip_l), SDXL (text_g, text_l).
const TEXT_INPUTS = ['text', 't5xxl', 'text_g', 'clip_l', 'text_l'];

export interface PromptRead {
  /** Every distinct text reached, in the order the graph combines them (area prompts, SDXL g and l). */
  texts: string[];
  /** FluxGuidance (or CLIPTextEncodeFlux) on the way, nearest the sampler. */
  guidance?: number;
}

function encoderTexts(walk: Walk, node: ComfyNode): string[] {
  return TEXT_INPUTS.map((name) => asText(valueOf(walk, node, name))?.trim()).filter(
    (text): text is string => text !== undefined && text !== '',
  );
}

/** The conditioning links a node passes on: the side its output names, or every `conditioning*` input. */
function upstream(walk: Walk, node: ComfyNode, output: number): Array<[string, unknown]> {
  if (input(node, 'positive') !== undefined && input(node, 'negative') !== undefined) {
    const side = output === 1 ? 'negative' : 'positive';
    return [[side, input(node, side)]];
  }
  // Looking through a node's inputs costs as much as following them: a hostile node has a hundred thousand.
  const entries = Object.entries(node.inputs);
  if (!spend(walk, entries.length)) return [];
  return entries.filter(([name, value]) => /conditioning/i.test(name) && isLink(value));
}

/** Follows a positive or negative link through conditioning nodes to the text encoders. */
export function readPrompt(walk: Walk, from: ComfyNode, name: string): PromptRead {
  const read: PromptRead = { texts: [] };
  const seen = new Set<string>();
  const visited = new Set<string>();
  const visit = (node: ComfyNode, inputName: string, value: unknown, depth: number): void => {
    const target = follow(walk, node, inputName, value);
    if (target === undefined || depth > MAX_DEPTH || visited.has(target.node.id)) return;
    visited.add(target.node.id);
    const guidance = asNumber(input(target.node, 'guidance'));
    if (read.guidance === undefined && guidance !== undefined) read.guidance = guidance;
    const texts = encoderTexts(walk, target.node);
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
