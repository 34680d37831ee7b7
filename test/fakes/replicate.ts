import type { IncomingMessage, ServerResponse } from 'node:http';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback Replicate HTTP API (docs/hosted-protocols.md §1.4). POST /v1/models/{owner}/{name}/predictions or
 * POST /v1/predictions {version, input} with `Authorization: Bearer` answers 201 with the prediction: `starting`, or
 * already `succeeded` when `Prefer: wait` is sent and the scenario is instant. GET /v1/predictions/{id} moves it
 * through `processing` (tqdm lines in `logs`) to its end; POST …/cancel cancels it; outputs are links on this server
 * (standing in for replicate.delivery, which needs no auth) or data URIs. Errors are problem details.
 */
export type ReplicateScenario =
  /** `processingPolls` polls answer processing first (2 unless said; 0 with Prefer: wait finishes in the create). */
  | {
      kind: 'success';
      processingPolls?: number;
      outputs?: number;
      output?: 'list' | 'string' | 'data';
      /** The first poll answers 429 with this Retry-After (seconds). */
      pollRetryAfter?: string;
      /** With Prefer: wait the create answers every output file while its status still says processing. */
      heldOutput?: boolean;
      /** The first this many polls answer 502 (a gateway blip). */
      pollErrors?: number;
    }
  /** The create call answers this status and body. */
  | { kind: 'submit_error'; status: number; body: Record<string, unknown>; headers?: Record<string, string> }
  /** After one processing poll the prediction fails with this error text. */
  | { kind: 'failed'; error: string }
  /** The prediction ends canceled (by someone else) or aborted (its deadline passed before it started). */
  | { kind: 'ended'; status: 'canceled' | 'aborted' }
  /** Succeeded, but the output link answers 404 (expired). */
  | { kind: 'expired_output' }
  /** Succeeded long ago: Replicate removed its outputs (`data_removed: true`, output null). */
  | { kind: 'data_removed' }
  /** Processing for ever, until cancelled. */
  | { kind: 'pending_forever' }
  /** The create call is held open (as Prefer: wait does) and never answers. */
  | { kind: 'hold_create' };

export interface FakePrediction {
  scenario: ReplicateScenario;
  polls: number;
  seed: number;
  input: Record<string, unknown>;
  canceled: boolean;
  limited?: boolean;
  errored?: number;
}

export interface FakeReplicate extends HttpFake {
  setScenario(next: ReplicateScenario | ReplicateScenario[]): void;
  /** What a prediction does from its next poll on (a held prediction released, as when a crashed run comes back). */
  setTaskScenario(id: string, next: ReplicateScenario): void;
  submits(): LoggedRequest[];
  polls(): LoggedRequest[];
  cancels(): LoggedRequest[];
  downloads(): LoggedRequest[];
  /** Ids of every prediction created so far. */
  predictions(): string[];
}

export const OUTPUT_PNG = makePng(24, 16, [200, 90, 40]);
const STEPS = 28;

function tqdm(step: number): string {
  const percent = Math.round((step / STEPS) * 100);
  const filled = Math.round(percent / 10);
  const bar = '█'.repeat(filled) + ' '.repeat(10 - filled);
  return `${String(percent).padStart(3)}%|${bar}| ${step}/${STEPS} [00:03<00:03,  4.12it/s]`;
}

