import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { type Graph, type NodeEnv, knownNodes, objectInfo, transcript } from './comfyui-nodes.js';
import { type ComfyScenario, type Job, type RunHost, runJob } from './comfyui-run.js';
import { validatePrompt } from './comfyui-validate.js';
import { credentialEcho, echoEverywhere, nestedEcho } from './echo.js';
import { pyJson } from './pyjson.js';
import { type LoggedRequest, Script, sendText, startHttpFake, streamHugeBody } from './server.js';

export type { ComfyScenario } from './comfyui-run.js';

/**
 * A fake ComfyUI that behaves as the real one does (held to a transcript recorded from ComfyUI 0.3.64 by
 * test/integration/providers/comfyui-contract.test.ts): one prompt runs at a time, validation per output, messages
 * only to the prompt's client id on its newest socket, JPEG previews, the cache, history and queue as recorded.
 */

export const comfyErrors = {
  validation: (): ComfyScenario => ({
    kind: 'prompt_error',
    status: 400,
    body: {
      error: {
        type: 'prompt_outputs_failed_validation',
        message: 'Prompt outputs failed validation',
        details: '',
        extra_info: {},
      },
      node_errors: {
        '4': {
          errors: [
            {
              type: 'value_not_in_list',
              message: 'Value not in list',
              details:
                "ckpt_name: 'x.safetensors' not in ['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors']",
              extra_info: { input_name: 'ckpt_name', input_config: null, received_value: 'x.safetensors' },
            },
          ],
          dependent_outputs: ['9'],
          class_type: 'CheckpointLoaderSimple',
        },
      },
    },
  }),
  unauthorized: (): ComfyScenario => ({ kind: 'prompt_error', status: 401, body: { error: 'Unauthorized' } }),
  rateLimited: (seconds = 2): ComfyScenario => ({
    kind: 'prompt_error',
    status: 429,
    body: { error: 'Too Many Requests' },
    headers: { 'retry-after': String(seconds) },
  }),
  serverError: (): ComfyScenario => ({ kind: 'prompt_error', status: 500, body: { error: 'Internal Server Error' } }),
  unavailable: (): ComfyScenario => ({ kind: 'prompt_error', status: 503, body: { error: 'Service Unavailable' } }),
};

export interface FakeComfyOptions {
  scenario?: ComfyScenario;
  checkpoints?: string[];
  /** Answer /object_info with the newer ["COMBO", {options}] spec for checkpoints too. */
  comboSpec?: boolean;
  /** A careless server (or the proxy in front of it): the credentials it was sent come back everywhere. */
  echoCredentials?: boolean;
  /** Files in models/upscale_models (UpscaleModelLoader's model_name list); none by default. */
  upscaleModels?: string[];
  /** Files in models/loras (LoraLoader's lora_name list); none by default, as the real kit has. */
  loras?: string[];
  /** GET /embeddings: the names in models/embeddings (without extension); none by default. */
  embeddings?: string[];
  /** An older server without `overwrite`: a new file under a taken name is always renamed "x (1).png". */
  ignoreOverwrite?: boolean;
  /** /upload/image answers this instead of doing its work (a broken proxy, a server bug). */
  uploadAnswer?: { status: number; body: unknown };
  /** Started with --preview-method auto: every sampler step sends a preview (otherwise only a scenario's `previews`). */
  previews?: boolean;
  /** How long a sampler step takes by default. */
  stepMs?: number;
  /** Custom node classes this server pretends to have installed (they run as no-ops). */
  extraNodes?: string[];
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

export interface FakeComfy {
  url: string;
  requests: LoggedRequest[];
  sockets: SocketLog[];
  promptRequests(): LoggedRequest[];
  interruptRequests(): LoggedRequest[];
  queueDeleteRequests(): LoggedRequest[];
  /** What GET /queue would say now: prompt ids running and pending. */
  queue(): { running: string[]; pending: string[] };
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
  // The server keeps one socket per client id: the newest (server.py websocket_handler).
  const clients = new Map<string, WebSocket>();
  const socketLogs: SocketLog[] = [];
  const metaSockets = new WeakSet<WebSocket>();
  const jobs = new Map<string, Job>();
  const queue: Job[] = [];
  let running: Job | undefined;
  const uploads: UploadLog[] = [];
  // What LoadImage sees of each input file: PIL's exif_transpose turns a camera JPEG on its side.
  const inputSizes = new Map<string, { width: number; height: number }>();
  const raw = new WeakMap<object, Buffer[]>();
  let counter = 0;
  let closed = false;
  let echo = '';
  const tail = () => (echo === '' ? '' : ` ${echo}`);

