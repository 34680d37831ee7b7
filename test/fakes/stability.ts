import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ParsedPart, parseMultipart } from './multipart.js';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback Stability AI REST v2 (docs/hosted-protocols.md §1.5, docs/provider-protocols.md §5): multipart POSTs to
 * generate/{ultra,core,sd3}, edit/{inpaint,erase,search-and-replace} and upscale/{fast,conservative} answer the image
 * at once (raw bytes with `finish-reason` and `seed` headers for `Accept: image/*`, `{image, finish_reason, seed}` for
 * JSON); upscale/creative answers `{id}`, polled at GET /v2beta/results/{id} (202 in progress, 200 image, 404 gone).
 * Errors are `{id, name, errors: [...]}`. GET /v1/user/balance answers `{credits}`.
 */
export type StabilityScenario =
  /** `pendingPolls`: creative work answers 202 this many times first; `pollRetryAfter`: its first poll is a 429. */
  | { kind: 'success'; pendingPolls?: number; pollRetryAfter?: string; answerAs?: 'json' }
  /** The POST answers this status and body. */
  | { kind: 'error'; status: number; body: Record<string, unknown>; headers?: Record<string, string> }
  /** 200 with a blurred image and `finish-reason: CONTENT_FILTERED`. */
  | { kind: 'content_filtered' }
  /** A synchronous POST never answers (until the client leaves); creative work stays in progress. */
  | { kind: 'pending_forever' };

export interface FakeStability extends HttpFake {
  setScenario(next: StabilityScenario | StabilityScenario[]): void;
  /** What a creative result does from its next poll on (held work released, as when a crashed run comes back). */
  setTaskScenario(id: string, next: StabilityScenario): void;
  /** Forgets a result, as Stability does after 24 hours. */
  expire(id: string): void;
  submits(): LoggedRequest[];
  polls(): LoggedRequest[];
  /** Ids of every creative result started so far. */
  tasks(): string[];
  /** The multipart parts of a logged request. */
  parts(request: LoggedRequest): ParsedPart[];
}

export const RESULT_PNG = makePng(24, 16, [200, 120, 40]);
const BLURRED_PNG = makePng(24, 16, [128, 128, 128]);
/** Stability picks a seed when none (or 0) is sent. */
export const RANDOM_SEED = 3_141_592_653;

const SYNC_PATHS = new Set([
  '/v2beta/stable-image/generate/ultra',
  '/v2beta/stable-image/generate/core',
  '/v2beta/stable-image/generate/sd3',
  '/v2beta/stable-image/edit/inpaint',
  '/v2beta/stable-image/edit/erase',
  '/v2beta/stable-image/edit/search-and-replace',
  '/v2beta/stable-image/upscale/fast',
  '/v2beta/stable-image/upscale/conservative',
]);
const CREATIVE_PATH = '/v2beta/stable-image/upscale/creative';
/** Fields each endpoint cannot do without, as Stability's 400s name them. */
const REQUIRED: Record<string, string[]> = {
  generate: ['prompt'],
  inpaint: ['image', 'prompt'],
  erase: ['image'],
  'search-and-replace': ['image', 'prompt', 'search_prompt'],
  fast: ['image'],
  conservative: ['image', 'prompt'],
  creative: ['image', 'prompt'],
};

interface Task {
  scenario: StabilityScenario;
  polls: number;
  seed: number;
  limited: boolean;
}

