import type { ServerResponse } from 'node:http';
import { credentialEcho, nestedEcho } from './echo.js';
import { type ParsedPart, parseMultipart } from './multipart.js';
import { pngFor } from './png.js';
import { type LoggedRequest, Script, delay, sendText, startHttpFake, streamHugeBody } from './server.js';

/** What the next POST /v1/images/generations does. Streaming vs JSON follows the request's `stream` field. */
export type OpenAIScenario =
  | {
      kind: 'success';
      /** Images to return; defaults to the request's n. */
      images?: number;
      /** Delay before the JSON answer, or between stream events. */
      stepMs?: number;
      revisedPrompt?: string;
      /** Stream framing variants clients must accept. */
      crlf?: boolean;
      keepaliveComments?: boolean;
      doneMarker?: boolean;
      /** Stream: send fewer partials than asked (allowed by the API). */
      partials?: number;
    }
  | {
      kind: 'error';
      status: number;
      type: string;
      code: string | null;
      message: string;
      param?: string | null;
      headers?: Record<string, string>;
    }
  /** Stream: the socket is destroyed after `afterPartials` partial events; JSON: after half the body. */
  | { kind: 'cut'; afterPartials?: number }
  | { kind: 'malformed_json' }
  | { kind: 'invalid_base64' }
  /** A body of `bytes` written lazily; `declareLength` sends content-length up front. */
  | { kind: 'huge'; bytes: number; declareLength?: boolean }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** A mid-stream `event: error` after one partial. */
  | { kind: 'stream_error' };

/** Real OpenAI error bodies and headers (docs/provider-protocols.md §1.7). */
type ErrorScenario = Extract<OpenAIScenario, { kind: 'error' }>;

export const openAIErrors = {
  unauthorized: (): ErrorScenario => ({
    kind: 'error',
    status: 401,
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message:
      'Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.',
  }),
  orgNotVerified: (): ErrorScenario => ({
    kind: 'error',
    status: 403,
    type: 'invalid_request_error',
    code: null,
    message: 'Your organization must be verified to use the model `gpt-image-1`.',
  }),
  rateLimited: (retryAfter: { seconds?: number; ms?: number; date?: string } = { seconds: 2 }): ErrorScenario => ({
    kind: 'error',
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit exceeded for images per minute in organization org-X. Limit: 5/1min. Current: 6/1min.',
    headers: {
      ...(retryAfter.seconds === undefined ? {} : { 'retry-after': String(retryAfter.seconds) }),
      ...(retryAfter.ms === undefined ? {} : { 'retry-after-ms': String(retryAfter.ms) }),
      ...(retryAfter.date === undefined ? {} : { 'retry-after': retryAfter.date }),
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '12s',
    },
  }),
  quota: (): ErrorScenario => ({
    kind: 'error',
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: 'You exceeded your current quota, please check your plan and billing details.',
  }),
  serverError: (): ErrorScenario => ({
    kind: 'error',
    status: 500,
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  }),
  unavailable: (): ErrorScenario => ({
    kind: 'error',
    status: 503,
    type: 'server_error',
    code: 'service_unavailable',
    message: 'The engine is currently overloaded, please try again later.',
  }),
  moderation: (): ErrorScenario => ({
    kind: 'error',
    status: 400,
    type: 'image_generation_user_error',
    code: 'moderation_blocked',
    message:
      'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID 6f1c. safety_violations=[sexual].',
  }),
  contentPolicy: (): ErrorScenario => ({
    kind: 'error',
    status: 400,
    type: 'invalid_request_error',
    code: 'content_policy_violation',
    message:
      'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
  }),
  badValue: (param: string): ErrorScenario => ({
    kind: 'error',
    status: 400,
    type: 'invalid_request_error',
    code: 'invalid_value',
    message: `Invalid value for '${param}'.`,
    param,
  }),
};

export interface FakeOpenAIOptions {
  /** The key the fake accepts; any other Bearer gets a real-looking 401. */
  apiKey?: string;
  /** Model ids for GET /v1/models. */
  models?: string[];
  scenario?: OpenAIScenario;
  /** A careless server: the credentials it was sent come back in every field, header and nested object. */
  echoCredentials?: boolean;
}