export async function startFakeReplicate(options: { apiKey: string; echoKey?: boolean }): Promise<FakeReplicate> {
  const script = new Script<ReplicateScenario>({ kind: 'success' });
  const predictions = new Map<string, FakePrediction>();
  let next = 0;
  const echo = () => (options.echoKey === true ? ` (token ${options.apiKey})` : '');

  function view(id: string, p: FakePrediction, phase: 'create' | 'poll', syncWait: boolean): Record<string, unknown> {
    const s = p.scenario;
    const urls = {
      get: `${fake.url}/v1/predictions/${id}`,
      cancel: `${fake.url}/v1/predictions/${id}/cancel`,
      stream: `${fake.url}/stream/${id}`,
      web: `https://replicate.com/p/${id}`,
    };
    const base = {
      id,
      model: 'owner/model',
      version: 'hidden',
      input: p.input,
      urls,
      created_at: '2026-12-02T08:00:00Z',
    };
    const processing = (step: number) => ({
      ...base,
      status: 'processing',
      output: null,
      error: null,
      logs: `Using seed: ${p.seed}\n${tqdm(Math.max(0, step - 1))}\r${tqdm(step)}\n`,
    });
    if (p.canceled) return { ...base, status: 'canceled', output: null, error: null, logs: '' };
    if (phase === 'create' && syncWait && s.kind === 'success' && s.heldOutput === true)
      return { ...processing(STEPS), output: [`${fake.url}/delivery/${id}/out-0.png`] };
    const instant = s.kind === 'success' && (s.processingPolls ?? 2) === 0;
    if (phase === 'create' && !(syncWait && instant))
      return { ...base, status: 'starting', output: null, error: null, logs: '' };
    if (s.kind === 'pending_forever') return processing(Math.min(STEPS - 1, p.polls + 1));
    if (s.kind === 'failed') {
      if (p.polls <= 1) return processing(1);
      return { ...base, status: 'failed', output: null, error: s.error + echo(), logs: 'Traceback …' };
    }
    if (s.kind === 'ended') return { ...base, status: s.status, output: null, error: null, logs: '' };
    if (s.kind === 'data_removed')
      return { ...base, status: 'succeeded', output: null, error: null, logs: '', data_removed: true };
    const pending = s.kind === 'success' ? (s.processingPolls ?? 2) : 0;
    if (phase === 'poll' && p.polls <= pending) return processing(Math.round((STEPS * p.polls) / (pending + 1)));
    const count = s.kind === 'success' ? (s.outputs ?? 1) : 1;
    const links = Array.from({ length: count }, (_, n) =>
      s.kind === 'success' && s.output === 'data'
        ? `data:image/png;base64,${OUTPUT_PNG.toString('base64')}`
        : `${fake.url}/delivery/${id}/out-${n}.png`,
    );
    return {
      ...base,
      status: 'succeeded',
      output: s.kind === 'success' && s.output === 'string' ? links[0] : links,
      error: null,
      logs: `Using seed: ${p.seed}\n${tqdm(STEPS)}\n`,
      metrics: { predict_time: 1.25, image_count: count },
    };
  }

  const unauthorized = (res: ServerResponse, sent: string) =>
    sendText(
      res,
      401,
      JSON.stringify({
        title: 'Unauthenticated',
        detail: `You did not pass a valid authentication token${options.echoKey === true ? ` (got ${sent})` : ''}`,
        status: 401,
      }),
    );

  function create(req: IncomingMessage, res: ServerResponse, logged: LoggedRequest): void {
    const s = script.next();
    if (s.kind === 'hold_create') return; // Never answered: the client gives up.
    if (s.kind === 'submit_error') {
      const body = { ...s.body, ...(typeof s.body.detail === 'string' ? { detail: s.body.detail + echo() } : {}) };
      return sendText(res, s.status, JSON.stringify(body), s.headers);
    }
    const json = logged.json as { input?: Record<string, unknown> } | undefined;
    if (json?.input === undefined || typeof json.input.prompt !== 'string') {
      return sendText(
        res,
        422,
        JSON.stringify({
          title: 'Input validation failed',
          detail: '- input: prompt is required',
          status: 422,
          invalid_fields: [{ type: 'required', field: 'input', description: 'prompt is required' }],
        }),
      );
    }
    const id = `rfake${(next += 1)}`;
    const seed = typeof json.input.seed === 'number' ? json.input.seed : 4242;
    const p: FakePrediction = { scenario: s, polls: 0, seed, input: json.input, canceled: false };
    predictions.set(id, p);
    const syncWait = String(req.headers.prefer ?? '').startsWith('wait');
    sendText(res, 201, JSON.stringify(view(id, p, 'create', syncWait)), {
      location: `${fake.url}/v1/predictions/${id}`,
    });
  }

  const fake = await startHttpFake((req, res, logged) => {
    if (logged.path.startsWith('/delivery/')) {
      const id = logged.path.split('/')[2] ?? '';
      const p = predictions.get(id);
      if (p === undefined || p.scenario.kind === 'expired_output')
        return sendText(res, 404, '<Error><Code>NoSuchKey</Code></Error>', { 'content-type': 'application/xml' });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(OUTPUT_PNG.length) });
      res.end(OUTPUT_PNG);
      return;
    }
    const auth = String(req.headers.authorization ?? '');
    if (auth !== `Bearer ${options.apiKey}`) return unauthorized(res, auth.replace(/^Bearer /, ''));
    if (req.method === 'GET' && logged.path === '/v1/account')
      return sendText(res, 200, JSON.stringify({ type: 'user', username: 'atelier-tester', name: 'Atelier Tester' }));
    if (
      req.method === 'POST' &&
      (/^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(logged.path) || logged.path === '/v1/predictions')
    )
      return create(req, res, logged);
    const match = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(logged.path);
    if (match !== null) {
      const id = match[1]!;
      const p = predictions.get(id);
      if (p === undefined)
        return sendText(res, 404, JSON.stringify({ title: 'Not found', detail: 'Not found.', status: 404 }));
      if (match[2] !== undefined && req.method === 'POST') {
        p.canceled = true;
        return sendText(res, 200, JSON.stringify(view(id, p, 'poll', false)));
      }
      const s = p.scenario;
      if (s.kind === 'success' && s.pollRetryAfter !== undefined && p.limited !== true) {
        p.limited = true;
        return sendText(res, 429, JSON.stringify({ detail: 'Request was throttled.', status: 429 }), {
          'retry-after': s.pollRetryAfter,
        });
      }
      if (s.kind === 'success' && (p.errored ?? 0) < (s.pollErrors ?? 0)) {
        p.errored = (p.errored ?? 0) + 1;
        return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>', { 'content-type': 'text/html' });
      }
      p.polls += 1;
      return sendText(res, 200, JSON.stringify(view(id, p, 'poll', false)));
    }
    sendText(res, 404, JSON.stringify({ title: 'Not found', detail: 'Not found.', status: 404 }));
  });

  return Object.assign(fake, {
    setScenario: (s: ReplicateScenario | ReplicateScenario[]) => script.set(s),
    setTaskScenario: (id: string, s: ReplicateScenario) => {
      const p = predictions.get(id);
      if (p !== undefined) {
        p.scenario = s;
        p.polls = 0;
        // Released as if the run that created it had died without cancelling it.
        p.canceled = false;
      }
    },
    predictions: () => [...predictions.keys()],
    submits: () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions')),
    polls: () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/predictions/')),
    cancels: () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    downloads: () => fake.requests.filter((r) => r.path.startsWith('/delivery/')),
  });
}