export async function startFakeStability(options: { apiKey: string; echoKey?: boolean }): Promise<FakeStability> {
  const script = new Script<StabilityScenario>({ kind: 'success' });
  const tasks = new Map<string, Task>();
  let next = 0;
  const echo = () => (options.echoKey === true ? ` (key ${options.apiKey})` : '');
  const fail = (
    res: ServerResponse,
    status: number,
    name: string,
    errors: string[],
    headers?: Record<string, string>,
  ) => sendText(res, status, JSON.stringify({ id: `e${(next += 1)}`, name, errors }), headers);

  const fake = await startHttpFake((req, res, logged) => {
    const bearer = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer !== options.apiKey) {
      // A wrong key is echoed back as it was sent, as a careless server would.
      const said = options.echoKey === true ? ` (key ${bearer ?? ''})` : '';
      return fail(res, 401, 'unauthorized', [`authorization: invalid or missing header value${said}`]);
    }
    if (req.method === 'GET' && logged.path === '/v1/user/balance')
      return sendText(res, 200, JSON.stringify({ credits: 12.345 }));
    if (req.method === 'GET' && logged.path.startsWith('/v2beta/results/')) return result(req, res, logged);
    if (req.method === 'POST' && (SYNC_PATHS.has(logged.path) || logged.path === CREATIVE_PATH))
      return submit(req, res, logged);
    fail(res, 404, 'not_found', [`${logged.path}: no such route`]);
  });

  function submit(req: IncomingMessage, res: ServerResponse, logged: LoggedRequest): void {
    const parts = parseMultipart(req.headers['content-type'], logged.raw);
    if (parts === null) return fail(res, 400, 'bad_request', ['content-type: must be multipart/form-data']);
    const field = (name: string) => parts.find((p) => p.name === name);
    const endpoint = logged.path.split('/').pop()!;
    const missing = (REQUIRED[logged.path.includes('/generate/') ? 'generate' : endpoint] ?? []).filter(
      (name) => field(name) === undefined || field(name)!.data.length === 0,
    );
    if (endpoint === 'inpaint' && field('mask') === undefined) missing.push('mask');
    if (endpoint === 'sd3' && field('mode')?.data.toString() === 'image-to-image') {
      for (const name of ['image', 'strength']) if (field(name) === undefined) missing.push(name);
    }
    if (missing.length > 0)
      return fail(
        res,
        400,
        'bad_request',
        missing.map((m) => `${m}: is required`),
      );
    const s = script.next();
    if (s.kind === 'error') {
      const errors = Array.isArray(s.body.errors) ? (s.body.errors as string[]).map((e) => e + echo()) : undefined;
      return sendText(res, s.status, JSON.stringify({ ...s.body, ...(errors ? { errors } : {}) }), s.headers);
    }
    const sent = Number(field('seed')?.data.toString() ?? '0');
    const seed = sent > 0 ? sent : RANDOM_SEED;
    if (logged.path === CREATIVE_PATH) {
      const id = `${(next += 1).toString(16).padStart(8, '0')}a1b2c3d4e5f6`;
      tasks.set(id, { scenario: s, polls: 0, seed, limited: false });
      return sendText(res, 200, JSON.stringify({ id }));
    }
    if (s.kind === 'pending_forever') return; // held: the client leaves first
    image(req, res, s, seed);
  }

  function result(req: IncomingMessage, res: ServerResponse, logged: LoggedRequest): void {
    const id = logged.path.slice('/v2beta/results/'.length);
    const task = tasks.get(id);
    if (task === undefined) return fail(res, 404, 'not_found', [`id: ${id} was not found`]);
    const s = task.scenario;
    if (s.kind === 'success' && s.pollRetryAfter !== undefined && !task.limited) {
      task.limited = true;
      return fail(res, 429, 'rate_limit_exceeded', ['You have exceeded the rate limit'], {
        'retry-after': s.pollRetryAfter,
      });
    }
    task.polls += 1;
    if (s.kind === 'pending_forever' || (s.kind === 'success' && task.polls <= (s.pendingPolls ?? 2)))
      return sendText(res, 202, JSON.stringify({ id, status: 'in-progress' }));
    if (s.kind === 'error') return sendText(res, s.status, JSON.stringify(s.body), s.headers);
    image(req, res, s, task.seed);
  }

  function image(req: IncomingMessage, res: ServerResponse, s: StabilityScenario, seed: number): void {
    const filtered = s.kind === 'content_filtered';
    const png = filtered ? BLURRED_PNG : RESULT_PNG;
    const finish = filtered ? 'CONTENT_FILTERED' : 'SUCCESS';
    const json = (s.kind === 'success' && s.answerAs === 'json') || /application\/json/.test(req.headers.accept ?? '');
    if (json) {
      const body = JSON.stringify({ image: png.toString('base64'), finish_reason: finish, seed });
      return sendText(res, 200, body, { 'content-type': 'application/json; type=image/png' });
    }
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': String(png.length),
      'finish-reason': finish,
      seed: String(seed),
      'x-request-id': 'req-fake',
    });
    res.end(png);
  }

  return Object.assign(fake, {
    setScenario: (s: StabilityScenario | StabilityScenario[]) => script.set(s),
    setTaskScenario: (id: string, s: StabilityScenario) => {
      const task = tasks.get(id);
      if (task !== undefined) task.scenario = s;
    },
    expire: (id: string) => void tasks.delete(id),
    tasks: () => [...tasks.keys()],
    submits: () => fake.requests.filter((r) => r.method === 'POST'),
    polls: () => fake.requests.filter((r) => r.path.startsWith('/v2beta/results/')),
    parts: (request: LoggedRequest) => parseMultipart(request.headers['content-type'], request.raw) ?? [],
  });
}

/** Stability's failure answers (docs/provider-protocols.md §5). */
export const stabilityErrors = {
  badRequest: (): StabilityScenario => ({
    kind: 'error',
    status: 400,
    body: { id: 'e400', name: 'bad_request', errors: ['aspect_ratio: must be one of 16:9, 1:1', 'seed: too large'] },
  }),
  outOfCredits: (): StabilityScenario => ({
    kind: 'error',
    status: 402,
    body: { id: 'e402', name: 'payment_required', errors: ['You lack sufficient credits to make this request'] },
  }),
  moderated: (): StabilityScenario => ({
    kind: 'error',
    status: 403,
    body: {
      id: 'e403',
      name: 'content_moderation',
      errors: ['Your request was flagged by our content moderation system'],
    },
  }),
  tooLarge: (): StabilityScenario => ({
    kind: 'error',
    status: 413,
    body: { id: 'e413', name: 'payload_too_large', errors: ['body: payloads cannot be larger than 10MiB in size'] },
  }),
  unprocessable: (): StabilityScenario => ({
    kind: 'error',
    status: 422,
    body: { id: 'e422', name: 'invalid_language', errors: ['English is the only supported language'] },
  }),
  rateLimited: (seconds?: number): StabilityScenario => ({
    kind: 'error',
    status: 429,
    ...(seconds === undefined ? {} : { headers: { 'retry-after': String(seconds) } }),
    body: { id: 'e429', name: 'rate_limit_exceeded', errors: ['You have exceeded the rate limit'] },
  }),
  internal: (status = 500): StabilityScenario => ({
    kind: 'error',
    status,
    body: { id: 'e500', name: 'internal_error', errors: ['An unexpected server error occurred'] },
  }),
};
