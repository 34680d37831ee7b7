import { AppError } from '../../../shared/errors.js';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, redact } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';

/**
 * ComfyUI's /prompt rejections (execution.py validate_prompt and validate_inputs, 0.3.64) in words a person can act
 * on. Every shape keeps both halves the server sends: a range error names only the input in `details` ("width") and
 * the reason in `message` ("Value 4 smaller than min of 16"), so neither half alone explains it.
 */

interface InputError {
  type?: unknown;
  message?: unknown;
  details?: unknown;
  extra_info?: unknown;
}

interface NodeError {
  class_type?: unknown;
  errors?: unknown;
  dependent_outputs?: unknown;
}

const MAX_NODES = 5;

function clean(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

/** "a: b", or "a (b)" when a already ends its sentence, so the pair never reads "….: b". */
export function joinClauses(first: string, second: string): string {
  if (second === '') return first;
  if (first === '') return second;
  if (/[.!?]$/.test(first)) return `${first.slice(0, -1)} (${second})`;
  return `${first}: ${second}`;
}

/** One input's problem: "width: Value 4 smaller than min of 16", "sampler_name: Value not in list: 'x' not in […]". */
export function describeInputError(error: InputError): string {
  const type = clean(error.type);
  const message = clean(error.message);
  let details = clean(error.details);
  const extra = (error.extra_info !== null && typeof error.extra_info === 'object' ? error.extra_info : {}) as Record<
    string,
    unknown
  >;
  const input = clean(extra.input_name);
  if (type === 'exception_during_inner_validation') {
    // input_name here is the consumer's input, not the broken node's: naming it would mislead.
    const missing = /^'(.*)'$/.exec(details);
    const gloss =
      extra.exception_type === 'KeyError' && missing !== null
        ? ` (a link names node ${missing[1]}, which is not in the workflow)`
        : '';
    return `${joinClauses(message, details)}${gloss}`;
  }
  // details often starts with the input's name ("ckpt_name: 'x' not in …", "steps, {{steps}}, …", "image - …").
  if (input !== '' && details.startsWith(input)) details = details.slice(input.length).replace(/^\s*[:,-]\s*/, '');
  const core = joinClauses(message === '' ? type : message, details);
  return input === '' ? core : `${input}: ${core}`;
}

/** "node 5 (EmptyLatentImage): width: …" for each node the server named, in node order. */
export function describeNodeErrors(nodeErrors: unknown): string[] {
  if (nodeErrors === null || typeof nodeErrors !== 'object') return [];
  // Only entries shaped like node errors count: a proxy or a careless server may put anything there.
  const entries = Object.entries(nodeErrors as Record<string, NodeError>)
    .filter(([, node]) => node !== null && typeof node === 'object' && Array.isArray(node.errors))
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  return entries.map(([id, node]) => {
    const errors = (node.errors as unknown[]).filter((e): e is InputError => e !== null && typeof e === 'object');
    const what = errors.length === 0 ? 'invalid' : errors.map(describeInputError).join('; ');
    return `node ${id} (${clean(node.class_type) || 'unknown node'}): ${what}`;
  });
}

/** The output nodes the server will not run, from every node error's dependent_outputs. */
export function droppedOutputs(nodeErrors: unknown): Set<string> {
  const dropped = new Set<string>();
  if (nodeErrors === null || typeof nodeErrors !== 'object') return dropped;
  for (const node of Object.values(nodeErrors as Record<string, NodeError>)) {
    if (Array.isArray(node?.dependent_outputs)) for (const id of node.dependent_outputs) dropped.add(String(id));
  }
  return dropped;
}

/** What the server said in a rejection body, as one sentence; and its error type. */
export function describeRejection(json: unknown): { said?: string; type?: string } {
  const body = (json !== null && typeof json === 'object' ? json : {}) as { error?: unknown; node_errors?: unknown };
  const nodes = describeNodeErrors(body.node_errors);
  const shown =
    nodes.slice(0, MAX_NODES).join('; ') +
    (nodes.length > MAX_NODES ? `; and ${nodes.length - MAX_NODES} more nodes` : '');
  if (typeof body.error === 'string')
    return { said: nodes.length === 0 ? clean(body.error) : `${clean(body.error)} — ${shown}` };
  const error = (body.error !== null && typeof body.error === 'object' ? body.error : {}) as InputError;
  const type = clean(error.type) || undefined;
  const message = clean(error.message);
  const details = clean(error.details);
  // Older servers repeat the node errors in details; the node list says them better.
  if (nodes.length > 0)
    return {
      said: `${message || 'Prompt outputs failed validation'} — ${shown}`,
      ...(type === undefined ? {} : { type }),
    };
  let said = joinClauses(message, details === message ? '' : details);
  if (type === 'prompt_no_outputs') said = joinClauses(said, 'the workflow needs an output node such as SaveImage');
  return { ...(said === '' ? {} : { said }), ...(type === undefined ? {} : { type }) };
}

/** A /prompt (or other) answer that is not 200, as the AppError a person reads. */
export async function promptError(response: Response, scope: CallScope): Promise<AppError> {
  let said: string | undefined;
  let type: string | undefined;
  try {
    const bytes = await readBounded(response, 256 * 1024, scope);
    const text = bytes.toString('utf8').trim();
    // A server bug answers 500 in plain text ("500 Internal Server Error …"); it is still worth quoting.
    if (text !== '' && !/^[{[]/.test(text)) said = clean(text).slice(0, 200);
    else if (text !== '') ({ said, type } = describeRejection(parseJsonSync(bytes, scope, 'an error response')));
  } catch {
    // The status still classifies it (a 403 with an empty body is the Origin check).
  }
  const base = {
    status: response.status,
    headers: response.headers,
    ...(said === undefined ? {} : { providerMessage: said }),
    ...(type === undefined ? {} : { providerCode: type }),
  };
  if (response.status === 400) return statusError({ ...base, message: 'ComfyUI rejected the workflow.' }, scope);
  return statusError(base, scope);
}

/**
 * A 200 that still lists node_errors: ComfyUI validates per output and runs only the valid ones. The job fails
 * when every output Atelier reads from was dropped; otherwise the dropped part is said on the job.
 */
export function acceptedWithErrors(
  nodeErrors: unknown,
  readsFrom: readonly string[],
  scope: CallScope,
): { warning?: string; error?: AppError } {
  const nodes = describeNodeErrors(nodeErrors);
  if (nodes.length === 0) return {};
  const dropped = droppedOutputs(nodeErrors);
  const said = redact(nodes.slice(0, MAX_NODES).join('; '), scope.secrets);
  const lost = [...dropped].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const named = `output node${lost.length === 1 ? '' : 's'} ${lost.join(', ')}`;
  if (readsFrom.length > 0 && readsFrom.every((id) => dropped.has(id))) {
    return {
      error: new AppError(
        'provider_rejected',
        `ComfyUI dropped the part of the workflow Atelier reads images from (${named}) because it failed validation: ` +
          `${said}`,
        {
          retryable: false,
          details: { phase: 'after_send', droppedOutputs: lost, providerMessage: said },
        },
      ),
    };
  }
  return { warning: `ComfyUI ran the workflow without ${named}, which failed validation: ${said}` };
}
