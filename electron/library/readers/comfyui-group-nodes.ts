import { isObject, type JsonObject } from './json.js';

/**
 * A legacy group node (`extra.groupNodes`, instances typed `workflow>NAME`): its inner nodes, the links among them,
 * which inner inputs the instance's inputs feed and which inner outputs its outputs are.
 */
export interface GroupNode {
  nodes: JsonObject[];
  /** `innerIndex:inputSlot` → the inner output feeding it. */
  internal: Map<string, [number, number]>;
  /** The instance's input slot that feeds an inner input (not fed inside, not a widget), by `innerIndex:name`. */
  inputs: Map<string, number>;
  /** The instance's output slots in order: an inner output not used inside, or one the group exposes anyway. */
  outputs: Array<[number, number]>;
  /** How many of the instance's widget values each inner node takes, in order. */
  widgetCounts: number[];
}

const list = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);

function readGroup(raw: JsonObject): GroupNode {
  const nodes = list(raw['nodes']);
  const internal = new Map<string, [number, number]>();
  const linkedOut = new Set<string>();
  for (const link of Array.isArray(raw['links']) ? raw['links'] : []) {
    if (!Array.isArray(link) || link.length < 4) continue;
    const [from, fromSlot, to, toSlot] = link.map(Number) as [number, number, number, number];
    internal.set(`${to}:${toSlot}`, [from, fromSlot]);
    linkedOut.add(`${from}:${fromSlot}`);
  }
  const external = new Set<string>();
  for (const entry of Array.isArray(raw['external']) ? raw['external'] : []) {
    if (Array.isArray(entry)) external.add(`${Number(entry[0])}:${Number(entry[1])}`);
  }
  const inputs = new Map<string, number>();
  const outputs: Array<[number, number]> = [];
  nodes.forEach((node, index) => {
    list(node['inputs']).forEach((slot, s) => {
      if (isObject(slot['widget']) || internal.has(`${index}:${s}`) || typeof slot['name'] !== 'string') return;
      inputs.set(`${index}:${slot['name']}`, inputs.size);
    });
    list(node['outputs']).forEach((_, s) => {
      const key = `${index}:${s}`;
      if (!linkedOut.has(key) || external.has(key)) outputs.push([index, s]);
    });
  });
  const widgetCounts = nodes.map((node) => (Array.isArray(node['widgets_values']) ? node['widgets_values'].length : 0));
  return { nodes, internal, inputs, outputs, widgetCounts };
}

/** Group node definitions by the type their instances carry (`workflow>NAME`, older `workflow/NAME`). */
export function groupNodesOf(workflow: JsonObject): Map<string, GroupNode> {
  const found = new Map<string, GroupNode>();
  const extra = workflow['extra'];
  const groups = isObject(extra) ? extra['groupNodes'] : undefined;
  if (!isObject(groups)) return found;
  for (const [name, raw] of Object.entries(groups)) {
    if (!isObject(raw)) continue;
    const group = readGroup(raw);
    found.set(`workflow>${name}`, group);
    found.set(`workflow/${name}`, group);
  }
  return found;
}

/**
 * Each inner node's widget values: the group definition's, else the instance's (cut in turn by how many each inner
 * node has). sd-metadata's group-node file ran its definition's checkpoint, not the one its instance shows.
 */
export function innerWidgetValues(group: GroupNode, instance: JsonObject): unknown[][] {
  const values = instance['widgets_values'];
  let at = 0;
  return group.nodes.map((node, i) => {
    const count = group.widgetCounts[i]!;
    const own = Array.isArray(values) && at + count <= values.length ? values.slice(at, at + count) : [];
    at += count;
    return Array.isArray(node['widgets_values']) ? node['widgets_values'] : own;
  });
}
