import type { ServerResponse } from 'node:http';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback fal.ai queue (docs/hosted-protocols.md §1.3). `POST /{owner}/{alias}[/{subpath}]` with
 * `Authorization: Key …` answers IN_QUEUE with a request id and its status, response and cancel URLs, which drop the
 * sub-path as fal's do. `GET …/requests/{id}/status?logs=1` answers IN_QUEUE (a falling queue_position) for `queued`
 * polls, IN_PROGRESS with a tqdm-style log line per poll for `running` polls, then COMPLETED. `GET …/requests/{id}`
 * answers the model output, whose image URLs this server serves under /files/ as fal's CDN would (no key needed).
 * `PUT …/requests/{id}/cancel` answers 202 CANCELLATION_REQUESTED, or 400 ALREADY_COMPLETED; an unknown id is 404.
 */
export type FalScenario =
  | {
      kind: 'success';
      queued?: number;
      running?: number;
      /** The step count the runner logs ("3/8"). */
      steps?: number;
      /** has_nsfw_concepts per image; the count of images is its length (else the request's num_images). */
      nsfw?: boolean[];
      /** Images as data URIs in the result (sync_mode) instead of URLs. */
      dataUri?: boolean;
      /** The first status poll answers 429 with this Retry-After (seconds). */
      statusRetryAfter?: string;
      /** The submit answer leaves out its URLs (the client builds them). */
      bareSubmit?: boolean;
    }
  /** The submit answers this status and body. */
  | { kind: 'submit_error'; status: number; body: unknown; headers?: Record<string, string> }
  /** COMPLETED, but the result answers this status and body (fal's model errors: 422 detail lists, 500). */
  | { kind: 'result_error'; status: number; body: unknown }
  /** COMPLETED with an `error` in the status itself. */
  | { kind: 'completed_error'; error: string; errorType?: string }
  /** COMPLETED, but the result is gone (404). */
  | { kind: 'expired' }
  /** IN_PROGRESS for ever (until a cancel or a new task scenario). */
  | { kind: 'running_forever' };

interface FakeRequest {
  app: string;
  model: string;
  scenario: FalScenario;
  polls: number;
  limited: boolean;
  cancelled: boolean;
  completed: boolean;
  seed: number;
  count: number;
}

export interface FakeFal extends HttpFake {
  setScenario(next: FalScenario | FalScenario[]): void;
  /** What a request does from its next poll on (a held request released, as when a crashed run comes back). */
  setTaskScenario(id: string, next: FalScenario): void;
  /** Ids of every request submitted so far. */
  tasks(): string[];
  submits(): LoggedRequest[];
  statusPolls(): LoggedRequest[];
  results(): LoggedRequest[];
  cancels(): LoggedRequest[];
  downloads(): LoggedRequest[];
}

export const FAL_PNGS = [
  makePng(24, 16, [40, 120, 200]),
  makePng(24, 16, [200, 60, 60]),
  makePng(24, 16, [60, 200, 90]),
  makePng(24, 16, [220, 200, 40]),
];

