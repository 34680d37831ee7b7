import { isObject, setOwn, type JsonObject } from './json.js';
import { MAX_DEPTH, type ComfyNode, type Graph } from './comfyui-graph.js';
import { withoutComments } from './comfyui-comments.js';
import { groupNodesOf, innerWidgetValues, type GroupNode } from './comfyui-group-nodes.js';
import { NODE_TABLE } from './comfyui-node-table.js';

/** The UI's extra widget after a seed (`control_after_generate`): its values, told apart from the next widget's. */
const CONTROL_VALUES = new Set(['fixed', 'increment', 'decrement', 'randomize']);
const SEED_WIDGETS = new Set(['seed', 'noise_seed', 'value']);

/** A seed's control value: a word now, a boolean ("random seed after every gen") in 2023's, null in Efficiency's. */
const isControl = (value: unknown): boolean =>
  value === null || typeof value === 'boolean' || (typeof value === 'string' && CONTROL_VALUES.has(value));

/** Nodes the UI draws but ComfyUI never runs: the API graph has none of them. */
const VIRTUAL = /^(Reroute|Note|MarkdownNote)$|^(Reroute|Label|Bookmark) \(rgthree\)$/;

/** ComfyUI node modes: 2 is muted (left out), 4 bypassed (its inputs passed straight to its outputs). */
const MUTED = 2;
const BYPASSED = 4;

/** Reroutes, bypassed nodes and subgraph edges one link may pass through: far past any real workflow. */
const MAX_HOPS = 256;

/** Steps the expansion may take beyond a few per node and link of the file (subgraphs inside subgraphs). */
const MIN_STEPS = 50_000;

/** Where an input's value comes from: a node's output, or a value a subgraph instance holds in its own widget. */
type Source = [string, number] | { value: unknown };

interface Link {
  originId: string;
  originSlot: number;
}

/** One level of the workflow: the top, or a subgraph's inside as one instance of it uses it. */
interface Scope {
  prefix: string;
  nodes: Map<string, JsonObject>;
  links: Map<string, Link>;
  /** Where each link of this scope comes from, once worked out. */
  resolved: Map<string, Source | undefined>;
  /** The subgraph's own inputs (origin -10 inside it), by slot: where the instance's input links come from. */
  outer: (slot: number, hops: number) => Source | undefined;
  depth: number;
}

interface Expansion {
  graph: Map<string, ComfyNode>;
  groups: Map<string, GroupNode>;
  subgraphs: Map<string, JsonObject>;
  left: number;
  scopes: Map<string, Scope>;
  /** Each subgraph's exit links by output slot. */
  exits: Map<JsonObject, Map<number, JsonObject>>;
}

/** Sets a key as plain data: `__proto__` from a file, which an assignment would take as the prototype, too. */
function put(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') setOwn(target, key, value);
  else target[key] = value;
}

const NONE: JsonObject[] = [];

/** The objects of a list; the list itself when it holds nothing else (nearly always: no copy for each node). */
function list(value: unknown): JsonObject[] {
  if (!Array.isArray(value)) return NONE;
  for (const item of value) if (!isObject(item)) return value.filter(isObject);
  return value as JsonObject[];
}

/** Links as the old format writes them (`[id, origin, slot, target, slot, type]`) or the new (`{id, origin_id, …}`). */
function readLinks(raw: unknown): Map<string, Link> {
  const links = new Map<string, Link>();
  for (const link of Array.isArray(raw) ? raw : []) {
    if (Array.isArray(link) && link.length >= 3) {
      links.set(String(link[0]), { originId: String(link[1]), originSlot: Number(link[2]) });
    } else if (isObject(link) && link['id'] !== undefined) {
      links.set(String(link['id']), { originId: String(link['origin_id']), originSlot: Number(link['origin_slot']) });
    }
  }
  return links;
}

function newScope(graph: JsonObject, prefix: string, outer: Scope['outer'], depth: number): Scope {
  const nodes = new Map<string, JsonObject>();
  for (const node of list(graph['nodes'])) nodes.set(String(node['id']), node);
  return { prefix, nodes, links: readLinks(graph['links']), resolved: new Map(), outer, depth };
}

const slots = (node: JsonObject, key: 'inputs' | 'outputs'): JsonObject[] => list(node[key]);

/**
 * A subgraph instance's own widget values (the inner widgets it shows), by input slot: they, not the inner nodes'
 * stale copies, are what ran. In order of its widget inputs, a seed's control value stepped over.
 */
function promotedValues(node: JsonObject, inputs: JsonObject[]): Map<number, unknown> {
  const found = new Map<number, unknown>();
  const values = node['widgets_values'];
  if (!Array.isArray(values)) return found;
  let at = 0;
  const widgets = inputs.filter((slot) => isObject(slot['widget'])).length;
  inputs.forEach((slot, index) => {
    if (!isObject(slot['widget']) || at >= values.length) return;
    found.set(index, values[at++]);
    if (/seed/i.test(String(slot['name'])) && isControl(values[at]) && values.length - at > widgets - found.size) at++;
  });
  return found;
}

