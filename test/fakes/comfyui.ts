import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { NODES, type NodeEnv, objectInfo, outputSize, validateGraph } from './comfyui-nodes.js';
import { credentialEcho, echoEverywhere, nestedEcho } from './echo.js';
import { makePng, pngFor } from './png.js';
import { pyJson } from './pyjson.js';
import { type LoggedRequest, Script, sendText, startHttpFake, streamHugeBody } from './server.js';

/** What the next POST /prompt (and the run it queues) does. */
export type ComfyScenario =
  | {
      kind: 'success';
      /** Defaults to the KSampler's steps in the graph (or 20). */
      steps?: number;
      stepMs?: number;
      /** Send a binary preview frame every step. */
      previews?: boolean;
      /** Time the prompt waits in the queue before it runs (cancel → /queue delete). */
      pendingMs?: number;
      /** Skip the execution_success message (older servers): only executing{node:null} signals done. */
      noSuccessMessage?: boolean;
      /** A broken server: SaveImage writes images of this size whatever the graph says. */
      outputSize?: { width: number; height: number };
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

export const comfyErrors = {
  validation: (): ComfyScenario => ({
    kind: 'prompt_error',
    status: 400,
    body: {
      error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} },
      node_errors: {
        '4': {
          errors: [{ type: 'value_not_in_list', message: 'Value not in list', details: "ckpt_name: 'x.safetensors' not in (list of length 2)", extra_info: { input_name: 'ckpt_name', input_config: null, received_value: 'x.safetensors' } }],
          dependent_outputs: ['9'],
          class_type: 'CheckpointLoaderSimple',
        },
      },
    },
  }),
  unauthorized: (): ComfyScenario => ({ kind: 'prompt_error', status: 401, body: { error: 'Unauthorized' } }),
  rateLimited: (seconds = 2): ComfyScenario => ({ kind: 'prompt_error', status: 429, body: { error: 'Too Many Requests' }, headers: { 'retry-after': String(seconds) } }),
  serverError: (): ComfyScenario => ({ kind: 'prompt_error', status: 500, body: { error: 'Internal Server Error' } }),
  unavailable: (): ComfyScenario => ({ kind: 'prompt_error', status: 503, body: { error: 'Service Unavailable' } }),
};

export interface FakeComfyOptions {
  scenario?: ComfyScenario;
  checkpoints?: string[];
  /** Answer /object_info with the newer ["COMBO", {options}] spec. */
  comboSpec?: boolean;
  /** A careless server (or the proxy in front of it): the credentials it was sent come back everywhere. */
  echoCredentials?: boolean;
  /** Files in models/upscale_models (UpscaleModelLoader's model_name list); none by default. */
  upscaleModels?: string[];
  /** An older server without `overwrite`: a new file under a taken name is always renamed "x (1).png". */
  ignoreOverwrite?: boolean;
  /** /upload/image answers this instead of doing its work (a broken proxy, a server bug). */
  uploadAnswer?: { status: number; body: unknown };
}

/** One POST /upload/image as the fake received it: the multipart fields and the file's exact bytes. */
export interface UploadLog {
  /** The file name the client sent. */
  filename: string;
  contentType: string | undefined;
  bytes: Buffer;
  fields: Record<string, string>;
  /** The name it was stored (and answered) as. */
  name: string;
}

export interface SocketLog {
  clientId: string;
  origin: string | undefined;
  headers: IncomingHttpHeaders;
  received: unknown[];
  supportsPreviewMetadata: boolean;
}

interface Job {
  id: string;
  clientId: string;
  status: 'pending' | 'running' | 'done' | 'deleted';
  interrupted: boolean;
  wake?: () => void;
}

export interface FakeComfy {
  url: string;
  requests: LoggedRequest[];
  sockets: SocketLog[];
  promptRequests(): LoggedRequest[];
  interruptRequests(): LoggedRequest[];
  queueDeleteRequests(): LoggedRequest[];
  /** Every upload, in order. */
  uploads: UploadLog[];
  /** Puts a file into input/ as if someone had uploaded it before (for name collisions). */
  seedInput(name: string, bytes: Buffer): void;
  setScenario(next: ComfyScenario | ComfyScenario[]): void;
  close(): Promise<void>;
}

