import { nodeTable, type NodeTable } from './comfyui-node-lookup.js';
import { isObject, type JsonObject } from './json.js';

/** One node of a ComfyUI API graph (`{nodeId: {class_type, inputs}}`). */
export interface ComfyNode {
  id: string;
  classType: string;
  inputs: JsonObject;
}

/** Nodes by id: a Map, so an id like "constructor" is data, never a prototype member. */
export type Graph = ReadonlyMap<string, ComfyNode>;

/** Bound on every walk: graphs are small, and a cycle or a hostile file must never loop. */
export const MAX_DEPTH = 32;

/** Switches and bus nodes (rgthree's Context, often dozens in a row) one link may pass through. */
const MAX_HOPS = 256;

/** Nodes plus inputs: what a walk over the whole graph once costs. */
export function graphSize(graph: Graph): number {
  let size = graph.size;
  for (const node of graph.values()) size += Object.keys(node.inputs).length;
  return size;
}

/**
 * What the walks or searches of one file may spend (links followed, inputs looked through): in proportion to the
 * graph, so the time per KB of a hostile one stays flat, and never past `most`. Real graphs use a fraction of it;
 * depth alone bounds no total, as every sampler of a hostile graph re-walks the same huge fan of prompts.
 */
export function budgetFor(graph: Graph, perElement: number, most = 250_000): number {
  return Math.min(most, 10_000 + perElement * graphSize(graph));
}
/** The library keeps 50 problems per file: more from one walk would only be built to be dropped. */
const MAX_WALK_PROBLEMS = 50;

/** A walk over one graph, collecting what it could not follow. */
export interface Walk {
  graph: Graph;
  problems: Set<string>;
  /** Budget left; below zero the walk follows nothing more. */
  left: number;
  /** The known node classes, with a person's own rules laid over them. */
  table: NodeTable;
  /** Values already worked out, by node and output: a string node read by many encoders is joined once. */
  values: Map<string, unknown>;
}

/** Each of the 21 samplers read may walk its prompts, model and size over about the whole graph three times. */
export function newWalk(graph: Graph, table: NodeTable = nodeTable()): Walk {
  return { graph, problems: new Set(), left: budgetFor(graph, 64), table, values: new Map() };
}

export function note(walk: Walk, problem: string): void {
  if (walk.problems.size < MAX_WALK_PROBLEMS) walk.problems.add(problem);
}

/** Takes `units` from the budget; false once it is spent (said once among the problems). */
export function spend(walk: Walk, units: number): boolean {
  if (walk.left < 0) return false;
  walk.left -= units;
  if (walk.left >= 0) return true;
  walk.problems.add('The graph is too large to follow whole: some of its settings were not read.');
  return false;
}

/** A node as problems name it: a class name is short in any real graph, a hostile one is cut. */
export function label(node: ComfyNode): string {
  return `${node.classType.slice(0, 80)} #${node.id.slice(0, 40)}`;
}

export function toGraph(value: JsonObject): Graph {
  const graph = new Map<string, ComfyNode>();
  for (const [id, raw] of Object.entries(value)) {
    if (!isObject(raw) || typeof raw['class_type'] !== 'string') continue;
    graph.set(id, { id, classType: raw['class_type'], inputs: isObject(raw['inputs']) ? raw['inputs'] : {} });
  }
  return graph;
}

export function input(node: ComfyNode, name: string): unknown {
  return Object.hasOwn(node.inputs, name) ? node.inputs[name] : undefined;
}

/** An input that is `[nodeId, outputIndex]` rather than a value. */
export function isLink(value: unknown): value is [string | number | bigint, number | bigint] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    ['string', 'number', 'bigint'].includes(typeof value[0]) &&
    ['number', 'bigint'].includes(typeof value[1])
  );
}

export interface Target {
  node: ComfyNode;
  output: number;
  /** A switch whose selected input holds a value, not a link: the input that holds it. */
  selected?: string;
}

/** A switch's input that is selected: by number (1-based) or by a boolean ([when false, when true]). */
function selected(walk: Walk, node: ComfyNode, select: string, options: readonly string[]): string | undefined {
  const raw = input(node, select);
  // The selector is nearly always a widget; a linked one is read only when it is a literal primitive's.
  const value = isLink(raw) ? input(walk.graph.get(String(raw[0])) ?? node, 'value') : raw;
  if (typeof value === 'boolean') return options[value ? 1 : 0];
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1];
  return options.find((name) => isLink(input(node, name)));
}

/** The node a link leads to, through switches to the input they select; a link to a missing node is noted once. */
export function follow(walk: Walk, from: ComfyNode, name: string, value: unknown): Target | undefined {
  let source = from;
  let key = name;
  let link = value;
  for (let hops = 0; hops < MAX_HOPS; hops++) {
    if (!isLink(link) || !spend(walk, 1)) return undefined;
    const node = walk.graph.get(String(link[0]));
    if (node === undefined) {
      note(walk, `${label(source)}: ${key.slice(0, 80)} links to missing node ${String(link[0]).slice(0, 40)}`);
      return undefined;
    }
    const spec = walk.table.spec(node.classType);
    const output = Number(link[1]);
    const field = spec?.bus?.[output];
    if (field !== undefined && output > 0 && spec?.role !== 'switch') {
      // A bus passes on the input of that name, else the same output of the context it extends.
      const own = input(node, field);
      const base = input(node, 'base_ctx');
      source = node;
      key = isLink(own) ? field : 'base_ctx';
      link = isLink(own) ? own : isLink(base) ? [base[0], output] : undefined;
      continue;
    }
    if (spec?.role !== 'switch' || spec.select === undefined || spec.options === undefined) {
      return { node, output };
    }
    const chosen = selected(walk, node, spec.select, spec.options);
    if (chosen === undefined) return undefined;
    if (!isLink(input(node, chosen))) return { node, output: Number(link[1]), selected: chosen };
    source = node;
    key = chosen;
    const next = input(node, chosen) as [string, number];
    // A switch among buses (rgthree's Context Switch) passes on the same output of the context it picks.
    link = spec.bus === undefined ? next : [next[0], output];
  }
  return undefined;
}

export function followInput(walk: Walk, node: ComfyNode | undefined, name: string): ComfyNode | undefined {
  return node === undefined ? undefined : follow(walk, node, name, input(node, name))?.node;
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * The graph's nodes by id, as people number them ("2" before "10", "30:6" before "30:10"). Whole-number ids (nearly
 * all) compare as numbers: a collator on each of a large graph's million comparisons costs most of its read.
 */
export function sortedNodes(graph: Graph): ComfyNode[] {
  const keyed = [...graph.values()].map((node) => ({ node, n: /^\d{1,15}$/.test(node.id) ? Number(node.id) : NaN }));
  keyed.sort((a, b) => {
    const aNumber = !Number.isNaN(a.n);
    const bNumber = !Number.isNaN(b.n);
    if (aNumber && bNumber) return a.n - b.n;
    if (aNumber !== bNumber) return aNumber ? -1 : 1;
    return collator.compare(a.node.id, b.node.id);
  });
  return keyed.map((entry) => entry.node);
}