const REQUESTS = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/;
const SUBMIT = /^\/[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/;

export async function startFakeFal(options: { apiKey: string; echoKey?: boolean }): Promise<FakeFal> {
  const script = new Script<FalScenario>({ kind: 'success' });
  const requests = new Map<string, FakeRequest>();
  let next = 0;
  const echo = (text: string) => (options.echoKey === true ? `${text} (key ${options.apiKey})` : text);
  // A wrong key is echoed back as it was sent, as a careless server would.
  const unauthorized = (res: ServerResponse, sent: string) =>
    sendText(res, 401, JSON.stringify({ detail: options.echoKey === true ? `Invalid key: ${sent}` : 'Invalid key' }));

  const fake = await startHttpFake((req, res, logged) => {
    if (logged.path.startsWith('/files/')) {
      const [, id, name] = /^\/files\/([^/]+)\/(\d+)\.png$/.exec(logged.path) ?? [];
      const png = FAL_PNGS[Number(name ?? 0) % FAL_PNGS.length]!;
      if (id === undefined || !requests.has(id)) return sendText(res, 404, JSON.stringify({ detail: 'Not Found' }));
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
      return;
    }
    const auth = String(req.headers.authorization ?? '');
    if (auth !== `Key ${options.apiKey}`) return unauthorized(res, auth.replace(/^Key /, ''));

    const match = REQUESTS.exec(logged.path);
    if (match !== null) {
      const [, app, id, tail] = match;
      const request = requests.get(id!);
      if (request === undefined || request.app !== app)
        return sendText(res, 404, JSON.stringify({ detail: `Request ${id} not found` }));
      if (req.method === 'PUT' && tail === '/cancel') return cancel(res, request);
      if (req.method === 'GET' && tail === '/status') return status(res, request, id!);
      if (req.method === 'GET' && tail === undefined) return result(res, request, id!);
      return sendText(res, 405, JSON.stringify({ detail: 'Method Not Allowed' }));
    }
    if (req.method === 'POST' && SUBMIT.test(logged.path)) {
      // fal answers 404 for an app it does not have; `missing/…` stands for one here.
      if (logged.path.startsWith('/missing/'))
        return sendText(res, 404, JSON.stringify({ detail: 'Application not found' }));
      const s = script.next();
      if (s.kind === 'submit_error') {
        const body =
          typeof s.body === 'object' && s.body !== null && 'detail' in s.body && typeof s.body.detail === 'string'
            ? { ...s.body, detail: echo(s.body.detail) }
            : s.body;
        return sendText(res, s.status, JSON.stringify(body), s.headers);
      }
      const model = logged.path.slice(1);
      const app = model.split('/').slice(0, 2).join('/');
      const id = `fal-req-${(next += 1)}`;
      const json = logged.json as { seed?: number; num_images?: number } | undefined;
      requests.set(id, {
        app,
        model,
        scenario: s,
        polls: 0,
        limited: false,
        cancelled: false,
        completed: false,
        seed: json?.seed ?? 4242,
        count: json?.num_images ?? 1,
      });
      const urls = urlsOf(app, id);
      return sendText(
        res,
        200,
        JSON.stringify({
          status: 'IN_QUEUE',
          request_id: id,
          ...(s.kind === 'success' && s.bareSubmit === true ? {} : urls),
          queue_position: 2,
        }),
      );
    }
    sendText(res, 404, JSON.stringify({ detail: 'Application not found' }));
  });

  function urlsOf(app: string, id: string) {
    const base = `${fake.url}/${app}/requests/${id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  function status(res: ServerResponse, request: FakeRequest, id: string): void {
    const s = request.scenario;
    if (s.kind === 'success' && s.statusRetryAfter !== undefined && !request.limited) {
      request.limited = true;
      return sendText(res, 429, JSON.stringify({ detail: 'Too many requests' }), { 'retry-after': s.statusRetryAfter });
    }
    request.polls += 1;
    const urls = urlsOf(request.app, id);
    const queued = s.kind === 'success' ? (s.queued ?? 1) : 0;
    const running = s.kind === 'success' ? (s.running ?? 2) : 0;
    const steps = s.kind === 'success' ? (s.steps ?? 8) : 8;
    if (request.cancelled) {
      request.completed = true;
      return sendText(
        res,
        200,
        JSON.stringify({ status: 'COMPLETED', request_id: id, ...urls, logs: [], error: 'Request cancelled' }),
      );
    }
    if (request.polls <= queued)
      return sendText(
        res,
        200,
        JSON.stringify({ status: 'IN_QUEUE', request_id: id, ...urls, queue_position: queued - request.polls }),
      );
    if (s.kind === 'running_forever' || request.polls <= queued + running) {
      const done = Math.min(steps, Math.max(1, request.polls - queued) * Math.ceil(steps / Math.max(1, running + 1)));
      const logs = [
        { message: 'Loading weights', level: 'INFO', source: 'USER', timestamp: '2026-12-02T08:00:00Z' },
        {
          message: ` ${Math.round((done / steps) * 100)}%|████      | ${done}/${steps} [00:01<00:02,  3.1it/s]`,
          level: 'STDERR',
          source: 'USER',
          timestamp: '2026-12-02T08:00:01Z',
        },
      ];
      return sendText(res, 200, JSON.stringify({ status: 'IN_PROGRESS', request_id: id, ...urls, logs }));
    }
    request.completed = true;
    const error =
      s.kind === 'completed_error'
        ? { error: echo(s.error), ...(s.errorType === undefined ? {} : { error_type: s.errorType }) }
        : {};
    sendText(
      res,
      200,
      JSON.stringify({
        status: 'COMPLETED',
        request_id: id,
        ...urls,
        logs: [],
        metrics: { inference_time: 1.2 },
        ...error,
      }),
    );
  }

  function result(res: ServerResponse, request: FakeRequest, id: string): void {
    const s = request.scenario;
    if (!request.completed) return sendText(res, 400, JSON.stringify({ detail: 'Request is still in progress' }));
    if (s.kind === 'expired') return sendText(res, 404, JSON.stringify({ detail: `Request ${id} not found` }));
    if (s.kind === 'result_error') {
      // An echoing server puts the key into the first problem's words.
      const text = JSON.stringify(s.body);
      const said = options.echoKey === true ? text.replace('"msg":"', `"msg":"(key ${options.apiKey}) `) : text;
      return sendText(res, s.status, said);
    }
    const flags =
      s.kind === 'success' && s.nsfw !== undefined ? s.nsfw : Array.from({ length: request.count }, () => false);
    const images = flags.map((_, n) => {
      const png = FAL_PNGS[n % FAL_PNGS.length]!;
      const url =
        s.kind === 'success' && s.dataUri === true
          ? `data:image/png;base64,${png.toString('base64')}`
          : `${fake.url}/files/${id}/${n}.png`;
      return { url, width: 24, height: 16, content_type: 'image/png', file_name: `${n}.png`, file_size: png.length };
    });
    sendText(
      res,
      200,
      JSON.stringify({
        images,
        seed: request.seed,
        has_nsfw_concepts: flags,
        prompt: '…',
        timings: { inference: 1.2 },
      }),
    );
  }

  function cancel(res: ServerResponse, request: FakeRequest): void {
    if (request.completed) return sendText(res, 400, JSON.stringify({ status: 'ALREADY_COMPLETED' }));
    request.cancelled = true;
    sendText(res, 202, JSON.stringify({ status: 'CANCELLATION_REQUESTED' }));
  }

  return Object.assign(fake, {
    setScenario: (s: FalScenario | FalScenario[]) => script.set(s),
    setTaskScenario: (id: string, s: FalScenario) => {
      const request = requests.get(id);
      if (request === undefined) return;
      request.scenario = s;
      request.polls = 0;
    },
    tasks: () => [...requests.keys()],
    submits: () => fake.requests.filter((r) => r.method === 'POST'),
    statusPolls: () => fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/status')),
    results: () => fake.requests.filter((r) => r.method === 'GET' && /\/requests\/[^/]+$/.test(r.path)),
    cancels: () => fake.requests.filter((r) => r.method === 'PUT'),
    downloads: () => fake.requests.filter((r) => r.path.startsWith('/files/')),
  });
}

