import { type Fill } from './fields.js';
import { parseObject } from './json.js';
import { graphMetadata, readInvokeV3 } from './invokeai-v3.js';
import { readDream, readSdMetadata } from './invokeai-legacy.js';
import type { GeneratorRead, GeneratorReader, TextMap } from './types.js';

/** The first InvokeAI text that reads, newest format first; the ones that did not parse are named. */
function firstFill(texts: TextMap, problems: string[]): Fill | undefined {
  const metadata = texts.get('invokeai_metadata');
  const v3 = parseObject(metadata);
  if (v3 !== undefined) return readInvokeV3(v3);
  if (metadata !== undefined) problems.push('invokeai_metadata: not a JSON object');
  const graphText = texts.get('invokeai_graph');
  const graph = parseObject(graphText);
  const node = graph === undefined ? undefined : graphMetadata(graph);
  if (node !== undefined) return readInvokeV3(node);
  if (graphText !== undefined && graph === undefined) problems.push('invokeai_graph: not a JSON object');
  const legacyText = texts.get('sd-metadata');
  const legacy = parseObject(legacyText);
  if (legacy !== undefined) return readSdMetadata(legacy);
  if (legacyText !== undefined) problems.push('sd-metadata: not a JSON object');
  const dream = texts.get('Dream');
  return dream === undefined ? undefined : readDream(dream);
}

const KEYS = ['invokeai_metadata', 'invokeai_graph', 'invokeai_workflow', 'sd-metadata', 'Dream'];

/** InvokeAI 3+ (`invokeai_metadata`, `invokeai_graph`), InvokeAI 2 (`sd-metadata`) and the `Dream` line. */
export const readInvokeai: GeneratorReader = (texts: TextMap): GeneratorRead | undefined => {
  if (!KEYS.some((key) => texts.has(key))) return undefined;
  const problems: string[] = [];
  const fill = firstFill(texts, problems);
  return { source: 'invokeai', settings: fill?.settings ?? {}, problems: [...problems, ...(fill?.problems ?? [])] };
};
