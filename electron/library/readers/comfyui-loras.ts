import { asCount, asText, lora } from './fields.js';
import { input, spend, type ComfyNode, type Walk } from './comfyui-graph.js';
import type { LoraInputs } from './comfyui-node-table.js';
import { valueOf } from './comfyui-values.js';
import { isObject } from './json.js';
import type { LoraRef } from './types.js';

/** LoraLoader's inputs, for classes the table does not list. */
const DEFAULT_LORA: LoraInputs = { name: 'lora_name', weight: ['strength_model', 'strength'] };

/** Off in the ways stacks say it: false, "Off", "off", 0. */
const isOff = (value: unknown): boolean => value === false || value === 0 || /^\s*off\s*$/i.test(asText(value) ?? '');

function one(walk: Walk, node: ComfyNode, name: string, weights: readonly string[]): LoraRef | undefined {
  const value = valueOf(walk, node, name);
  // pysssss's loader keeps the picked file as `{content, image}`.
  const raw = isObject(value) ? value['content'] : value;
  if (typeof raw !== 'string' || /^\s*none\s*$/i.test(raw)) return undefined;
  const weight = weights.map((key) => valueOf(walk, node, key)).find((value) => value !== undefined);
  return lora(raw, weight);
}

/** rgthree Power Lora Loader: `lora_1: {on, lora, strength}`, … in the order the person listed them. */
function objects(node: ComfyNode, spec: LoraInputs): LoraRef[] {
  const found: LoraRef[] = [];
  const entries = Object.entries(node.inputs);
  for (const [key, value] of entries) {
    if (!/^lora_\d+$/i.test(key) || !isObject(value) || value['on'] === false) continue;
    const ref = lora(
      value[spec.name],
      spec.weight.map((w) => value[w]).find((w) => w !== undefined),
    );
    if (ref !== undefined && !/^\s*none\s*$/i.test(ref.name)) found.push(ref);
  }
  return found;
}

/** The LoRAs one node applies, in the order it applies them. */
export function lorasOf(walk: Walk, node: ComfyNode): LoraRef[] {
  const spec = walk.table.spec(node.classType)?.lora ?? DEFAULT_LORA;
  if (spec.objects === true) return spend(walk, Object.keys(node.inputs).length) ? objects(node, spec) : [];
  if (spec.count === undefined) {
    const ref = one(walk, node, spec.name, spec.weight);
    return ref === undefined ? [] : [ref];
  }
  const found: LoraRef[] = [];
  const limit = spec.limit === undefined ? undefined : asCount(valueOf(walk, node, spec.limit));
  const advanced = spec.advanced !== undefined && valueOf(walk, node, 'input_mode') === 'advanced';
  const weights = advanced ? spec.advanced! : spec.weight;
  for (let n = 1; n <= Math.min(spec.count, limit ?? spec.count); n++) {
    const name = spec.name.replace('#', String(n));
    if (input(node, name) === undefined) continue;
    if (spec.on !== undefined && isOff(valueOf(walk, node, spec.on.replace('#', String(n))))) continue;
    const ref = one(
      walk,
      node,
      name,
      weights.map((w) => w.replace('#', String(n))),
    );
    if (ref !== undefined) found.push(ref);
  }
  return found;
}
