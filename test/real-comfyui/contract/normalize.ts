import type { Answer, Heard } from './wire.js';

/**
 * What of a server's answers the contract compares: everything that is the same on every run of the same ComfyUI
 * (shapes, orders, messages, sizes) and nothing that is not (ids, timestamps, counters, file paths, timings).
 */

const sortedKeys = (value: unknown): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).sort() : [];

/** Replaces run-specific values: this run's ids, file counters and absolute paths. */
export function scrub(value: unknown, ids: Record<string, string> = {}): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [id, name] of Object.entries(ids)) out = out.split(id).join(name);
    // SaveImage counters ("Contract_00003_.png") depend on what the folder held before.
    out = out.replace(/_\d{5}_\./g, '_#####_.');
    // PreviewImage names its temp files with five random letters ("ComfyUI_temp_abcde_00001_.png").
    out = out.replace(/_temp_[a-z]{5}_/g, '_temp_?????_');
    // An absolute path on the server ("/tmp/x/in/name.png") is the server's own business; its file name is not.
    out = out.replace(/'\/[^']*\/([^/']+)'/g, "'<dir>/$1'");
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, ids));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (k === 'timestamp' || k === 'traceback') continue;
      out[scrub(k, ids) as string] = scrub(v, ids);
    }
    return out;
  }
  return value;
}

/** An answer with its body scrubbed; the queue number and prompt id are run-specific. */
export function answer(a: Answer, ids: Record<string, string> = {}): unknown {
  const json = a.json === undefined ? undefined : (scrub(a.json, ids) as Record<string, unknown>);
  if (json !== undefined && typeof json === 'object' && json !== null && 'number' in json) json.number = '<number>';
  return { status: a.status, contentType: a.contentType, ...(json === undefined ? { text: a.text ?? '' } : { json }) };
}

export interface TokenOptions {
  /** Keep `executing` only for these nodes (and the end signal); the order of cached-or-not loaders varies. */
  executing?: string[];
  /** Drop these kinds of tokens entirely. */
  drop?: ('progress' | 'preview' | 'progress_state' | 'executing' | 'feature_flags')[];
}

/** The message sequence as words: "executing:3", "progress:3 1/2", "preview:4:image/jpeg:512x512"… (status left out). */
export function tokens(heard: Heard[], promptId: string, options: TokenOptions = {}): string[] {
  const out: string[] = [];
  const drop = new Set(options.drop ?? []);
  for (const h of heard) {
    let token: string | undefined;
    let kind: string;
    if ('binary' in h) {
      kind = 'preview';
      const b = h.binary;
      token = `preview:${b.event}:${b.mime ?? '?'}:${b.size?.join('x') ?? '?'}`;
    } else {
      const { type, data } = h.text;
      kind = type;
      if (type === 'status') continue;
      if (data?.prompt_id !== undefined && data.prompt_id !== promptId) continue;
      if (type === 'executing') {
        const node = data.node === null ? 'null' : String(data.node);
        if (node !== 'null' && options.executing !== undefined && !options.executing.includes(node)) continue;
        token = `executing:${node}${data.prompt_id === undefined ? ' (no prompt id)' : ''}`;
      } else if (type === 'progress') token = `progress:${String(data.node)} ${String(data.value)}/${String(data.max)}`;
      else if (type === 'executed') token = `executed:${String(data.node)}`;
      else token = type;
    }
    if (drop.has(kind as 'progress')) continue;
    if (token === 'progress_state' && out.at(-1) === 'progress_state') continue;
    out.push(token);
  }
  return out;
}

/** For each message type: the keys its data carries (and, for binary frames, the metadata's keys). */
export function shapes(heard: Heard[]): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const h of heard) {
    const [type, keys] =
      'binary' in h ? [`binary:${h.binary.event}`, sortedKeys(h.binary.meta)] : [h.text.type, sortedKeys(h.text.data)];
    out[type] ??= new Set();
    for (const k of keys) out[type].add(k);
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((type) => [type, [...out[type]!].sort()]),
  );
}

/** One /history/{id} entry: the prompt tuple's shape, outputs, status messages and meta. */
export function historyEntry(json: unknown, promptId: string): unknown {
  const entry = (json as Record<string, unknown> | undefined)?.[promptId];
  if (entry === undefined) return { entry: 'none', keys: sortedKeys(json) };
  const e = entry as {
    prompt?: unknown[];
    outputs?: Record<string, { images?: unknown[] }>;
    status?: { status_str?: unknown; completed?: unknown; messages?: unknown[][] };
    meta?: unknown;
  };
  return {
    keys: sortedKeys(e),
    prompt: Array.isArray(e.prompt)
      ? { length: e.prompt.length, id: e.prompt[1] === promptId, extra: sortedKeys(e.prompt[3]), outputs: e.prompt[4] }
      : 'missing',
    outputs: Object.fromEntries(
      Object.entries(e.outputs ?? {}).map(([id, o]) => [
        id,
        { keys: sortedKeys(o), images: (o.images ?? []).map((i) => scrub(i)) },
      ]),
    ),
    status: {
      status_str: e.status?.status_str,
      completed: e.status?.completed,
      messages: (e.status?.messages ?? []).map((m) => m[0]),
    },
    meta: scrub(e.meta),
  };
}

/** What /queue holds of these prompts. */
export function queueHolds(json: unknown, ids: Record<string, string>): { running: string[]; pending: string[] } {
  const q = json as { queue_running?: unknown[][]; queue_pending?: unknown[][] };
  const name = (item: unknown[]) => ids[String(item[1])] ?? 'other';
  return { running: (q.queue_running ?? []).map(name), pending: (q.queue_pending ?? []).map(name) };
}
