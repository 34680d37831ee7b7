import sharp from 'sharp';
import { type Graph, type Planes, inputSpecs, type NodeEnv, outputSize } from './comfyui-nodes.js';
import { nestedEcho } from './echo.js';
import { makePng } from './png.js';
import { pyJson } from './pyjson.js';

/**
 * How the fake runs one queued prompt, message for message as ComfyUI 0.3.64 does (main.py prompt_worker,
 * execution.py, comfy_execution/progress.py): execution_start, execution_cached (nodes whose inputs match the last
 * prompt's), per node progress_state + executing, sampler steps as progress_state, preview frame, progress; an
 * output's executed; execution_success, the history written, then `executing {node: null}`.
 */

/** What the next POST /prompt (and the run it queues) does. */
export type ComfyScenario =
  | {
      kind: 'success';
      /** Defaults to the KSampler's steps in the graph (or 20). */
      steps?: number;
      stepMs?: number;
      /** Send a preview frame every step (as a server started with --preview-method does). */
      previews?: boolean;
      /** Time the prompt waits in the queue before it runs (cancel → /queue delete). */
      pendingMs?: number;
      /** Skip the execution_success message (older servers): only executing{node:null} signals done. */
      noSuccessMessage?: boolean;
      /** A broken server: SaveImage writes images of this size whatever the graph says. */
      outputSize?: { width: number; height: number };
      /** Steps at which the server takes this long before it looks at an interrupt again (a loaded machine). */
      slowSteps?: { from: number; ms: number };
    }
  | { kind: 'execution_error'; atStep?: number }
  /** Every socket of the client is closed at this step; the server itself keeps running the prompt. */
  | { kind: 'ws_close'; atStep?: number }
  | { kind: 'prompt_error'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'history_malformed' }
  /** /view answers 200 with bytes that are not an image. */
  | { kind: 'view_invalid' }
  | { kind: 'view_huge'; bytes: number }
  /** /prompt never answers. */
  | { kind: 'hang' };

export interface Job {
  id: string;
  number: number;
  clientId: string;
  graph: Graph;
  /** The outputs that passed validation: only what they need runs. */
  outputs: string[];
  scenario: ComfyScenario;
  status: 'pending' | 'running' | 'done' | 'deleted';
  interrupted: boolean;
  wake?: () => void;
}

/** What a run needs of the fake server around it. */
export interface RunHost {
  env: NodeEnv;
  /** Sends to the client id's current socket, if it has one (the server keeps only the newest). */
  toClient(clientId: string, message: unknown): void;
  /** Sends a preview frame: type 4 (with metadata) to a socket that asked for it, type 1 otherwise. */
  previewTo(clientId: string, jpeg: Buffer, meta: Record<string, unknown>): void;
  closeClient(clientId: string): void;
  queueStatus(): void;
  /** Server started with --preview-method (every sampler step sends a preview). */
  previews: boolean;
  stepMs: number;
  echo(): string;
  files: Map<string, Buffer>;
  history: Map<string, string>;
  /** Scenario-specific /view behaviour by file name. */
  viewBehaviour: Map<string, ComfyScenario>;
  inputSize(name: string): { width: number; height: number };
  /** The last prompt's node outputs by input signature (ComfyUI's classic cache). */
  cache: Map<string, { signature: string; images?: unknown[] }>;
  /** Per filename prefix, the next SaveImage counter. */
  counters: Map<string, number>;
  /** The node the running prompt is on, told to a client that reconnects. */
  current?: { clientId: string; node: string } | undefined;
  closed(): boolean;
}

const previewCache = new Map<string, Promise<Buffer>>();