export async function startFakeComfyUI(options: FakeComfyOptions = {}): Promise<FakeComfy> {
  const script = new Script<ComfyScenario>(options.scenario ?? { kind: 'success' });
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Map<string, Set<WebSocket>>();
  const socketLogs: SocketLog[] = [];
  const metaSockets = new WeakSet<WebSocket>();
  const jobs = new Map<string, Job>();
  const history = new Map<string, string>();
  const files = new Map<string, Buffer>();
  const viewBehaviour = new Map<string, ComfyScenario>();
  const uploads: UploadLog[] = [];
  // What LoadImage sees of each input file: PIL's exif_transpose turns a camera JPEG on its side.
  const inputSizes = new Map<string, { width: number; height: number }>();
  const raw = new WeakMap<object, Buffer[]>();
  let counter = 0;
  let closed = false;
  let echo = '';
  const tail = () => (echo === '' ? '' : ` ${echo}`);

  const toClient = (clientId: string, message: unknown) => {
    for (const ws of clients.get(clientId) ?? []) ws.send(pyJson(message));
  };
  const broadcast = (message: unknown) => {
    for (const set of clients.values()) for (const ws of set) ws.send(pyJson(message));
  };
  const queueStatus = () => ({ type: 'status', data: { status: { exec_info: { queue_remaining: [...jobs.values()].filter((j) => j.status === 'pending' || j.status === 'running').length } } } });
  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    sendText(res, status, pyJson(value), { ...(echo === '' ? {} : { 'x-echo': echo }), ...headers });

  const checkpointNames = () => [...(options.checkpoints ?? ['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors']), ...(echo === '' ? [] : [`ckpt${tail()}`])];
  const env: NodeEnv = {
    get checkpoints() {
      return checkpointNames();
    },
    upscaleModels: options.upscaleModels ?? [],
    inputFiles: () => [...files.keys()].filter((k) => k.startsWith('input/')).map((k) => k.slice('input/'.length).replace(/^\//, '')),
  };

  const fake = await startHttpFake(
    async (req, res, logged) => {
      const path = logged.path.replace(/^\/api\//, '/');
      if (options.echoCredentials === true) echo = credentialEcho(req.headers);
      // ComfyUI's loopback Origin check (reference §3 "Origin rule").
      const origin = req.headers.origin;
      if (origin !== undefined && new URL(origin).host !== req.headers.host) {
        res.writeHead(403).end();
        return;
      }
      if (req.method === 'POST' && path === '/prompt') return prompt(res, logged);
      if (req.method === 'POST' && path === '/upload/image') return upload(res, Buffer.concat(raw.get(req) ?? []), req.headers['content-type']);
      if (req.method === 'POST' && path === '/interrupt') {
        const id = (logged.json as { prompt_id?: string } | undefined)?.prompt_id;
        const job = id === undefined ? [...jobs.values()].find((j) => j.status === 'running') : jobs.get(id);
        if (job !== undefined && job.status === 'running') {
          job.interrupted = true;
          job.wake?.();
        }
        res.writeHead(200).end();
        return;
      }
      if (path === '/queue') {
        if (req.method === 'POST') {
          for (const id of (logged.json as { delete?: string[] } | undefined)?.delete ?? []) {
            const job = jobs.get(id);
            if (job?.status === 'pending') {
              job.status = 'deleted';
              job.wake?.();
            }
          }
          res.writeHead(200).end();
          return;
        }
        const entry = (j: Job) => [counter, j.id, {}, { client_id: j.clientId }, ['9']];
        return json(res, 200, { queue_running: [...jobs.values()].filter((j) => j.status === 'running').map(entry), queue_pending: [...jobs.values()].filter((j) => j.status === 'pending').map(entry) });
      }
      const historyMatch = /^\/history\/(.+)$/.exec(path);
      if (req.method === 'GET' && historyMatch !== null) {
        const id = decodeURIComponent(historyMatch[1]!);
        const text = history.get(id);
        sendText(res, 200, text ?? '{}');
        return;
      }
      if (req.method === 'GET' && path === '/view') {
        const { filename, subfolder, type } = logged.query;
        if (filename === undefined || filename.includes('..') || subfolder === undefined || type === undefined) {
          res.writeHead(400).end();
          return;
        }
        const behaviour = viewBehaviour.get(filename);
        if (behaviour?.kind === 'view_invalid') {
          sendText(res, 200, '<html>not an image</html>', { 'content-type': 'image/png' });
          return;
        }
        if (behaviour?.kind === 'view_huge') {
          res.writeHead(200, { 'content-type': 'image/png' });
          streamHugeBody(res, logged, behaviour.bytes);
          return;
        }
        const file = files.get(`${type}/${subfolder}/${filename}`);
        if (file === undefined) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(file.length), 'content-disposition': `filename="${filename}"` });
        res.end(file);
        return;
      }
      if (req.method === 'GET' && path === '/system_stats') {
        return json(res, 200, {
          system: { os: 'posix', ram_total: 1, ram_free: 1, comfyui_version: `0.3.40${tail()}`, python_version: '3.12.3', pytorch_version: '2.7.0', embedded_python: false, argv: ['main.py'] },
          devices: [{ name: 'cpu', type: 'cpu', index: null, vram_total: 0, vram_free: 0, torch_vram_total: 0, torch_vram_free: 0 }],
        });
      }
      if (req.method === 'GET' && path === '/object_info') {
        return json(res, 200, Object.fromEntries(Object.keys(NODES).map((name) => [name, objectInfo(name, env, options.comboSpec === true)])));
      }
      const infoMatch = /^\/object_info\/(.+)$/.exec(path);
      if (req.method === 'GET' && infoMatch !== null) {
        const name = decodeURIComponent(infoMatch[1]!);
        return json(res, 200, NODES[name] === undefined ? {} : { [name]: objectInfo(name, env, options.comboSpec === true) });
      }
      res.writeHead(404).end();
    },
    (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname !== '/ws' && url.pathname !== '/api/ws') {
        socket.destroy();
        return;
      }
      if (options.echoCredentials === true) echo = credentialEcho(req.headers);
      wss.handleUpgrade(req, socket, head, (ws) => {
        const clientId = url.searchParams.get('clientId') ?? randomUUID().replace(/-/g, '');
        const log: SocketLog = { clientId, origin: req.headers.origin, headers: req.headers, received: [], supportsPreviewMetadata: false };
        socketLogs.push(log);
        if (!clients.has(clientId)) clients.set(clientId, new Set());
        clients.get(clientId)!.add(ws);
        ws.on('close', () => clients.get(clientId)?.delete(ws));
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          const message = JSON.parse(String(data)) as { type?: string; data?: { supports_preview_metadata?: boolean } };
          log.received.push(message);
          if (message.type === 'feature_flags' && log.received.length === 1) {
            log.supportsPreviewMetadata = message.data?.supports_preview_metadata === true;
            if (log.supportsPreviewMetadata) metaSockets.add(ws);
            ws.send(pyJson({ type: 'feature_flags', data: { supports_preview_metadata: true, max_upload_size: 104857600 } }));
          }
        });
        ws.send(pyJson({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId } }));
        if (echo !== '') ws.send(pyJson({ type: `crystools.monitor${tail()}`, data: nestedEcho(echo) }));
      });
    },
  );

  // The logged body is text; the multipart upload needs its exact bytes, collected alongside.
  fake.server.prependListener('request', (req: IncomingMessage) => {
    if (req.method !== 'POST' || !/\/upload\/image$/.test(req.url?.split('?')[0] ?? '')) return;
    const parts: Buffer[] = [];
    raw.set(req, parts);
    req.on('data', (c: Buffer) => parts.push(c));
  });

  /** server.py image_upload: `image` file, `type` (default input), `subfolder`, `overwrite` ("true"/"1"). */
  async function upload(res: ServerResponse, body: Buffer, contentType: string | undefined): Promise<void> {
    if (options.uploadAnswer !== undefined) return json(res, options.uploadAnswer.status, options.uploadAnswer.body);
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
    if (!/^multipart\/form-data/i.test(contentType ?? '') || boundary === null) {
      res.writeHead(400).end();
      return;
    }
    const parts = parseMultipart(body, boundary[1] ?? boundary[2]!);
    const file = parts.find((p) => p.name === 'image' && p.filename !== undefined);
    if (file === undefined) {
      res.writeHead(400).end();
      return;
    }
    const fields = Object.fromEntries(parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.data.toString('utf8')]));
    const type = fields.type ?? 'input';
    const subfolder = fields.subfolder ?? '';
    if (!['input', 'temp', 'output'].includes(type) || subfolder.includes('..') || file.filename!.includes('/') || file.filename!.includes('..')) {
      res.writeHead(400).end();
      return;
    }
    const overwrite = options.ignoreOverwrite !== true && (fields.overwrite === 'true' || fields.overwrite === '1');
    const dot = file.filename!.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [file.filename!.slice(0, dot), file.filename!.slice(dot)] : [file.filename!, ''];
    let name = file.filename!;
    for (let i = 1; !overwrite && files.has(`${type}/${subfolder}/${name}`); i += 1) {
      if (files.get(`${type}/${subfolder}/${name}`)!.equals(file.data)) break;
      name = `${stem} (${i})${ext}`;
    }
    files.set(`${type}/${subfolder}/${name}`, file.data);
    const meta = await sharp(file.data).metadata().catch(() => undefined);
    if (meta?.autoOrient !== undefined) inputSizes.set(`${type}/${subfolder}/${name}`, meta.autoOrient);
    else inputSizes.delete(`${type}/${subfolder}/${name}`);
    uploads.push({ filename: file.filename!, contentType: file.contentType, bytes: file.data, fields, name });
    json(res, 200, { name, subfolder, type });
  }

  function prompt(res: ServerResponse, logged: LoggedRequest): void {
    const scenario = script.next();
    const body = (logged.json ?? {}) as { prompt?: Record<string, { class_type?: string; inputs?: Record<string, unknown> }>; client_id?: string; prompt_id?: string };
    if (scenario.kind === 'hang') return;
    if (scenario.kind === 'prompt_error') return json(res, scenario.status, echoEverywhere(scenario.body, echo), scenario.headers);
    if (body.prompt === undefined) {
      return json(res, 400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
    }
    const missing = Object.entries(body.prompt).find(([, n]) => typeof n?.class_type !== 'string');
    if (missing !== undefined) {
      return json(res, 400, { error: { type: 'invalid_prompt', message: `Cannot execute because a node is missing the class_type property.: Node ID '#${missing[0]}'`, details: '', extra_info: {} }, node_errors: {} });
    }
    const nodeErrors = validateGraph(body.prompt, env);
    if (Object.keys(nodeErrors).length > 0) {
      return json(res, 400, { error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} }, node_errors: nodeErrors });
    }
    const id = body.prompt_id ?? randomUUID();
    counter += 1;
    const job: Job = { id, clientId: body.client_id ?? '', status: 'pending', interrupted: false };
    jobs.set(id, job);
    json(res, 200, { prompt_id: id, number: counter, node_errors: echo === '' ? {} : nestedEcho(echo) });
    void run(job, body.prompt, scenario);
  }

  async function run(job: Job, graph: Record<string, { class_type?: string; inputs?: Record<string, unknown> }>, scenario: ComfyScenario): Promise<void> {
    const success = scenario.kind === 'success' ? scenario : undefined;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        job.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    if ((success?.pendingMs ?? 0) > 0) await pause(success!.pendingMs!);
    if (job.status === 'deleted' || closed) return;
    job.status = 'running';
    const p = job.id;
    const now = () => Date.now();
    toClient(job.clientId, { type: 'execution_start', data: { prompt_id: p, timestamp: now() } });
    toClient(job.clientId, { type: 'execution_cached', data: { nodes: [], prompt_id: p, timestamp: now() } });
    const sampler = Object.entries(graph).find(([, n]) => n.class_type === 'KSampler');
    const samplerId = sampler?.[0] ?? '3';
    // A graph without a sampler (an upscale) reports no sampling steps of its own.
    const steps = success?.steps ?? (sampler === undefined ? 1 : typeof sampler[1].inputs?.steps === 'number' ? (sampler[1].inputs.steps as number) : 20);
    const latent = Object.values(graph).find((n) => n.class_type === 'EmptyLatentImage');
    const saveId = Object.entries(graph).find(([, n]) => n.class_type === 'SaveImage')?.[0] ?? '9';
    // Graphs that start from an uploaded image get outputs of their real size; text graphs keep the tiny 16² stand-in.
    const fromImage = Object.values(graph).some((n) => n.class_type === 'LoadImage');
    let planes: ReturnType<typeof outputSize> | undefined;
    try {
      planes = fromImage ? outputSize(graph, saveId, (name) => inputSizes.get(`input//${name}`) ?? pngSize(files.get(`input//${name}`))) : undefined;
    } catch (error) {
      // What ComfyUI does with a file PIL cannot open: LoadImage fails at run time.
      const data = { prompt_id: job.id, node_id: '10', node_type: 'LoadImage', executed: [], exception_message: `cannot identify image file (${(error as Error).message})`, exception_type: 'PIL.UnidentifiedImageError', traceback: [], current_inputs: {}, current_outputs: [], timestamp: Date.now() };
      toClient(job.clientId, { type: 'execution_error', data });
      history.set(job.id, pyJson({ [job.id]: { prompt: [counter, job.id, graph, { client_id: job.clientId }, [saveId]], outputs: {}, status: { status_str: 'error', completed: false, messages: [['execution_error', data]] }, meta: {} } }));
      job.status = 'done';
      toClient(job.clientId, { type: 'executing', data: { node: null, prompt_id: job.id } });
      return;
    }
    const batch = planes?.batch ?? (typeof latent?.inputs?.batch_size === 'number' ? latent.inputs.batch_size : 1);
    toClient(job.clientId, { type: 'executing', data: { node: samplerId, display_node: samplerId, prompt_id: p } });
    const endWith = (status: 'success' | 'error', messages: unknown[][], outputs: Record<string, unknown> = {}) => {
      history.set(p, pyJson({ [p]: { prompt: [counter, p, graph, { client_id: job.clientId }, ['9']], outputs, status: { status_str: status, completed: status === 'success', messages }, meta: {} } }));
      job.status = 'done';
    };
    for (let step = 1; step <= steps; step += 1) {
      if (job.interrupted || closed) break;
      if (scenario.kind === 'execution_error' && step === (scenario.atStep ?? 1)) {
        const t = tail();
        const error = { prompt_id: p, node_id: samplerId + t, node_type: `KSampler${t}`, executed: ['4', '5', '6', '7'], exception_message: `CUDA out of memory. Tried to allocate 2.00 GiB${t}\n`, exception_type: `torch.OutOfMemoryError${t}`, traceback: [`...${t}`], current_inputs: echo === '' ? {} : nestedEcho(echo), current_outputs: [], timestamp: now() };
        toClient(job.clientId, { type: 'execution_error', data: error });
        endWith('error', [['execution_error', error]]);
        toClient(job.clientId, { type: 'executing', data: { node: null, prompt_id: p } });
        return;
      }
      if (scenario.kind === 'ws_close' && step === (scenario.atStep ?? 2)) {
        for (const ws of clients.get(job.clientId) ?? []) ws.terminate();
      }
      toClient(job.clientId, { type: 'progress', data: { value: step, max: steps, prompt_id: p, node: samplerId + tail() } });
      if (success?.previews === true) {
        const image = pngFor(300 + step);
        for (const ws of clients.get(job.clientId) ?? []) {
          if (metaSockets.has(ws)) {
            const meta = Buffer.from(JSON.stringify({ node_id: samplerId, prompt_id: p, display_node_id: samplerId, parent_node_id: null, real_node_id: samplerId, image_type: 'image/png' }));
            const header = Buffer.alloc(8);
            header.writeUInt32BE(4, 0);
            header.writeUInt32BE(meta.length, 4);
            ws.send(Buffer.concat([header, meta, image]));
          } else {
            const header = Buffer.alloc(8);
            header.writeUInt32BE(1, 0);
            header.writeUInt32BE(2, 4); // PNG
            ws.send(Buffer.concat([header, image]));
          }
        }
      }
      await pause(success?.stepMs ?? 2);
    }
    if (closed) return;
    if (job.interrupted) {
      const data = { prompt_id: p, node_id: samplerId, node_type: 'KSampler', executed: ['4', '5', '6', '7'], timestamp: now() };
      broadcast({ type: 'execution_interrupted', data });
      endWith('error', [['execution_interrupted', data]]);
      toClient(job.clientId, { type: 'executing', data: { node: null, prompt_id: p } });
      return;
    }
    const images = Array.from({ length: batch }, (_, i) => {
      const filename = `Atelier_${String(counter * 10 + i).padStart(5, '0')}_${echo === '' ? '' : `${echo}_`}.png`;
      const size = success?.outputSize ?? planes;
      files.set(`output//${filename}`, size === undefined ? pngFor(i, 16) : makePng(size.width, size.height, [(i * 60) % 256, 90, 160]));
      if (scenario.kind === 'view_invalid' || scenario.kind === 'view_huge') viewBehaviour.set(filename, scenario);
      return { filename, subfolder: '', type: 'output' };
    });
    toClient(job.clientId, { type: 'executing', data: { node: '8', display_node: '8', prompt_id: p } });
    toClient(job.clientId, { type: 'executing', data: { node: saveId, display_node: saveId, prompt_id: p } });
    toClient(job.clientId, { type: 'executed', data: { node: saveId, display_node: saveId, output: { images }, prompt_id: p } });
    if (scenario.kind === 'history_malformed') {
      history.set(p, `{"${p}": {"outputs": {"9": {"images": [{"filename": `);
      job.status = 'done';
    } else {
      endWith('success', [['execution_start', { prompt_id: p, timestamp: now() }], ['execution_success', { prompt_id: p, timestamp: now() }]], { [saveId]: { images } });
    }
    if (success?.noSuccessMessage !== true) toClient(job.clientId, { type: 'execution_success', data: { prompt_id: p, timestamp: now() } });
    broadcast(queueStatus());
    toClient(job.clientId, { type: 'executing', data: { node: null, prompt_id: p } });
  }

  return {
    url: fake.url,
    requests: fake.requests,
    sockets: socketLogs,
    promptRequests: () => fake.requests.filter((r) => r.method === 'POST' && r.path.replace(/^\/api/, '') === '/prompt'),
    interruptRequests: () => fake.requests.filter((r) => r.path.replace(/^\/api/, '') === '/interrupt'),
    queueDeleteRequests: () => fake.requests.filter((r) => r.method === 'POST' && r.path.replace(/^\/api/, '') === '/queue'),
    uploads,
    seedInput: (name, bytes) => void files.set(`input//${name}`, bytes),
    setScenario: (next) => script.set(next),
    close: async () => {
      closed = true;
      for (const job of jobs.values()) job.wake?.();
      for (const set of clients.values()) for (const ws of set) ws.terminate();
      wss.close();
      await fake.close();
    },
  };
}

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** A strict multipart/form-data reader (RFC 7578): CRLF-delimited headers, parts between `--boundary` lines. */
function parseMultipart(body: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    const next = body.indexOf(delimiter, headerEnd);
    if (headerEnd < 0 || next < 0) throw new Error('truncated multipart body');
    const headers = body.subarray(start + 2, headerEnd).toString('utf8');
    // The part's data ends with the CRLF that precedes the next delimiter.
    const data = body.subarray(headerEnd + 4, next - 2);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '';
    const filename = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
    const contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim();
    parts.push({ name, ...(filename === undefined ? {} : { filename }), ...(contentType === undefined ? {} : { contentType }), data: Buffer.from(data) });
    at = next;
  }
  return parts;
}

/** A PNG's size from its IHDR; the fake only ever sizes PNG uploads. */
function pngSize(bytes: Buffer | undefined): { width: number; height: number } {
  if (bytes === undefined || bytes.length < 24 || bytes.readUInt32BE(12) !== 0x49484452) throw new Error('the fake can only size PNG inputs');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