/** The scope inside a subgraph instance: its inputs lead to where the instance's own input links come from. */
function innerScope(x: Expansion, scope: Scope, node: JsonObject, definition: JsonObject): Scope {
  const prefix = `${scope.prefix}${String(node['id'])}:`;
  const known = x.scopes.get(prefix);
  if (known !== undefined) return known;
  const inputs = slots(node, 'inputs');
  const promoted = promotedValues(node, inputs);
  const outer = (slot: number, hops: number): Source | undefined => {
    const link = inputs[slot]?.['link'];
    if (link !== null && link !== undefined) return resolveLink(x, scope, link, hops);
    return promoted.has(slot) ? { value: promoted.get(slot) } : undefined;
  };
  const inner = newScope(definition, prefix, outer, scope.depth + 1);
  x.scopes.set(prefix, inner);
  return inner;
}

/** The API node and output a link in `scope` comes from, through reroutes, bypassed nodes and subgraphs. */
function resolveLink(x: Expansion, scope: Scope, linkId: unknown, hops = 0): Source | undefined {
  if (linkId === null || linkId === undefined || hops > MAX_HOPS) return undefined;
  const key = String(linkId);
  if (scope.resolved.has(key)) return scope.resolved.get(key);
  scope.resolved.set(key, undefined);
  const link = scope.links.get(String(linkId));
  const found = link === undefined ? undefined : resolveOrigin(x, scope, link.originId, link.originSlot, hops + 1);
  scope.resolved.set(key, found);
  return found;
}

function resolveOrigin(x: Expansion, scope: Scope, originId: string, slot: number, hops: number): Source | undefined {
  if (scope.depth > MAX_DEPTH || hops > MAX_HOPS || x.left-- < 0) return undefined;
  if (originId === '-10') return scope.outer(slot, hops);
  const node = scope.nodes.get(originId);
  if (node === undefined) return [`${scope.prefix}${originId}`, slot];
  const type = String(node['type']);
  if (/^Reroute/.test(type)) return resolveLink(x, scope, slots(node, 'inputs')[0]?.['link'], hops);
  if (node['mode'] === BYPASSED) {
    // A bypassed node hands on the input of the same type as the output asked for.
    const wanted = slots(node, 'outputs')[slot]?.['type'];
    const through = slots(node, 'inputs').find((input) => input['type'] === wanted && input['link'] != null);
    return through === undefined ? undefined : resolveLink(x, scope, through['link'], hops);
  }
  const group = x.groups.get(type);
  if (group !== undefined) {
    const out = group.outputs[slot];
    return out === undefined ? undefined : [`${scope.prefix}${originId}:${out[0]}`, out[1]];
  }
  const definition = x.subgraphs.get(type);
  if (definition !== undefined) {
    const inner = innerScope(x, scope, node, definition);
    const exit = exitsOf(x, definition).get(slot);
    return exit === undefined
      ? undefined
      : resolveOrigin(x, inner, String(exit['origin_id']), Number(exit['origin_slot']), hops + 1);
  }
  return [`${scope.prefix}${originId}`, slot];
}

function exitsOf(x: Expansion, definition: JsonObject): Map<number, JsonObject> {
  const known = x.exits.get(definition);
  if (known !== undefined) return known;
  const exits = new Map<number, JsonObject>();
  for (const link of list(definition['links'])) {
    if (String(link['target_id']) === '-20') exits.set(Number(link['target_slot']), link);
  }
  x.exits.set(definition, exits);
  return exits;
}

/** Widget names by position: the table's, else the names the node's own input slots give its widgets. */
function widgetNames(node: JsonObject): string[] {
  const type = String(node['type']);
  const listed = Object.hasOwn(NODE_TABLE, type) ? NODE_TABLE[type]!.widgets : undefined;
  if (listed !== undefined) return listed;
  return slots(node, 'inputs')
    .map((slot) => (isObject(slot['widget']) ? slot['widget']['name'] : undefined))
    .filter((name): name is string => typeof name === 'string');
}

/** The widgets of an encoder that hold prompt text: the UI strips their comments when it queues. */
function promptWidgets(node: JsonObject): readonly string[] {
  const type = String(node['type']);
  const spec = Object.hasOwn(NODE_TABLE, type) ? NODE_TABLE[type] : undefined;
  return spec?.role === 'encoder' ? (spec.fields?.prompt ?? []) : [];
}

function widgetInputs(node: JsonObject, inputs: JsonObject): void {
  const values = node['widgets_values'];
  if (isObject(values)) {
    for (const [name, value] of Object.entries(values)) put(inputs, name, value);
    return;
  }
  if (!Array.isArray(values)) return;
  const names = widgetNames(node);
  let lora = 0;
  let at = 0;
  for (const value of values) {
    // rgthree Power Lora Loader keeps each LoRA as an object among its widgets, as the API graph's lora_N.
    if (isObject(value) && typeof value['lora'] === 'string') put(inputs, `lora_${++lora}`, value);
  }
  const prompts = promptWidgets(node);
  const named: Array<[string, unknown]> = [];
  let i = 0;
  for (; i < values.length && at < names.length; i++) {
    const name = names[at]!;
    const value: unknown = values[i];
    named.push([name, prompts.includes(name) && typeof value === 'string' ? withoutComments(value) : value]);
    at++;
    // Stepped over only when there are more values left than names: a control value is the one extra.
    if (SEED_WIDGETS.has(name) && isControl(values[i + 1]) && values.length - i - 1 > names.length - at) i++;
  }
  // Names from the slots fit only when every widget has a slot (the UI since 2025): an older file lists only the
  // widgets turned into inputs, and placing those by position would give each another widget's value.
  if (!tableKnows(node) && (i < values.length || at < names.length)) return;
  for (const [name, value] of named) put(inputs, name, value);
}

