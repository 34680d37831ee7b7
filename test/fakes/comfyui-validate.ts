import { type Graph, type NodeEnv, inputSpecs } from './comfyui-nodes.js';

/**
 * /prompt validation the way ComfyUI 0.3.64 does it (execution.py validate_prompt and validate_inputs): per output,
 * each node checked once, its errors listed under the outputs that depend on it; a prompt whose every output fails
 * is refused, one with some good outputs runs those and lists the rest.
 */

export interface InputError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

export interface NodeErrors {
  errors: InputError[];
  dependent_outputs: string[];
  class_type: string;
}

export type Validation =
  | { ok: true; outputs: string[]; nodeErrors: Record<string, NodeErrors> }
  | {
      ok: false;
      error: { type: string; message: string; details: string; extra_info: Record<string, unknown> };
      nodeErrors: Record<string, NodeErrors>;
    };

/** Python's repr of a list of strings, as str(list) prints it. */
function pyList(values: readonly unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(v))).join(', ')}]`;
}

/** A number as Python prints an int or a float. */
function pyNumber(value: number, type: string): string {
  return type === 'FLOAT' && Number.isInteger(value) ? `${value}.0` : String(value);
}

class KeyError extends Error {}

/** int(val) / float(val) as Python converts them, or the exception message it raises. */
function convert(value: unknown, type: string): { value: unknown } | { error: string } {
  if (type === 'INT' || type === 'FLOAT') {
    if (typeof value === 'number') return { value: type === 'INT' ? Math.trunc(value) : value };
    if (typeof value === 'boolean') return { value: value ? 1 : 0 };
    const text = String(value);
    const ok =
      type === 'INT' ? /^\s*[-+]?\d+\s*$/.test(text) : /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text);
    if (!ok)
      return {
        error:
          type === 'INT'
            ? `invalid literal for int() with base 10: '${text}'`
            : `could not convert string to float: '${text}'`,
      };
    return { value: Number(text) };
  }
  if (type === 'STRING') return { value: String(value) };
  if (type === 'BOOLEAN') return { value: Boolean(value) };
  return { value };
}

/** Inputs a node checks itself (VALIDATE_INPUTS): no combo or range check for them, their own message instead. */
const SELF_CHECKED: Record<string, Record<string, (value: unknown, env: NodeEnv) => string | true>> = {
  LoadImage: {
    image: (value, env) => (env.inputFiles().includes(String(value)) ? true : `Invalid image file: ${String(value)}`),
  },
  LoadImageMask: {
    image: (value, env) => (env.inputFiles().includes(String(value)) ? true : `Invalid image file: ${String(value)}`),
  },
};

type Result = [boolean, InputError[]];

function validateInputs(graph: Graph, id: string, validated: Map<string, Result>, env: NodeEnv): Result {
  const known = validated.get(id);
  if (known !== undefined) return known;
  const node = graph[id]!;
  const classType = node.class_type!;
  const info = inputSpecs(classType, env);
  if (info === undefined) {
    // A custom node the test installed: nothing to check.
    validated.set(id, [true, []]);
    return [true, []];
  }
  const inputs = node.inputs ?? {};
  const errors: InputError[] = [];
  let valid = true;
  const specs: [string, unknown[], boolean][] = [
    ...Object.entries(info.input.required ?? {}).map(([k, v]) => [k, v, true] as [string, unknown[], boolean]),
    ...Object.entries(info.input.optional ?? {}).map(([k, v]) => [k, v, false] as [string, unknown[], boolean]),
  ];
  for (const [name, spec, required] of specs) {
    const inputType = spec[0];
    const extra = (spec[1] ?? {}) as Record<string, unknown>;
    if (!(name in inputs)) {
      if (required)
        errors.push({
          type: 'required_input_missing',
          message: 'Required input is missing',
          details: name,
          extra_info: { input_name: name },
        });
      continue;
    }
    let value = inputs[name];
    if (Array.isArray(value)) {
      if (value.length !== 2) {
        errors.push({
          type: 'bad_linked_input',
          message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
          details: name,
          extra_info: { input_name: name, input_config: spec, received_value: value },
        });
        continue;
      }
      const source = graph[String(value[0])];
      // prompt[o_id] raises KeyError in validate_inputs; the caller's try reports it against this node.
      if (source === undefined) throw new KeyError(`'${String(value[0])}'`);
      const outputs = inputSpecs(source.class_type ?? '', env)?.output;
      const received = outputs?.[Number(value[1])];
      if (
        received !== undefined &&
        typeof inputType === 'string' &&
        received !== inputType &&
        received !== '*' &&
        inputType !== '*'
      ) {
        errors.push({
          type: 'return_type_mismatch',
          message: 'Return type mismatch between linked nodes',
          details: `${name}, received_type(${received}) mismatch input_type(${inputType})`,
          extra_info: { input_name: name, input_config: spec, received_type: received, linked_node: value },
        });
        continue;
      }
      try {
        const [ok] = validateInputs(graph, String(value[0]), validated, env);
        if (!ok) valid = false;
      } catch (error) {
        if (!(error instanceof KeyError)) throw error;
        valid = false;
        validated.set(String(value[0]), [
          false,
          [
            {
              type: 'exception_during_inner_validation',
              message: 'Exception when validating inner node',
              details: error.message,
              extra_info: {
                input_name: name,
                input_config: spec,
                exception_message: error.message,
                exception_type: 'KeyError',
                traceback: [],
                linked_node: value,
              },
            },
          ],
        ]);
      }
      continue;
    }
    const type = inputType === 'COMBO' ? (extra.options as unknown[]) : inputType;
    if (typeof type === 'string') {
      const converted = convert(value, type);
      if ('error' in converted) {
        errors.push({
          type: 'invalid_input_type',
          message: `Failed to convert an input value to a ${type} value`,
          details: `${name}, ${String(value)}, ${converted.error}`,
          extra_info: {
            input_name: name,
            input_config: spec,
            received_value: value,
            exception_message: converted.error,
          },
        });
        continue;
      }
      value = converted.value;
    }
    const selfCheck = SELF_CHECKED[classType]?.[name];
    if (selfCheck !== undefined) {
      const said = selfCheck(value, env);
      if (said !== true)
        errors.push({
          type: 'custom_validation_failed',
          message: 'Custom validation failed for node',
          details: `${name} - ${said}`,
          extra_info: { input_name: name },
        });
      continue;
    }
    if (typeof type === 'string' && typeof value === 'number') {
      if (typeof extra.min === 'number' && value < extra.min) {
        errors.push({
          type: 'value_smaller_than_min',
          message: `Value ${pyNumber(value, type)} smaller than min of ${pyNumber(extra.min, type)}`,
          details: name,
          extra_info: { input_name: name, input_config: spec, received_value: value },
        });
        continue;
      }
      if (typeof extra.max === 'number' && value > extra.max) {
        errors.push({
          type: 'value_bigger_than_max',
          message: `Value ${pyNumber(value, type)} bigger than max of ${pyNumber(extra.max, type)}`,
          details: name,
          extra_info: { input_name: name, input_config: spec, received_value: value },
        });
        continue;
      }
    }
    if (Array.isArray(type) && !type.includes(value)) {
      // Long lists (scanned model files) are not sent back.
      const long = type.length > 20;
      errors.push({
        type: 'value_not_in_list',
        message: 'Value not in list',
        details: `${name}: '${String(value)}' not in ${long ? `(list of length ${type.length})` : pyList(type)}`,
        extra_info: { input_name: name, input_config: long ? null : spec, received_value: value },
      });
    }
  }
  const result: Result = [errors.length === 0 && valid, errors];
  validated.set(id, result);
  return result;
}

export function validatePrompt(graph: Graph, env: NodeEnv): Validation {
  const invalid = (message: string, details: string) => ({
    ok: false as const,
    error: { type: 'invalid_prompt', message, details, extra_info: {} },
    nodeErrors: {},
  });
  const outputs: string[] = [];
  for (const [id, node] of Object.entries(graph)) {
    if (typeof node?.class_type !== 'string')
      return invalid('Cannot execute because a node is missing the class_type property.', `Node ID '#${id}'`);
    const info = inputSpecs(node.class_type, env);
    if (info === undefined && !(env.extraNodes ?? []).includes(node.class_type))
      return invalid(`Cannot execute because node ${node.class_type} does not exist.`, `Node ID '#${id}'`);
    if (info?.output_node === true) outputs.push(id);
  }
  if (outputs.length === 0)
    return {
      ok: false,
      error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} },
      nodeErrors: {},
    };
  const good: string[] = [];
  const failed: [string, InputError[]][] = [];
  const nodeErrors: Record<string, NodeErrors> = {};
  const validated = new Map<string, Result>();
  for (const output of outputs) {
    let result: Result;
    try {
      result = validateInputs(graph, output, validated, env);
    } catch (error) {
      result = [
        false,
        [
          {
            type: 'exception_during_validation',
            message: 'Exception when validating node',
            details: (error as Error).message,
            extra_info: { exception_type: 'KeyError', traceback: [] },
          },
        ],
      ];
      validated.set(output, result);
    }
    if (result[0]) {
      good.push(output);
      continue;
    }
    failed.push([output, result[1]]);
    for (const [id, [ok, reasons]] of validated) {
      if (ok || reasons.length === 0) continue;
      nodeErrors[id] ??= { errors: reasons, dependent_outputs: [], class_type: graph[id]!.class_type! };
      nodeErrors[id].dependent_outputs.push(output);
    }
  }
  if (good.length === 0) {
    const details = failed.flatMap(([, reasons]) => reasons.map((r) => `${r.message}: ${r.details}`)).join('\n');
    return {
      ok: false,
      error: {
        type: 'prompt_outputs_failed_validation',
        message: 'Prompt outputs failed validation',
        details,
        extra_info: {},
      },
      nodeErrors,
    };
  }
  return { ok: true, outputs: good, nodeErrors };
}