/** One POST /v1/images/edits as the fake parsed it: every scalar as the string it arrived as, files as bytes. */
export interface ReceivedEdit {
  fields: Record<string, string>;
  /** The `image` / `image[]` parts, in order, with the part name each used. */
  images: ParsedPart[];
  mask?: ParsedPart;
}

export interface FakeOpenAI {
  url: string;
  requests: LoggedRequest[];
  /** POST /v1/images/generations requests only. */
  generationRequests(): LoggedRequest[];
  /** POST /v1/images/edits requests that parsed (the fake answers the others with OpenAI's 400). */
  edits: ReceivedEdit[];
  /** One scenario, or a list taken in order (the last repeats): e.g. [rateLimited(), success]. */
  setScenario(next: OpenAIScenario | OpenAIScenario[]): void;
  close(): Promise<void>;
}

const GENERATIONS = '/v1/images/generations';
const EDITS = '/v1/images/edits';
const DECIMAL = /^\d+$/;

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const apiKey = options.apiKey ?? 'sk-test-fake-key';
  const script = new Script<OpenAIScenario>(options.scenario ?? { kind: 'success' });
  let requestCounter = 0;
  const edits: ReceivedEdit[] = [];

  const fake = await startHttpFake(async (req, res, logged) => {
    requestCounter += 1;
    const echo = options.echoCredentials === true ? credentialEcho(req.headers) : '';
    const common: Record<string, string> = {
      'x-request-id': `req_fake${requestCounter}${echo === '' ? '' : ` ${echo}`}`,
      'openai-version': '2020-10-01',
      'openai-processing-ms': '12',
    };
    if (echo !== '') common['x-echo'] = echo;
    const path = logged.path.replace(/^\/v1\/v1\//, '/v1/');
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      // Some compatible servers quote the whole key they were given, where api.openai.com masks it.
      const given = /^Bearer\s+(.*)$/i.exec(req.headers.authorization ?? '')?.[1];
      const unauthorized = openAIErrors.unauthorized();
      if (given !== undefined && given !== '')
        unauthorized.message = `Incorrect API key provided: ${given}. You can find your API key at https://platform.openai.com/account/api-keys.`;
      sendError(res, withEcho(unauthorized, echo), common, echo);
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      const ids = options.models ?? ['gpt-4o', 'gpt-image-1', 'dall-e-3', 'whisper-1'];
      const listed = echo === '' ? ids : [...ids, `gpt-image-${echo}`];
      sendText(
        res,
        200,
        JSON.stringify(
          {
            object: 'list',
            data: listed.map((id) => ({ id, object: 'model', created: 1698785189, owned_by: 'system' })),
          },
          null,
          2,
        ),
        common,
      );
      return;
    }
    if (req.method === 'POST' && path === EDITS) {
      const parsed = parseEdit(req.headers['content-type'], logged.raw);
      if ('error' in parsed) return sendError(res, parsed.error, common);
      edits.push(parsed.edit);
      const scenario = script.next();
      await respond(
        res,
        logged,
        parsed.body,
        scenario.kind === 'error' ? withEcho(scenario, echo) : scenario,
        common,
        echo,
        'image_edit',
      );
      return;
    }
    if (req.method !== 'POST' || path !== GENERATIONS) {
      sendText(
        res,
        404,
        JSON.stringify(
          {
            error: {
              message: `Invalid URL (${req.method} ${logged.path})`,
              type: 'invalid_request_error',
              param: null,
              code: null,
            },
          },
          null,
          2,
        ),
        common,
      );
      return;
    }
    const body = (logged.json ?? {}) as Record<string, unknown>;
    const scenario = script.next();
    await respond(res, logged, body, scenario.kind === 'error' ? withEcho(scenario, echo) : scenario, common, echo);
  });

  return {
    url: fake.url,
    requests: fake.requests,
    generationRequests: () =>
      fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/images/generations')),
    edits,
    setScenario: (next) => script.set(next),
    close: fake.close,
  };
}

/** The echo in every field of an error body: message, type, code and param. */
function withEcho(scenario: ErrorScenario, echo: string): ErrorScenario {
  if (echo === '') return scenario;
  return {
    ...scenario,
    message: `${scenario.message} (${echo})`,
    type: `${scenario.type} ${echo}`,
    code: `${scenario.code ?? 'error'} ${echo}`,
    param: `${scenario.param ?? 'prompt'} ${echo}`,
  };
}