const tableKnows = (node: JsonObject): boolean => {
  const type = String(node['type']);
  return Object.hasOwn(NODE_TABLE, type) && NODE_TABLE[type]!.widgets !== undefined;
};

function expand(x: Expansion, scope: Scope): void {
  for (const node of scope.nodes.values()) {
    const type = node['type'];
    if (typeof type !== 'string' || node['mode'] === MUTED || node['mode'] === BYPASSED) continue;
    // A node costs its slots too: a subgraph's inside is gone through once for each instance of it.
    x.left -= 1 + slots(node, 'inputs').length;
    if (x.left < 0) return;
    const definition = x.subgraphs.get(type);
    if (definition !== undefined) {
      if (scope.depth < MAX_DEPTH) expand(x, innerScope(x, scope, node, definition));
      continue;
    }
    const group = x.groups.get(type);
    if (group !== undefined) {
      expandGroup(x, scope, node, group);
      continue;
    }
    // A PrimitiveNode is kept (the API graph has none): the input it feeds is read through it.
    if (VIRTUAL.test(type)) continue;
    const inputs: JsonObject = {};
    widgetInputs(node, inputs);
    for (const slot of slots(node, 'inputs')) {
      if (typeof slot['name'] !== 'string') continue;
      const source = resolveLink(x, scope, slot['link']);
      if (source !== undefined) put(inputs, slot['name'], Array.isArray(source) ? source : source.value);
    }
    const id = `${scope.prefix}${String(node['id'])}`;
    x.graph.set(id, { id, classType: type, inputs });
  }
}

/** A group node's inner nodes, as `instance:index`, their links inside and the instance's own links joined in. */
function expandGroup(x: Expansion, scope: Scope, instance: JsonObject, group: GroupNode): void {
  const base = `${scope.prefix}${String(instance['id'])}:`;
  const values = innerWidgetValues(group, instance);
  const outer = slots(instance, 'inputs');
  group.nodes.forEach((inner, index) => {
    // Each inner node costs its slots too: a hostile group has thousands, and many instances of it.
    x.left -= 1 + slots(inner, 'inputs').length;
    if (x.left < 0 || typeof inner['type'] !== 'string') return;
    const inputs: JsonObject = {};
    widgetInputs({ type: inner['type'], widgets_values: values[index], inputs: inner['inputs'] }, inputs);
    slots(inner, 'inputs').forEach((slot, s) => {
      const name = slot['name'];
      if (typeof name !== 'string') return;
      const inside = group.internal.get(`${index}:${s}`);
      const at = group.inputs.get(`${index}:${name}`) ?? -1;
      const source =
        inside !== undefined
          ? ([`${base}${inside[0]}`, inside[1]] as Source)
          : at < 0
            ? undefined
            : resolveLink(x, scope, outer[at]?.['link']);
      if (source !== undefined) put(inputs, name, Array.isArray(source) ? source : source.value);
    });
    const id = `${base}${index}`;
    x.graph.set(id, { id, classType: inner['type'], inputs });
  });
}

/** Subgraph definitions by id (`definitions.subgraphs`, the new UI's nodes-inside-a-node). */
function subgraphsOf(workflow: JsonObject): Map<string, JsonObject> {
  const found = new Map<string, JsonObject>();
  const definitions = workflow['definitions'];
  for (const graph of list(isObject(definitions) ? definitions['subgraphs'] : undefined)) {
    if (typeof graph['id'] === 'string') found.set(graph['id'], graph);
  }
  return found;
}

/** The UI workflow as the API graph it runs as (nodes by id, inputs by name), for files that carry only it. */
export function workflowToGraph(workflow: JsonObject): Graph {
  const subgraphs = subgraphsOf(workflow);
  const sizeOf = (graph: JsonObject): number =>
    list(graph['nodes']).reduce((sum, node) => sum + 1 + slots(node, 'inputs').length, 0) + list(graph['links']).length;
  let size = sizeOf(workflow) + (Array.isArray(workflow['links']) ? workflow['links'].length : 0);
  for (const graph of subgraphs.values()) size += sizeOf(graph);
  const left = MIN_STEPS + 8 * size;
  const groups = groupNodesOf(workflow);
  const x: Expansion = { graph: new Map(), groups, subgraphs, left, scopes: new Map(), exits: new Map() };
  expand(
    x,
    newScope(workflow, '', () => undefined, 0),
  );
  return x.graph;
}
