import {
  follow,
  input,
  isLink,
  label,
  MAX_DEPTH,
  note,
  spend,
  type ComfyNode,
  type Target,
  type Walk,
} from './comfyui-graph.js';

// Where primitive, seed and string nodes the table does not list keep their value (core, rgthree, Crystools, WAS, …).
const VALUE_INPUTS = ['value', 'seed', 'noise_seed', 'int', 'float', 'number', 'string', 'text', 'Text'];

/** A joined text longer than this is cut: a hostile graph of joins that each double their input must stay small. */
const MAX_JOINED = 500_000;

/** Marks a value being worked out, so a cycle of string nodes reads as nothing instead of looping. */
const PENDING = Symbol('pending');

/** What a node gives out on one output: a string node's joined text, a primitive's value, a styler's chosen text. */
function nodeValue(walk: Walk, target: Target, wanted: string, depth: number): unknown {
  const { node, output } = target;
  if (target.selected !== undefined) return valueAt(walk, node, target.selected, depth);
  const spec = walk.table.spec(node.classType);
  if (spec?.outputs !== undefined) {
    const key = spec.outputs[output];
    return key === undefined ? undefined : valueAt(walk, node, key, depth);
  }
  if (spec?.parts !== undefined && spec.role === 'string') return joined(walk, node, spec.parts, depth, spec);
  const names = spec?.parts ?? [wanted, ...walk.table.ruleInputs(node.classType), ...VALUE_INPUTS];
  const found = names.find((name) => input(node, name) !== undefined);
  return found === undefined ? undefined : valueAt(walk, node, found, depth);
}

function joined(
  walk: Walk,
  node: ComfyNode,
  parts: readonly string[],
  depth: number,
  spec: { delimiter?: string; joiner?: string },
): string | undefined {
  const texts: string[] = [];
  let length = 0;
  for (const part of parts) {
    const value = valueAt(walk, node, part, depth);
    if (typeof value !== 'string' || value.trim() === '') continue;
    length += value.length;
    if (length > MAX_JOINED) {
      note(walk, `${label(node)}: the joined text is too long, cut`);
      break;
    }
    texts.push(value);
  }
  if (texts.length === 0) return undefined;
  const delimiter = spec.delimiter === undefined ? undefined : valueAt(walk, node, spec.delimiter, depth);
  return texts.join(typeof delimiter === 'string' ? delimiter : (spec.joiner ?? ''));
}

function valueAt(walk: Walk, node: ComfyNode, name: string, depth: number): unknown {
  const raw = input(node, name);
  if (!isLink(raw)) return raw;
  if (depth > MAX_DEPTH) return undefined;
  const target = follow(walk, node, name, raw);
  if (target === undefined) return undefined;
  const key = `${target.node.id}\u0000${target.output}\u0000${name}`;
  const known = walk.values.get(key);
  if (known === PENDING) return undefined;
  if (known !== undefined || walk.values.has(key)) return known;
  if (!spend(walk, 1)) return undefined;
  walk.values.set(key, PENDING);
  const value = nodeValue(walk, target, name, depth + 1);
  walk.values.set(key, value);
  return value;
}

/** An input's value; through links to primitives, string joins, stylers and switches, the value they give out. */
export function valueOf(walk: Walk, node: ComfyNode, name: string): unknown {
  return valueAt(walk, node, name, 0);
}