/** Replicate's failure answers as its API sends them (problem details; the 429 body as its rate-limit page shows). */
export const replicateErrors = {
  outOfCredit: (): ReplicateScenario => ({
    kind: 'submit_error',
    status: 402,
    body: {
      title: 'Insufficient credit',
      detail:
        'You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit.',
      status: 402,
    },
  }),
  rateLimited: (retryAfter?: string): ReplicateScenario => ({
    kind: 'submit_error',
    status: 429,
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
    body: { detail: 'Request was throttled. Your rate limit resets in ~30s.', status: 429 },
  }),
  invalidInput: (): ReplicateScenario => ({
    kind: 'submit_error',
    status: 422,
    body: {
      title: 'Input validation failed',
      detail: '- input.aspect_ratio: aspect_ratio must be one of the following: "1:1", "16:9"',
      status: 422,
      invalid_fields: [{ type: 'enum', field: 'input.aspect_ratio', description: 'aspect_ratio must be one of …' }],
    },
  }),
  unknownModel: (): ReplicateScenario => ({
    kind: 'submit_error',
    status: 404,
    body: { title: 'Not found', detail: 'The requested resource could not be found.', status: 404 },
  }),
  serverError: (): ReplicateScenario => ({
    kind: 'submit_error',
    status: 500,
    body: { title: 'Internal Server Error', detail: 'Something went wrong.', status: 500 },
  }),
  unavailable: (): ReplicateScenario => ({
    kind: 'submit_error',
    status: 503,
    headers: { 'retry-after': '3' },
    body: { title: 'Service Unavailable', detail: 'Replicate is temporarily unavailable.', status: 503 },
  }),
};