  const send = (ws: WebSocket | undefined, message: unknown) => ws?.send(pyJson(message));
  const broadcast = (message: unknown) => {
    for (const ws of clients.values()) send(ws, message);
  };
  const queueInfo = () => ({
    exec_info: {
      queue_remaining: [...jobs.values()].filter((j) => j.status === 'pending' || j.status === 'running').length,
    },
  });
  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    sendText(res, status, pyJson(value), { ...(echo === '' ? {} : { 'x-echo': echo }), ...headers });

  const files = new Map<string, Buffer>();
  const env: NodeEnv = {
    get checkpoints() {
      return [
        ...(options.checkpoints ?? ['v1-5-pruned-emaonly.safetensors', 'sd_xl_base_1.0.safetensors']),
        ...(echo === '' ? [] : [`ckpt${tail()}`]),
      ];
    },
    upscaleModels: options.upscaleModels ?? [],
    loras: options.loras ?? [],
    inputFiles: () =>
      [...files.keys()].filter((k) => k.startsWith('input/')).map((k) => k.slice('input/'.length).replace(/^\//, '')),
    extraNodes: options.extraNodes ?? [],
  };

  const host: RunHost = {
    env,
    toClient: (clientId, message) => send(clients.get(clientId), message),
    previewTo: (clientId, jpeg, meta) => {
      const ws = clients.get(clientId);
      if (ws === undefined) return;
      const header = Buffer.alloc(8);
      if (metaSockets.has(ws)) {
        const metadata = Buffer.from(JSON.stringify({ ...meta, image_type: 'image/jpeg' }));
        header.writeUInt32BE(4, 0);
        header.writeUInt32BE(metadata.length, 4);
        ws.send(Buffer.concat([header, metadata, jpeg]));
      } else {
        header.writeUInt32BE(1, 0);
        header.writeUInt32BE(1, 4); // JPEG
        ws.send(Buffer.concat([header, jpeg]));
      }
    },
    closeClient: (clientId) => clients.get(clientId)?.terminate(),
    queueStatus: () => broadcast({ type: 'status', data: { status: queueInfo() } }),
    previews: options.previews === true,
    stepMs: options.stepMs ?? 2,
    echo: () => echo,
    files,
    history: new Map(),
    viewBehaviour: new Map(),
    inputSize: (name) => inputSizes.get(`input//${name}`) ?? pngSize(files.get(`input//${name}`)),
    cache: new Map(),
    counters: new Map(),
    closed: () => closed,
  };

  /** main.py prompt_worker: one prompt at a time, in the order queued. */
  async function pump(): Promise<void> {
    if (running !== undefined || closed) return;
    const next = queue.shift();
    if (next === undefined) return;
    if (next.status === 'deleted') return pump();
    running = next;
    const pendingMs = next.scenario.kind === 'success' ? (next.scenario.pendingMs ?? 0) : 0;
    if (pendingMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pendingMs);
        next.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    // A /queue delete may have come while it waited.
    const deleted = (next.status as Job['status']) === 'deleted';
    if (!deleted && !closed) {
      next.status = 'running';
      try {
        await runJob(next, host);
      } finally {
        next.status = next.status === 'running' ? 'done' : next.status;
      }
    }
    running = undefined;
    void pump();
  }

  const fake = await startHttpFake(
    async (req, res, logged) => {
      const path = logged.path.replace(/^\/api\//, '/');
      if (options.echoCredentials === true) echo = credentialEcho(req.headers);
      // ComfyUI's loopback Origin check (docs/provider-protocols.md §3, "Origin rule").
      const origin = req.headers.origin;
      if (origin !== undefined && new URL(origin).host !== req.headers.host) {
        res.writeHead(403).end();
        return;
      }
      if (req.method === 'POST' && path === '/prompt') return prompt(res, logged);
      if (req.method === 'POST' && path === '/upload/image')
        return upload(res, Buffer.concat(raw.get(req) ?? []), req.headers['content-type']);
      if (req.method === 'POST' && path === '/interrupt') {
        // With a prompt id only that prompt, if it is the one running; without, whatever runs (server.py post_interrupt).
        const id = (logged.json as { prompt_id?: string } | undefined)?.prompt_id;
        const job = running?.status === 'running' && (id === undefined || running.id === id) ? running : undefined;
        if (job !== undefined) {
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
        const entry = (j: Job) => [j.number, j.id, j.graph, { client_id: j.clientId }, j.outputs];
        return json(res, 200, {
          queue_running: [...jobs.values()].filter((j) => j.status === 'running').map(entry),
          queue_pending: [...jobs.values()].filter((j) => j.status === 'pending').map(entry),
        });
      }
      const historyMatch = /^\/history\/(.+)$/.exec(path);
      if (req.method === 'GET' && historyMatch !== null) {
        const id = decodeURIComponent(historyMatch[1]!);
        sendText(res, 200, host.history.get(id) ?? '{}');
        return;
      }
      if (req.method === 'GET' && path === '/view') return view(res, logged);
      if (req.method === 'GET' && path === '/system_stats') {
        return json(res, 200, {
          system: {
            os: 'posix',
            ram_total: 1,
            ram_free: 1,
            comfyui_version: `${transcript().comfyuiVersion}${tail()}`,
            required_frontend_version: '1.27.10',
            installed_templates_version: null,
            required_templates_version: '0.1.95',
            python_version: '3.12.3',
            pytorch_version: '2.7.0',
            embedded_python: false,
            argv: ['main.py', '--cpu', ...(options.previews === true ? ['--preview-method', 'auto'] : [])],
          },
          devices: [
            {
              name: 'cpu',
              type: 'cpu',
              index: null,
              vram_total: 0,
              vram_free: 0,
              torch_vram_total: 0,
              torch_vram_free: 0,
            },
          ],
        });
      }
      if (req.method === 'GET' && path === '/embeddings') return json(res, 200, options.embeddings ?? []);
      if (req.method === 'GET' && path === '/object_info') {
        return json(
          res,
          200,
          Object.fromEntries(knownNodes().map((name) => [name, objectInfo(name, env, options.comboSpec === true)])),
        );
      }
      const infoMatch = /^\/object_info\/(.+)$/.exec(path);
      if (req.method === 'GET' && infoMatch !== null) {
        const name = decodeURIComponent(infoMatch[1]!);
        return json(
          res,
          200,
          knownNodes().includes(name) ? { [name]: objectInfo(name, env, options.comboSpec === true) } : {},
        );
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
        const clientId = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
        const log: SocketLog = {
          clientId,
          origin: req.headers.origin,
          headers: req.headers,
          received: [],
          supportsPreviewMetadata: false,
        };
        socketLogs.push(log);
        clients.set(clientId, ws);
        // The server forgets the id when any of its sockets closes, even an older one a newer had replaced.
        ws.on('close', () => clients.delete(clientId));
        let first = true;
        ws.on('message', (data, isBinary) => {
          if (isBinary) return;
          const message = JSON.parse(String(data)) as { type?: string; data?: { supports_preview_metadata?: boolean } };
          log.received.push(message);
          if (first && message.type === 'feature_flags') {
            log.supportsPreviewMetadata = message.data?.supports_preview_metadata === true;
            if (log.supportsPreviewMetadata) metaSockets.add(ws);
            send(clients.get(clientId), {
              type: 'feature_flags',
              data: { supports_preview_metadata: true, max_upload_size: 104857600 },
            });
          }
          first = false;
        });
        send(ws, { type: 'status', data: { status: queueInfo(), sid: clientId } });
        // A client that reconnects while its prompt runs is told the node, without a prompt id.
        if (host.current?.clientId === clientId) send(ws, { type: 'executing', data: { node: host.current.node } });
        if (echo !== '') send(ws, { type: `crystools.monitor${tail()}`, data: nestedEcho(echo) });
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

  function view(res: ServerResponse, logged: LoggedRequest): void {
    const { filename, subfolder, type } = logged.query;
    if (filename === undefined || filename.includes('..') || subfolder === undefined || type === undefined) {
      res.writeHead(400).end();
      return;
    }
    const behaviour = host.viewBehaviour.get(filename);
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
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': String(file.length),
      'content-disposition': `filename="${filename}"`,
    });
    res.end(file);
  }

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
    const fields = Object.fromEntries(
      parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.data.toString('utf8')]),
    );
    const type = fields.type ?? 'input';
    const subfolder = fields.subfolder ?? '';
    if (
      !['input', 'temp', 'output'].includes(type) ||
      subfolder.includes('..') ||
      file.filename!.includes('/') ||
      file.filename!.includes('..')
    ) {
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
    const meta = await sharp(file.data)
      .metadata()
      .catch(() => undefined);
    if (meta?.autoOrient !== undefined) inputSizes.set(`${type}/${subfolder}/${name}`, meta.autoOrient);
    else inputSizes.delete(`${type}/${subfolder}/${name}`);
    uploads.push({ filename: file.filename!, contentType: file.contentType, bytes: file.data, fields, name });
    json(res, 200, { name, subfolder, type });
  }

  function prompt(res: ServerResponse, logged: LoggedRequest): void {
    // aiohttp's request.json() on a body that is not JSON raises: the server answers 500 in plain text.
    if (logged.json === undefined && logged.body !== '') {
      sendText(res, 500, '500 Internal Server Error\n\nServer got itself in trouble', {
        'content-type': 'text/plain; charset=utf-8',
      });
      return;
    }
    const scenario = script.next();
    const body = (logged.json ?? {}) as { prompt?: Graph; client_id?: string; prompt_id?: string };
    if (scenario.kind === 'hang') return;
    if (scenario.kind === 'prompt_error')
      return json(res, scenario.status, echoEverywhere(scenario.body, echo), scenario.headers);
    if (body.prompt === undefined) {
      return json(res, 400, {
        error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} },
        node_errors: {},
      });
    }
    const checked = validatePrompt(body.prompt, env);
    if (!checked.ok) return json(res, 400, { error: checked.error, node_errors: checked.nodeErrors });
    const id = body.prompt_id ?? randomUUID();
    counter += 1;
    const job: Job = {
      id,
      number: counter,
      clientId: body.client_id ?? '',
      graph: body.prompt,
      outputs: checked.outputs,
      scenario,
      status: 'pending',
      interrupted: false,
    };
    jobs.set(id, job);
    queue.push(job);
    json(res, 200, {
      prompt_id: id,
      number: counter,
      node_errors: echo === '' ? checked.nodeErrors : nestedEcho(echo),
    });
    host.queueStatus();
    void pump();
  }

  return {
    url: fake.url,
    requests: fake.requests,
    sockets: socketLogs,
    promptRequests: () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path.replace(/^\/api/, '') === '/prompt'),
    interruptRequests: () => fake.requests.filter((r) => r.path.replace(/^\/api/, '') === '/interrupt'),
    queueDeleteRequests: () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path.replace(/^\/api/, '') === '/queue'),
    queue: () => ({
      running: [...jobs.values()].filter((j) => j.status === 'running').map((j) => j.id),
      pending: [...jobs.values()].filter((j) => j.status === 'pending').map((j) => j.id),
    }),
    uploads,
    seedInput: (name, bytes) => void files.set(`input//${name}`, bytes),
    setScenario: (next) => script.set(next),
    close: async () => {
      closed = true;
      for (const job of jobs.values()) job.wake?.();
      for (const ws of wss.clients) ws.terminate();
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
    parts.push({
      name,
      ...(filename === undefined ? {} : { filename }),
      ...(contentType === undefined ? {} : { contentType }),
      data: Buffer.from(data),
    });
    at = next;
  }
  return parts;
}

/** A PNG's size from its IHDR; the fake only ever sizes PNG uploads. */
function pngSize(bytes: Buffer | undefined): { width: number; height: number } {
  if (bytes === undefined || bytes.length < 24 || bytes.readUInt32BE(12) !== 0x49484452)
    throw new Error('the fake can only size PNG inputs');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