export const falErrors = {
  /** What a balance-locked account answers (fal-ai/fal issues: 403 "User is locked. Reason: Exhausted balance"). */
  exhaustedBalance: (): FalScenario => ({
    kind: 'submit_error',
    status: 403,
    body: { detail: 'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.' },
  }),
  paymentRequired: (): FalScenario => ({ kind: 'submit_error', status: 402, body: { detail: 'Insufficient balance' } }),
  rateLimited: (seconds = 5): FalScenario => ({
    kind: 'submit_error',
    status: 429,
    headers: { 'retry-after': String(seconds) },
    body: { detail: 'Too many requests' },
  }),
  validation: (): FalScenario => ({
    kind: 'submit_error',
    status: 422,
    body: {
      detail: [
        {
          loc: ['body', 'image_size', 'width'],
          msg: 'ensure this value is less than or equal to 2048',
          type: 'value_error',
        },
        { loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' },
      ],
    },
  }),
  serverError: (): FalScenario => ({
    kind: 'submit_error',
    status: 500,
    body: { detail: 'Internal Server Error', error_type: 'internal_error' },
  }),
  moderated: (): FalScenario => ({
    kind: 'result_error',
    status: 422,
    body: {
      detail: [
        {
          loc: ['body', 'prompt'],
          msg: 'The content was flagged by a content checker.',
          type: 'content_policy_violation',
          url: 'https://docs.fal.ai/errors#content_policy_violation',
          categories: ['sexual'],
        },
      ],
    },
  }),
};