function sendError(res: ServerResponse, scenario: ErrorScenario, common: Record<string, string>, echo = ''): void {
  const body = {
    error: {
      message: scenario.message,
      type: scenario.type,
      param: scenario.param ?? null,
      code: scenario.code,
      ...(echo === '' ? {} : { details: nestedEcho(echo) }),
    },
  };
  sendText(res, scenario.status, JSON.stringify(body, null, 2), { ...common, ...scenario.headers });
}

/**
 * The edits form as OpenAI reads it (docs/provider-protocols.md §1.4): images under `image` or `image[]`, an optional
 * `mask` file, and every scalar a plain string part; what it would refuse gets its 400.
 */
function parseEdit(
  contentType: string | undefined,
  raw: Buffer,
): { edit: ReceivedEdit; body: Record<string, unknown> } | { error: ErrorScenario } {
  const bad = (
    message: string,
    param: string | null,
    code: string | null = 'invalid_value',
  ): { error: ErrorScenario } => ({
    error: { kind: 'error', status: 400, type: 'invalid_request_error', code, message, param },
  });
  const parts = parseMultipart(contentType, raw);
  if (parts === null) return bad('Invalid Content-Type header, expected multipart/form-data.', null, null);
  const fields: Record<string, string> = {};
  const images: ParsedPart[] = [];
  let mask: ParsedPart | undefined;
  for (const part of parts) {
    if (part.name === 'image' || part.name === 'image[]') {
      if (part.filename === undefined) return bad(`Expected a file for '${part.name}', got a string.`, 'image');
      images.push(part);
    } else if (part.name === 'mask') {
      if (part.filename === undefined) return bad("Expected a file for 'mask', got a string.", 'mask');
      mask = part;
    } else {
      if (part.filename !== undefined) return bad(`Expected a string for '${part.name}', got a file.`, part.name);
      fields[part.name] = part.data.toString('utf8');
    }
  }
  if (images.length === 0) return bad("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  if (fields.prompt === undefined || fields.prompt === '')
    return bad("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  for (const name of ['n', 'partial_images'] as const) {
    if (fields[name] !== undefined && !DECIMAL.test(fields[name]))
      return bad(`Invalid type for '${name}': expected an integer, but got a string that is not one.`, name);
  }
  if (fields.stream !== undefined && fields.stream !== 'true' && fields.stream !== 'false')
    return bad("Invalid value for 'stream': expected a boolean.", 'stream');
  const body: Record<string, unknown> = { ...fields };
  if (fields.n !== undefined) body.n = Number(fields.n);
  if (fields.partial_images !== undefined) body.partial_images = Number(fields.partial_images);
  body.stream = fields.stream === 'true';
  return { edit: { fields, images, ...(mask === undefined ? {} : { mask }) }, body };
}

async function respond(
  res: ServerResponse,
  logged: LoggedRequest,
  body: Record<string, unknown>,
  scenario: OpenAIScenario,
  common: Record<string, string>,
  echo: string,
  events: 'image_generation' | 'image_edit' = 'image_generation',
): Promise<void> {
  const tail = echo === '' ? '' : ` ${echo}`;
  const n = typeof body.n === 'number' ? body.n : 1;
  const streaming = body.stream === true;
  switch (scenario.kind) {
    case 'error':
      sendError(res, scenario, common, echo);
      return;
    case 'hang':
      return; // never answers; the socket stays open until the client gives up
    case 'malformed_json':
      sendText(res, 200, '{\n  "created": 1713833628,\n  "data": [\n    {"b64_json": "iVBOR', common);
      return;
    case 'invalid_base64':
      sendText(
        res,
        200,
        JSON.stringify({ created: 1713833628, data: [{ b64_json: 'iVBORw0KGgo!!!not*base64###' }] }, null, 2),
        common,
      );
      return;
    case 'huge': {
      const headers: Record<string, string> = { ...common, 'content-type': 'application/json' };
      if (scenario.declareLength === true) headers['content-length'] = String(scenario.bytes);
      res.writeHead(200, headers);
      streamHugeBody(res, logged, scenario.bytes);
      return;
    }
    default:
      break;
  }
  if (!streaming) {
    if (scenario.kind === 'stream_error') throw new Error('stream_error needs a streaming request');
    const images = scenario.kind === 'success' ? (scenario.images ?? n) : n;
    const json = JSON.stringify(
      {
        created: 1713833628,
        background: `opaque${tail}`,
        data: Array.from({ length: images }, (_, i) => ({
          b64_json: pngFor(i).toString('base64'),
          ...(scenario.kind === 'success' && scenario.revisedPrompt !== undefined
            ? { revised_prompt: scenario.revisedPrompt + tail }
            : echo === ''
              ? {}
              : { revised_prompt: `revised${tail}` }),
        })),
        output_format: `png${tail}`,
        quality: `high${tail}`,
        size: (typeof body.size === 'string' ? body.size : '1024x1024') + tail,
        usage: {
          input_tokens: 50,
          input_tokens_details: { image_tokens: 40, text_tokens: 10 },
          output_tokens: 4160,
          total_tokens: 4210,
          ...(echo === '' ? {} : { note: nestedEcho(echo) }),
        },
      },
      null,
      2,
    );
    if (scenario.kind === 'success' && scenario.stepMs !== undefined) await delay(scenario.stepMs);
    if (scenario.kind === 'cut') {
      res.writeHead(200, { ...common, 'content-type': 'application/json', 'content-length': String(json.length) });
      res.write(json.slice(0, Math.floor(json.length / 2)));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    if (!res.destroyed) sendText(res, 200, json, common);
    return;
  }

  // Streaming (docs/provider-protocols.md §1.6): event line + single-line JSON data line + blank line.
  res.writeHead(200, { ...common, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const success = scenario.kind === 'success' ? scenario : undefined;
  const eol = success?.crlf === true ? '\r\n' : '\n';
  const stepMs = success?.stepMs ?? 5;
  const requested = typeof body.partial_images === 'number' ? body.partial_images : 0;
  const partials =
    scenario.kind === 'cut'
      ? (scenario.afterPartials ?? 1)
      : scenario.kind === 'stream_error'
        ? 1
        : (success?.partials ?? requested);
  const fields = {
    created_at: 1713833628,
    size: `${String(body.size ?? 'auto')}${tail}`,
    quality: `${String(body.quality ?? 'auto')}${tail}`,
    background: `${String(body.background ?? 'auto')}${tail}`,
    output_format: `${String(body.output_format ?? 'png')}${tail}`,
  };
  const send = (event: string, data: unknown): boolean => {
    if (res.destroyed) return false;
    if (success?.keepaliveComments === true) res.write(`: keepalive${eol}`);
    res.write(`event: ${event}${eol}data: ${JSON.stringify(data)}${eol}${eol}`);
    return true;
  };
  // An event type this client does not know, named with the echo (clients trace what they skip).
  if (echo !== '' && !send(`${events}.note${tail}`, { type: `${events}.note${tail}`, detail: nestedEcho(echo) }))
    return;
  for (let i = 0; i < partials; i += 1) {
    await delay(stepMs);
    if (
      !send(`${events}.partial_image`, {
        type: `${events}.partial_image`,
        b64_json: pngFor(100 + i).toString('base64'),
        partial_image_index: i,
        ...fields,
      })
    )
      return;
  }
  if (scenario.kind === 'cut') {
    await delay(stepMs);
    res.destroy();
    return;
  }
  if (scenario.kind === 'stream_error') {
    send('error', {
      error: {
        message: `The server had an error while processing your request.${tail}`,
        type: `server_error${tail}`,
        param: echo === '' ? null : echo,
        code: echo === '' ? null : echo,
      },
    });
    res.end();
    return;
  }
  const images = success?.images ?? n;
  for (let i = 0; i < images; i += 1) {
    await delay(stepMs);
    const completed = {
      type: `${events}.completed`,
      b64_json: pngFor(i).toString('base64'),
      ...fields,
      usage: {
        total_tokens: 100,
        input_tokens: 50,
        output_tokens: 50,
        input_tokens_details: { text_tokens: 10, image_tokens: 40 },
        ...(echo === '' ? {} : { note: nestedEcho(echo) }),
      },
    };
    if (!send(`${events}.completed`, completed)) return;
  }
  if (success?.doneMarker === true) res.write(`data: [DONE]${eol}${eol}`);
  res.end();
}
