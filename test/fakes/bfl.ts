import type { ServerResponse } from 'node:http';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback BFL FLUX API (docs/hosted-protocols.md §1.2): POST /v1/{model} with x-key answers `{id, polling_url}`
 * (the polling URL on this same server), GET /v1/get_result?id= answers Pending for `pendingPolls` polls then
 * Ready with a `sample` URL this server also serves, once: a second download finds it expired.
 */
export type BflScenario =
  /** `pollRetryAfter`: the first poll answers 429 with this Retry-After (seconds). */
  | { kind: 'success'; pendingPolls?: number; pollRetryAfter?: string; dropPolls?: number }
  /** The submit answers this status and body. */
  | { kind: 'submit_error'; status: number; body: Record<string, unknown>; headers?: Record<string, string> }
  /** Polling ends in this terminal status (Error, Request Moderated, Content Moderated, Task not found). */
  | { kind: 'terminal'; status: string; error?: string }
  /** Ready, but the sample link answers 403 (expired). */
  | { kind: 'expired_sample' }
  /** Pending for ever. */
  | { kind: 'pending_forever' };

export interface FakeBfl extends HttpFake {
  setScenario(next: BflScenario | BflScenario[]): void;
  submits(): LoggedRequest[];
  polls(): LoggedRequest[];
  downloads(): LoggedRequest[];
  setTaskScenario(id: string, next: BflScenario): void;
  /** Ids of every task submitted so far. */
  tasks(): string[];
  /** Drops every task, as BFL does once results expire: polls answer Task not found. */
  forgetTasks(): void;
}

export const SAMPLE_PNG = makePng(24, 16, [40, 120, 200]);

export async function startFakeBfl(options: { apiKey: string; echoKey?: boolean }): Promise<FakeBfl> {
  const script = new Script<BflScenario>({ kind: 'success' });
  const tasks = new Map<
    string,
    { scenario: BflScenario; polls: number; dropped: number; seed: number; downloaded: boolean; limited?: boolean }
  >();
  let next = 0;
  const echo = () => (options.echoKey === true ? ` (key ${options.apiKey})` : '');
  // A wrong key is echoed back as it was sent, as a careless server would.
  const unauthorized = (res: ServerResponse, sent: string) =>
    sendText(res, 403, JSON.stringify({ detail: `Invalid key${options.echoKey === true ? ` (key ${sent})` : ''}` }));

  const fake = await startHttpFake((req, res, logged) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (logged.path.startsWith('/samples/')) {
      const task = tasks.get(logged.path.slice('/samples/'.length));
      if (task === undefined || task.downloaded || task.scenario.kind === 'expired_sample') {
        sendText(
          res,
          403,
          '<Error><Code>AuthenticationFailed</Code><Message>Signed expiry time has passed</Message></Error>',
        );
        return;
      }
      task.downloaded = true;
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(SAMPLE_PNG.length) });
      res.end(SAMPLE_PNG);
      return;
    }
    if (req.headers['x-key'] !== options.apiKey) return unauthorized(res, String(req.headers['x-key']));
    if (req.method === 'GET' && logged.path === '/v1/get_result') {
      const task = tasks.get(url.searchParams.get('id') ?? '');
      if (task === undefined) return sendText(res, 404, JSON.stringify({ status: 'Task not found' }));
      const s = task.scenario;
      if (s.kind === 'success' && s.pollRetryAfter !== undefined && !task.limited) {
        task.limited = true;
        return sendText(res, 429, JSON.stringify({ error: 'rate_limit_exceeded' }), {
          'retry-after': s.pollRetryAfter,
        });
      }
      if (s.kind === 'success' && (s.dropPolls ?? 0) > task.dropped) {
        // The connection goes before any answer: a network that went away while the task ran on.
        task.dropped += 1;
        res.socket?.destroy();
        return;
      }
      task.polls += 1;
      if (s.kind === 'pending_forever' || (s.kind === 'success' && task.polls <= (s.pendingPolls ?? 2)))
        return sendText(res, 200, JSON.stringify({ id: url.searchParams.get('id'), status: 'Pending', result: null }));
      if (s.kind === 'terminal')
        return sendText(
          res,
          200,
          JSON.stringify({ status: s.status, ...(s.error ? { error: s.error + echo() } : {}) }),
        );
      const id = url.searchParams.get('id')!;
      const sample = `${fake.url}/samples/${id}?se=2026-12-02T08%3A00%3A00Z&sig=fake`;
      return sendText(
        res,
        200,
        JSON.stringify({ id, status: 'Ready', result: { sample, prompt: '…', seed: task.seed } }),
      );
    }
    if (req.method === 'POST' && /^\/v1\/[a-z0-9.-]+$/.test(logged.path)) {
      const s = script.next();
      if (s.kind === 'submit_error') {
        const body = { ...s.body, ...(typeof s.body.message === 'string' ? { message: s.body.message + echo() } : {}) };
        return sendText(res, s.status, JSON.stringify(body), s.headers);
      }
      const id = `gen_fake${(next += 1)}`;
      const json = logged.json as { seed?: number } | undefined;
      tasks.set(id, { scenario: s, polls: 0, dropped: 0, seed: json?.seed ?? 4242, downloaded: false });
      return sendText(res, 200, JSON.stringify({ id, polling_url: `${fake.url}/v1/get_result?id=${id}` }));
    }
    sendText(res, 404, JSON.stringify({ detail: 'Not Found' }));
  });

  return Object.assign(fake, {
    setScenario: (s: BflScenario | BflScenario[]) => script.set(s),
    // What a task does from its next poll on (a held task released, as when a crashed run comes back).
    setTaskScenario: (id: string, s: BflScenario) => {
      const task = tasks.get(id);
      if (task !== undefined) task.scenario = s;
    },
    tasks: () => [...tasks.keys()],
    forgetTasks: () => tasks.clear(),
    submits: () => fake.requests.filter((r) => r.method === 'POST'),
    polls: () => fake.requests.filter((r) => r.path === '/v1/get_result'),
    downloads: () => fake.requests.filter((r) => r.path.startsWith('/samples/')),
  });
}

export const bflErrors = {
  outOfCredits: (): BflScenario => ({ kind: 'submit_error', status: 402, body: { detail: 'Insufficient credits' } }),
  rateLimited: (seconds = 5): BflScenario => ({
    kind: 'submit_error',
    status: 429,
    headers: { 'retry-after': String(seconds) },
    body: { error: 'rate_limit_exceeded', message: 'Too many concurrent requests', retry_after: seconds },
  }),
  forbidden: (): BflScenario => ({ kind: 'submit_error', status: 403, body: { message: 'Forbidden' } }),
};