/** A JPEG the shape of the latent, scaled to 512 on its long side (ImageOps.contain in server.py). */
function previewJpeg(latentWidth: number, latentHeight: number, step: number): Promise<Buffer> {
  const [width, height] =
    latentWidth >= latentHeight
      ? [512, Math.max(1, Math.round((latentHeight / latentWidth) * 512))]
      : [Math.max(1, Math.round((latentWidth / latentHeight) * 512)), 512];
  const key = `${width}x${height}:${step % 4}`;
  let made = previewCache.get(key);
  if (made === undefined) {
    made = sharp({ create: { width, height, channels: 3, background: { r: 40 + (step % 4) * 50, g: 90, b: 160 } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    previewCache.set(key, made);
  }
  return made;
}

/** Each needed node's input signature: its class and inputs, links replaced by the linked node's signature. */
function signatures(graph: Graph): Map<string, string> {
  const out = new Map<string, string>();
  const of = (id: string): string => {
    const known = out.get(id);
    if (known !== undefined) return known;
    const node = graph[id]!;
    const inputs = Object.fromEntries(
      Object.entries(node.inputs ?? {}).map(([k, v]) => [
        k,
        Array.isArray(v) && v.length === 2 && graph[String(v[0])] !== undefined ? [of(String(v[0])), v[1]] : v,
      ]),
    );
    const signature = JSON.stringify([id, node.class_type, inputs]);
    out.set(id, signature);
    return signature;
  };
  for (const id of Object.keys(graph)) of(id);
  return out;
}

/** The nodes the outputs need, each after its inputs (depth first from each output, inputs in order). */
function executionOrder(graph: Graph, outputs: readonly string[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || graph[id] === undefined) return;
    seen.add(id);
    for (const value of Object.values(graph[id].inputs ?? {}))
      if (Array.isArray(value) && value.length === 2) visit(String(value[0]));
    order.push(id);
  };
  for (const output of outputs) visit(output);
  return order;
}

export async function runJob(job: Job, host: RunHost): Promise<void> {
  const { graph, scenario } = job;
  const success = scenario.kind === 'success' ? scenario : undefined;
  const p = job.id;
  const now = () => Date.now();
  const send = (message: unknown) => host.toClient(job.clientId, message);
  const tail = () => (host.echo() === '' ? '' : ` ${host.echo()}`);
  // A step in progress finishes before the server looks at an interrupt; a quick one is cut short to keep tests fast.
  const pause = (ms: number, wakeable: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      job.wake = () => {
        if (!wakeable) return;
        clearTimeout(timer);
        resolve();
      };
    });
  const order = executionOrder(graph, job.outputs);
  const signature = signatures(graph);
  const previous = new Map(host.cache);
  const cached = order.filter((id) => previous.get(id)?.signature === signature.get(id));
  const messages: unknown[][] = [];
  const record = (type: string, data: Record<string, unknown>) => {
    messages.push([type, data]);
    send({ type, data });
  };
  const progressState = (nodes: Record<string, { value: number; max: number; state: string }>) =>
    send({
      type: 'progress_state',
      data: {
        prompt_id: p,
        nodes: Object.fromEntries(
          Object.entries(nodes).map(([id, n]) => [
            id,
            { ...n, node_id: id, prompt_id: p, display_node_id: id, parent_node_id: null, real_node_id: id },
          ]),
        ),
      },
    });
  const finishWith = (status: 'success' | 'error', outputs: Record<string, unknown>, meta: Record<string, unknown>) => {
    host.history.set(
      p,
      pyJson({
        [p]: {
          prompt: [job.number, p, graph, { client_id: job.clientId }, job.outputs],
          outputs,
          status: { status_str: status, completed: status === 'success', messages },
          meta,
        },
      }),
    );
    job.status = 'done';
    host.current = undefined;
    host.queueStatus();
    send({ type: 'executing', data: { node: null, prompt_id: p } });
  };

  record('execution_start', { prompt_id: p, timestamp: now() });
  record('execution_cached', { nodes: cached, prompt_id: p, timestamp: now() });
  // Graphs that start from an uploaded image get outputs of their real size; text graphs their latent's.
  const sizeOf = (id: string): Planes | undefined => {
    try {
      return outputSize(graph, id, (name) => host.inputSize(name));
    } catch {
      return undefined;
    }
  };
  const executed: string[] = [];
  const states: Record<string, { value: number; max: number; state: string }> = {};
  const outputs: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  host.cache.clear();
  for (const id of order) {
    const node = graph[id]!;
    const type = node.class_type ?? '';
    if (cached.includes(id)) {
      host.cache.set(id, previous.get(id)!);
      continue;
    }
    if (job.interrupted || host.closed()) break;
    states[id] = { value: 0, max: 1, state: 'running' };
    progressState(states);
    send({ type: 'executing', data: { node: id, display_node: id, prompt_id: p } });
    host.current = { clientId: job.clientId, node: id };
    if (type === 'LoadImage') {
      const name = String(node.inputs?.image);
      try {
        host.inputSize(name);
      } catch {
        // What ComfyUI does with a file PIL cannot open: LoadImage fails at run time, naming the file by its path.
        const data = {
          prompt_id: p,
          node_id: id,
          node_type: type,
          executed,
          exception_message: `cannot identify image file '/fake-comfyui/input/${name}'\n`,
          exception_type: 'PIL.UnidentifiedImageError',
          traceback: [],
          current_inputs: {},
          current_outputs: [],
          timestamp: now(),
        };
        record('execution_error', data);
        finishWith('error', {}, {});
        return;
      }
    }
    if (type === 'KSampler') {
      const latent = sizeOf(String((node.inputs?.latent_image as unknown[] | undefined)?.[0])) ?? {
        width: 512,
        height: 512,
        batch: 1,
      };
      const steps = success?.steps ?? (typeof node.inputs?.steps === 'number' ? node.inputs.steps : 20);
      for (let step = 1; step <= steps; step += 1) {
        if (job.interrupted || host.closed()) break;
        if (scenario.kind === 'execution_error' && step === (scenario.atStep ?? 1)) {
          const t = tail();
          const error = {
            prompt_id: p,
            node_id: id + t,
            node_type: `KSampler${t}`,
            executed,
            exception_message: `CUDA out of memory. Tried to allocate 2.00 GiB${t}\n`,
            exception_type: `torch.OutOfMemoryError${t}`,
            traceback: [`...${t}`],
            current_inputs: host.echo() === '' ? {} : nestedEcho(host.echo()),
            current_outputs: [],
            timestamp: now(),
          };
          record('execution_error', error);
          finishWith('error', {}, {});
          return;
        }
        if (scenario.kind === 'ws_close' && step === (scenario.atStep ?? 2)) host.closeClient(job.clientId);
        const slow = success?.slowSteps !== undefined && step >= success.slowSteps.from ? success.slowSteps.ms : 0;
        await pause(Math.max(slow, success?.stepMs ?? host.stepMs), slow === 0);
        if (job.interrupted) break;
        states[id] = { value: step, max: steps, state: 'running' };
        progressState(states);
        if (host.previews || success?.previews === true) {
          const jpeg = await previewJpeg(
            Math.max(1, Math.floor(latent.width / 8)),
            Math.max(1, Math.floor(latent.height / 8)),
            step,
          );
          host.previewTo(job.clientId, jpeg, {
            node_id: id,
            prompt_id: p,
            display_node_id: id,
            parent_node_id: null,
            real_node_id: id,
          });
        }
        send({ type: 'progress', data: { value: step, max: steps, prompt_id: p, node: id + tail() } });
      }
      if (job.interrupted || host.closed()) break;
    }
    if (type === 'ImageUpscaleWithModel') {
      states[id] = { value: 1, max: 1, state: 'running' };
      progressState(states);
      send({ type: 'progress', data: { value: 1, max: 1, prompt_id: p, node: id } });
    }
    if (type === 'SaveImage' || type === 'PreviewImage') {
      const size = success?.outputSize ?? sizeOf(id) ?? { width: 64, height: 64, batch: 1 };
      const batch = sizeOf(id)?.batch ?? 1;
      // PreviewImage writes to temp/ under "ComfyUI_temp_" and five random letters (nodes.py PreviewImage).
      const where = type === 'SaveImage' ? 'output' : 'temp';
      const prefix =
        type === 'SaveImage'
          ? String(node.inputs?.filename_prefix ?? 'ComfyUI')
          : `ComfyUI_temp_${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
      const images = Array.from({ length: batch }, (_, i) => {
        const counter = host.counters.get(prefix) ?? 1;
        host.counters.set(prefix, counter + 1);
        const filename = `${prefix}_${String(counter).padStart(5, '0')}_${host.echo() === '' ? '' : `${host.echo()}_`}.png`;
        host.files.set(`${where}//${filename}`, makePng(size.width, size.height, [(i * 60) % 256, 90, 160]));
        if (scenario.kind === 'view_invalid' || scenario.kind === 'view_huge')
          host.viewBehaviour.set(filename, scenario);
        return { filename, subfolder: '', type: where };
      });
      outputs[id] = { images };
      meta[id] = { node_id: id, display_node: id, parent_node: null, real_node_id: id };
      send({ type: 'executed', data: { node: id, display_node: id, output: { images }, prompt_id: p } });
      host.cache.set(id, { signature: signature.get(id)!, images });
    } else host.cache.set(id, { signature: signature.get(id)! });
    executed.push(id);
    states[id] = { ...states[id]!, state: 'finished' };
    progressState(states);
  }
  if (host.closed()) return;
  if (job.interrupted) {
    const at = order.find((id) => !executed.includes(id) && !cached.includes(id)) ?? order.at(-1)!;
    // Only the prompt's own client hears it (send_sync with the client id), like every execution message.
    record('execution_interrupted', {
      prompt_id: p,
      node_id: at,
      node_type: graph[at]?.class_type,
      executed,
      timestamp: now(),
    });
    finishWith('error', {}, {});
    return;
  }
  // A cached output is not run again: its earlier files are sent as they were.
  for (const id of order.filter(
    (n) => cached.includes(n) && inputSpecs(graph[n]!.class_type ?? '', host.env)?.output_node === true,
  )) {
    const images = host.cache.get(id)?.images ?? [];
    outputs[id] = { images };
    meta[id] = { node_id: id, display_node: id, parent_node: null, real_node_id: id };
    send({ type: 'executed', data: { node: id, display_node: id, output: { images }, prompt_id: p } });
    progressState({ [id]: { value: 1, max: 1, state: 'finished' } });
  }
  if (scenario.kind === 'history_malformed') {
    const first = Object.values(outputs)[0] as { images: { filename: string }[] } | undefined;
    host.history.set(p, `{"${p}": {"outputs": {"9": {"images": [{"filename": "${first?.images[0]?.filename ?? ''}`);
    job.status = 'done';
    host.current = undefined;
    if (success?.noSuccessMessage !== true)
      send({ type: 'execution_success', data: { prompt_id: p, timestamp: now() } });
    host.queueStatus();
    send({ type: 'executing', data: { node: null, prompt_id: p } });
    return;
  }
  messages.push(['execution_success', { prompt_id: p, timestamp: now() }]);
  if (success?.noSuccessMessage !== true) send({ type: 'execution_success', data: { prompt_id: p, timestamp: now() } });
  finishWith('success', outputs, meta);
}
