import type { ServerResponse } from 'node:http';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback RunPod serverless endpoint running worker-comfyui (docs/hosted-protocols.md §2.2), under
 * `/v2/<endpointId>/`: POST /run with `Authorization: Bearer <key>` (or the bare key, as RunPod's own docs write it)
 * answers `{id, status: "IN_QUEUE"}`; GET /status/<id> answers IN_QUEUE, then IN_PROGRESS, then COMPLETED with
 * `output.images[{filename, type, data}]` made from the graph (EmptyLatentImage's size and batch, or the size of the
 * input image a LoadImage names); POST /cancel/<id> cancels; GET /health counts workers and jobs. As the worker does,
 * a LoadImage naming a file not in `input.images` fails the job with ComfyUI's validation words. A job id RunPod no
 * longer knows answers 404.
 */
export type RunPodScenario =
  | {
      kind: 'success';
      /** Polls answered IN_QUEUE, then IN_PROGRESS, before COMPLETED. */
      queuedPolls?: number;
      runningPolls?: number;
      /** base64 (worker-comfyui 5.x), s3 (a URL on this server), legacy (< 5.0.0: `output.message`), none. */
      output?: 'base64' | 's3' | 'legacy' | 'no_images';
      /** worker-comfyui's `output.errors` beside the images. */
      warnings?: string[];
      /** The first poll answers 429 with this Retry-After (seconds). */
      pollRetryAfter?: string;
      /** The first polls answer 502 (RunPod's edge having a bad minute). */
      pollErrors?: number;
      /** Images of this size whatever the graph asked (a worker misbehaving). */
      size?: { width: number; height: number };
    }
  /** /run answers this status and body. */
  | { kind: 'submit_error'; status: number; body: string | { error: string }; headers?: Record<string, string> }
  /** The handler returned `{error, details}`: FAILED. */
  | { kind: 'failed'; error: string; details?: string[] }
  /** The handler raised: runpod-python reports the exception as JSON in `error`. */
  | { kind: 'handler_exception'; message: string }
  | { kind: 'timed_out' }
  /** IN_PROGRESS until the test gives the job another scenario (setJobScenario). */
  | { kind: 'held' }
  /** COMPLETED once, then RunPod has forgotten it (the 30 minutes passed). */
  | { kind: 'expires_after_completion' }
  /** A 200 status answer without `status` (what RunPod sends for a job it never had, by some reports). */
  | { kind: 'status_missing' }
  /** COMPLETED with an S3 link that answers 403 (the presigned link expired). */
  | { kind: 's3_expired' };

export interface FakeRunPodJob {
  id: string;
  scenario: RunPodScenario;
  polls: number;
  input: Record<string, unknown>;
  cancelled: boolean;
  /** Answered COMPLETED once (expires_after_completion forgets it after). */
  completed: boolean;
  limited?: boolean;
  /** Polls answered 502 so far (pollErrors). */
  failedPolls: number;
}

export interface FakeRunPod extends HttpFake {
  /** The endpoint's address as settings hold it: `<url>/v2/<endpointId>`. */
  endpoint: string;
  /** How many workers /health reports idle (0: scaled to zero, the next job waits for a cold start). */
  setIdleWorkers(n: number): void;
  setScenario(next: RunPodScenario | RunPodScenario[]): void;
  /** What a job does from its next poll on (a held job released, as when a crashed run comes back). */
  setJobScenario(id: string, next: RunPodScenario): void;
  job(id: string): FakeRunPodJob | undefined;
  /** Ids of every job submitted so far. */
  jobs(): string[];
  submits(): LoggedRequest[];
  polls(): LoggedRequest[];
  cancels(): LoggedRequest[];
  downloads(): LoggedRequest[];
}

type Graph = Record<string, { class_type?: unknown; inputs?: Record<string, unknown> }>;

/** Width and height from a PNG's IHDR, or undefined for anything else. */
function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 24 || data.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function decodeInput(image: string): Buffer {
  const comma = image.indexOf(',');
  return Buffer.from(comma === -1 ? image : image.slice(comma + 1), 'base64');
}

function nodesOf(graph: Graph, type: string): [string, Record<string, unknown>][] {
  return Object.entries(graph)
    .filter(([, node]) => node.class_type === type)
    .map(([id, node]) => [id, node.inputs ?? {}]);
}

/** What ComfyUI would save for this graph: its size and how many, as the worker reads them back. */
function render(
  input: Record<string, unknown>,
  forced?: { width: number; height: number },
): { pngs: Buffer[] } | { error: string } {
  const graph = (input.workflow ?? {}) as Graph;
  const images = Array.isArray(input.images) ? (input.images as { name?: unknown; image?: unknown }[]) : [];
  const uploaded = new Map<string, Buffer>();
  for (const entry of images) {
    if (typeof entry.name === 'string' && typeof entry.image === 'string')
      uploaded.set(entry.name, decodeInput(entry.image));
  }
  const missing = [...nodesOf(graph, 'LoadImage'), ...nodesOf(graph, 'LoadImageMask')].filter(
    ([, inputs]) => !uploaded.has(String(inputs.image)),
  );
  if (missing.length > 0) {
    const lines = missing.map(([id, inputs]) => `• Node ${id} (errors): Invalid image file: ${String(inputs.image)}`);
    return { error: `Workflow validation failed:\n${lines.join('\n')}` };
  }
  const latent = nodesOf(graph, 'EmptyLatentImage')[0]?.[1];
  const loaded = nodesOf(graph, 'LoadImage')[0]?.[1];
  const source = loaded === undefined ? undefined : pngSize(uploaded.get(String(loaded.image))!);
  const size =
    forced ??
    (latent !== undefined
      ? { width: Number(latent.width), height: Number(latent.height) }
      : (source ?? { width: 8, height: 8 }));
  const repeat = nodesOf(graph, 'RepeatLatentBatch')[0]?.[1];
  const count = Number(latent?.batch_size ?? repeat?.amount ?? 1);
  const pngs = Array.from({ length: count }, (_, i) =>
    makePng(size.width, size.height, [(40 + i * 50) % 256, 120, 200]),
  );
  return { pngs };
}

export async function startFakeRunPod(options: {
  apiKey: string;
  endpointId?: string;
  echoKey?: boolean;
}): Promise<FakeRunPod> {
  const endpointId = options.endpointId ?? 'ep-fake';
  const script = new Script<RunPodScenario>({ kind: 'success' });
  const jobs = new Map<string, FakeRunPodJob>();
  const s3 = new Map<string, { png: Buffer; expired: boolean }>();
  let next = 0;
  let idleWorkers = 1;
  const echo = () => (options.echoKey === true ? ` (key ${options.apiKey})` : '');
  const authorized = (header: string | undefined) => header === `Bearer ${options.apiKey}` || header === options.apiKey;

  const statusOf = (job: FakeRunPodJob, res: ServerResponse): void => {
    const s = job.scenario;
    const base = { id: job.id, delayTime: 1234 };
    if (job.cancelled) return sendText(res, 200, JSON.stringify({ ...base, status: 'CANCELLED' }));
    if (s.kind === 'status_missing') return sendText(res, 200, JSON.stringify({ id: job.id }));
    if (s.kind === 'expires_after_completion' && job.completed)
      return sendText(res, 404, JSON.stringify({ error: 'request does not exist' }));
    job.polls += 1;
    const queued = s.kind === 'success' ? (s.queuedPolls ?? 1) : 0;
    const running = s.kind === 'success' ? (s.runningPolls ?? 1) : 0;
    if (s.kind === 'held' || job.polls <= queued + running) {
      const status = s.kind !== 'held' && job.polls <= queued ? 'IN_QUEUE' : 'IN_PROGRESS';
      return sendText(res, 200, JSON.stringify(status === 'IN_QUEUE' ? { id: job.id, status } : { ...base, status }));
    }
    if (s.kind === 'timed_out') return sendText(res, 200, JSON.stringify({ ...base, status: 'TIMED_OUT' }));
    if (s.kind === 'failed')
      return sendText(
        res,
        200,
        JSON.stringify({
          ...base,
          status: 'FAILED',
          error: s.error + echo(),
          ...(s.details === undefined ? {} : { output: { details: s.details } }),
        }),
      );
    if (s.kind === 'handler_exception') {
      const error = JSON.stringify({
        error_type: "<class 'RuntimeError'>",
        error_message: s.message + echo(),
        error_traceback: 'Traceback (most recent call last): …',
        hostname: 'fake-worker',
      });
      return sendText(res, 200, JSON.stringify({ ...base, status: 'FAILED', error }));
    }
    const rendered = render(job.input, s.kind === 'success' ? s.size : undefined);
    if ('error' in rendered)
      return sendText(res, 200, JSON.stringify({ ...base, status: 'FAILED', error: rendered.error }));
    job.completed = true;
    const shape = s.kind === 'success' ? (s.output ?? 'base64') : s.kind === 's3_expired' ? 's3' : 'base64';
    let output: Record<string, unknown>;
    if (shape === 'no_images') output = { status: 'success_no_images', images: [] };
    else if (shape === 'legacy') output = { status: 'success', message: rendered.pngs[0]!.toString('base64') };
    else {
      const images = rendered.pngs.map((png, i) => {
        const filename = `ComfyUI_${String(i + 1).padStart(5, '0')}_.png`;
        if (shape === 'base64') return { filename, type: 'base64', data: png.toString('base64') };
        const path = `/s3/${job.id}/${filename}`;
        s3.set(path, { png, expired: s.kind === 's3_expired' });
        return { filename, type: 's3_url', data: `${fake.url}${path}?X-Amz-Signature=fake` };
      });
      output = { images, ...(s.kind === 'success' && s.warnings ? { errors: s.warnings } : {}) };
    }
    sendText(res, 200, JSON.stringify({ ...base, status: 'COMPLETED', executionTime: 4567, output }));
  };

  const fake = await startHttpFake((req, res, logged) => {
    if (logged.path.startsWith('/s3/')) {
      const object = s3.get(logged.path);
      if (object === undefined || object.expired)
        return sendText(res, 403, '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(object.png.length) });
      res.end(object.png);
      return;
    }
    const match = /^\/v2\/([^/]+)\/(run|runsync|status|cancel|health)(?:\/([^/]+))?$/.exec(logged.path);
    if (match === null) return sendText(res, 404, '404 page not found');
    const [, endpoint, route, id] = match;
    const sent = req.headers.authorization;
    if (!authorized(sent))
      return sendText(res, 401, options.echoKey === true ? `Unauthorized (key ${String(sent)})` : 'Unauthorized');
    if (endpoint !== endpointId) return sendText(res, 404, JSON.stringify({ error: 'endpoint not found' }));
    if (route === 'health' && req.method === 'GET') {
      const all = [...jobs.values()];
      const inProgress = all.filter((j) => !j.cancelled && !j.completed && j.polls > 0).length;
      return sendText(
        res,
        200,
        JSON.stringify({
          jobs: { completed: all.filter((j) => j.completed).length, failed: 0, inProgress, inQueue: 0, retried: 0 },
          workers: { idle: idleWorkers, running: inProgress },
        }),
      );
    }
    if (route === 'run' && req.method === 'POST') {
      const s = script.next();
      if (s.kind === 'submit_error') {
        const body = typeof s.body === 'string' ? s.body + echo() : JSON.stringify({ error: s.body.error + echo() });
        return sendText(res, s.status, body, s.headers);
      }
      const input = (logged.json as { input?: unknown } | undefined)?.input;
      if (input === null || typeof input !== 'object')
        return sendText(res, 400, JSON.stringify({ error: 'input is required' }));
      const jobId = `job-${(next += 1)}-u1`;
      jobs.set(jobId, {
        id: jobId,
        scenario: s,
        polls: 0,
        input: input as Record<string, unknown>,
        cancelled: false,
        completed: false,
        failedPolls: 0,
      });
      return sendText(res, 200, JSON.stringify({ id: jobId, status: 'IN_QUEUE' }));
    }
    const job = id === undefined ? undefined : jobs.get(decodeURIComponent(id));
    if (route === 'status' && req.method === 'GET') {
      if (job === undefined) return sendText(res, 404, JSON.stringify({ error: 'request does not exist' }));
      const s = job.scenario;
      if (s.kind === 'success' && job.failedPolls < (s.pollErrors ?? 0)) {
        job.failedPolls += 1;
        return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>');
      }
      if (s.kind === 'success' && s.pollRetryAfter !== undefined && !job.limited) {
        job.limited = true;
        return sendText(res, 429, JSON.stringify({ error: 'rate limited' }), { 'retry-after': s.pollRetryAfter });
      }
      return statusOf(job, res);
    }
    if (route === 'cancel' && req.method === 'POST') {
      if (job === undefined) return sendText(res, 404, JSON.stringify({ error: 'request does not exist' }));
      job.cancelled = true;
      return sendText(res, 200, JSON.stringify({ id: job.id, status: 'CANCELLED' }));
    }
    sendText(res, 405, JSON.stringify({ error: 'method not allowed' }));
  });

  const onRoute = (route: string) => (r: LoggedRequest) => r.path.startsWith(`/v2/${endpointId}/${route}`);
  return Object.assign(fake, {
    endpoint: `${fake.url}/v2/${endpointId}`,
    setIdleWorkers: (n: number) => {
      idleWorkers = n;
    },
    setScenario: (s: RunPodScenario | RunPodScenario[]) => script.set(s),
    setJobScenario: (jobId: string, s: RunPodScenario) => {
      const job = jobs.get(jobId);
      if (job !== undefined) job.scenario = s;
    },
    job: (jobId: string) => jobs.get(jobId),
    jobs: () => [...jobs.keys()],
    submits: () => fake.requests.filter(onRoute('run')),
    polls: () => fake.requests.filter(onRoute('status/')),
    cancels: () => fake.requests.filter(onRoute('cancel/')),
    downloads: () => fake.requests.filter((r) => r.path.startsWith('/s3/')),
  });
}

export const runpodErrors = {
  /** RunPod's 429: the queue is over 50 jobs and over MAX_WORKERS × 500, or the /run rate limit. */
  rateLimited: (seconds = 5): RunPodScenario => ({
    kind: 'submit_error',
    status: 429,
    headers: { 'retry-after': String(seconds) },
    body: { error: 'Too many requests' },
  }),
  serverError: (): RunPodScenario => ({ kind: 'submit_error', status: 500, body: 'Internal Server Error' }),
};
