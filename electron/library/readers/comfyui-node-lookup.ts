/** The node table as the tracer asks it: a class's spec, the inputs that hold a field, a person's rules laid over. */
import { DEFAULT_FIELDS, NODE_TABLE } from './comfyui-node-table.js';
import type { ComfyNodeRule, NodeField, NodeSpec } from './comfyui-node-types.js';

/** The table as a Map: looked up for every node of a graph, several times. */
const SPECS: ReadonlyMap<string, NodeSpec> = new Map(Object.entries(NODE_TABLE));

/** Words a class name uses when it writes images or samples, for classes the table does not list. */
const OUTPUT_CLASS = /save|preview|image\s*saver/i;

/** The table with a person's rules laid over it (their input is tried before the table's for that field). */
export interface NodeTable {
  spec(classType: string): NodeSpec | undefined;
  /** The inputs that may hold `field` on a node of this class, most specific first. */
  fieldInputs(classType: string, field: NodeField): readonly string[];
  /** Every input a person's rule names on this class: a value node of theirs gives out what it holds there. */
  ruleInputs(classType: string): readonly string[];
  isOutputClass(classType: string): boolean;
}

export function nodeTable(rules: readonly ComfyNodeRule[] = []): NodeTable {
  const extra = new Map<string, Map<NodeField, string[]>>();
  for (const rule of rules) {
    if (
      typeof rule?.classType !== 'string' ||
      typeof rule.input !== 'string' ||
      !Object.hasOwn(DEFAULT_FIELDS, rule.field)
    )
      continue;
    const byField = extra.get(rule.classType) ?? new Map<NodeField, string[]>();
    byField.set(rule.field, [...(byField.get(rule.field) ?? []), rule.input]);
    extra.set(rule.classType, byField);
  }
  const cache = new Map<string, readonly string[]>();
  const outputs = new Map<string, boolean>();
  const spec = (classType: string): NodeSpec | undefined => SPECS.get(classType);
  return {
    spec,
    fieldInputs(classType, field) {
      const key = `${field}\u0000${classType}`;
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const own = extra.get(classType)?.get(field) ?? [];
      const listed = spec(classType)?.fields?.[field];
      const found = [...own, ...(listed ?? (spec(classType)?.fields === undefined ? DEFAULT_FIELDS[field] : []))];
      if (cache.size < 10_000) cache.set(key, found);
      return found;
    },
    ruleInputs(classType) {
      return [...(extra.get(classType)?.values() ?? [])].flat();
    },
    isOutputClass(classType) {
      const known = outputs.get(classType);
      if (known !== undefined) return known;
      const output = spec(classType)?.role === 'output' || OUTPUT_CLASS.test(classType);
      if (outputs.size < 10_000) outputs.set(classType, output);
      return output;
    },
  };
}
