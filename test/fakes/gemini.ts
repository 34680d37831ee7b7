import type { ServerResponse } from 'node:http';
import { makePng } from './png.js';
import { type HttpFake, type LoggedRequest, Script, sendText, startHttpFake } from './server.js';

/**
 * A loopback Gemini image API (docs/hosted-protocols.md §1.1): POST /v1beta/models/{model}:generateContent with
 * x-goog-api-key, answered synchronously with inlineData images, plus GET /v1beta/models. Its failure answers are
 * Google's own shapes: `{"error":{code,message,status,details}}`, a blocked prompt, a safety finish.
 */
export type GeminiScenario =
  | { kind: 'success'; text?: string }
  | { kind: 'error'; status: number; body: Record<string, unknown>; headers?: Record<string, string> }
  /** 200 with `promptFeedback.blockReason` and no candidates. */
  | { kind: 'blocked_prompt'; reason: string }
  /** 200 with a candidate that ends with this finishReason and carries no image. */
  | { kind: 'finish'; reason: string }
  /** Headers and half the body, then the socket is destroyed. */
  | { kind: 'cut' }
  /** Reads the request and never answers. */
  | { kind: 'hang' };

function googleError(code: number, status: string, message: string, details: unknown[] = []): Record<string, unknown> {
  return { error: { code, message, status, ...(details.length === 0 ? {} : { details }) } };
}

const RATIOS = new Set(['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']);

export const geminiErrors = {
  invalidArgument: (): GeminiScenario => ({
    kind: 'error',
    status: 400,
    body: googleError(400, 'INVALID_ARGUMENT', 'Unable to process input image. Please retry or report in …'),
  }),
  forbidden: (): GeminiScenario => ({
    kind: 'error',
    status: 403,
    body: googleError(403, 'PERMISSION_DENIED', 'Your API key was reported as leaked. Please use another API key.'),
  }),
  rateLimited: (seconds = 2): GeminiScenario => ({
    kind: 'error',
    status: 429,
    headers: { 'retry-after': String(seconds) },
    body: googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'),
  }),
  /** A burst limit told only through RetryInfo (no Retry-After header), as the API does for per-minute quotas. */
  rateLimitedRetryInfo: (delay = '3s'): GeminiScenario => ({
    kind: 'error',
    status: 429,
    body: googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for metric: generate_content_requests per minute.', [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay },
    ]),
  }),
  quota: (): GeminiScenario => ({
    kind: 'error',
    status: 429,
    body: googleError(
      429,
      'RESOURCE_EXHAUSTED',
      'You exceeded your current quota, please check your plan and billing details.',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '40s' },
      ],
    ),
  }),
  paymentRequired: (): GeminiScenario => ({
    kind: 'error',
    status: 402,
    body: googleError(402, 'FAILED_PRECONDITION', 'Prepayment credits are depleted.'),
  }),
  serverError: (): GeminiScenario => ({
    kind: 'error',
    status: 500,
    body: googleError(500, 'INTERNAL', 'An internal error has occurred.'),
  }),
};

export interface FakeGeminiOptions {
  apiKey?: string;
  scenario?: GeminiScenario;
  /** A careless server: the key it was sent comes back in every message it writes. */
  echoKey?: boolean;
}

export interface FakeGemini extends HttpFake {
  setScenario(next: GeminiScenario | GeminiScenario[]): void;
  generationRequests(): LoggedRequest[];
}

export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const apiKey = options.apiKey ?? 'AIza-fake-key';
  const script = new Script<GeminiScenario>(options.scenario ?? { kind: 'success' });
  const fake = await startHttpFake(async (req, res, logged) => {
    const sent = typeof req.headers['x-goog-api-key'] === 'string' ? req.headers['x-goog-api-key'] : '';
    const echo = options.echoKey === true && sent !== '' ? ` (key ${sent})` : '';
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      sendText(res, status, JSON.stringify(body), headers);
    if (sent === '')
      return reply(
        403,
        googleError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers. Please use API Key."),
      );
    if (sent !== apiKey)
      return reply(
        400,
        googleError(400, 'INVALID_ARGUMENT', `API key not valid. Please pass a valid API key.${echo}`, [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ]),
      );
    if (req.method === 'GET' && logged.path === '/v1beta/models') {
      const names = ['gemini-2.5-flash', 'gemini-2.5-flash-image', 'gemini-3-pro-image-preview', 'text-embedding-004'];
      return reply(200, { models: names.map((n) => ({ name: `models/${n}` })) });
    }
    const match = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(logged.path);
    if (req.method !== 'POST' || match === null)
      return reply(404, googleError(404, 'NOT_FOUND', `Not found: ${logged.path}`));
    const model = decodeURIComponent(match[1]!);
    const problem = wireProblem(logged.json, model);
    if (problem !== undefined) return reply(400, googleError(400, 'INVALID_ARGUMENT', problem));
    const scenario = script.next();
    switch (scenario.kind) {
      case 'error': {
        const body = structuredClone(scenario.body) as { error: { message: string } };
        body.error.message += echo;
        return reply(scenario.status, body, scenario.headers);
      }
      case 'blocked_prompt':
        return reply(200, { promptFeedback: { blockReason: scenario.reason }, usageMetadata: usage() });
      case 'finish':
        return reply(200, {
          candidates: [{ content: { role: 'model', parts: [] }, finishReason: scenario.reason, index: 0 }],
          usageMetadata: usage(),
        });
      case 'hang':
        return;
      case 'cut':
        return cut(res);
      case 'success':
        return reply(200, success(model, logged.json, `${scenario.text ?? 'Here is your image.'}${echo}`));
    }
  });
  return {
    ...fake,
    setScenario: (next) => script.set(next),
    generationRequests: () => fake.requests.filter((r) => r.method === 'POST'),
  };
}

/** What the real API refuses with 400 INVALID_ARGUMENT, so a wrong body fails here as it would there. */
function wireProblem(json: unknown, model: string): string | undefined {
  const body = json as {
    contents?: { parts?: { text?: unknown; inlineData?: { mimeType?: unknown; data?: unknown } }[] }[];
    generationConfig?: { responseModalities?: unknown; imageConfig?: { aspectRatio?: unknown; imageSize?: unknown } };
  };
  const parts = body?.contents?.[0]?.parts;
  if (!Array.isArray(parts) || parts.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const part of parts) {
    if (part.inlineData !== undefined) {
      const { mimeType, data } = part.inlineData;
      if (typeof mimeType !== 'string' || !/^image\/(png|jpeg|webp)$/.test(mimeType))
        return 'Unsupported MIME type for inlineData.';
      if (typeof data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0)
        return 'Invalid value at contents[0].parts[1].inline_data.data: base64 decoding failed.';
    } else if (typeof part.text !== 'string') return 'A part needs text or inlineData.';
  }
  const config = body.generationConfig;
  const modalities = config?.responseModalities;
  if (!Array.isArray(modalities) || !modalities.includes('IMAGE'))
    return 'Model does not support the requested response modalities: TEXT';
  const aspect = config?.imageConfig?.aspectRatio;
  if (aspect !== undefined && !RATIOS.has(String(aspect))) return `Invalid aspect ratio: ${String(aspect)}`;
  const size = config?.imageConfig?.imageSize;
  if (size !== undefined && (model.startsWith('gemini-2.') || !['1K', '2K', '4K'].includes(String(size))))
    return `Invalid image size: ${String(size)}`;
  return undefined;
}

function usage(): Record<string, number> {
  return { promptTokenCount: 9, candidatesTokenCount: 1290, totalTokenCount: 1299 };
}

/** One PNG shaped like the asked aspect ratio (4 px per ratio unit); Gemini 3 also sends a thought and a signature. */
function success(model: string, json: unknown, text: string): Record<string, unknown> {
  const aspect = String(
    (json as { generationConfig?: { imageConfig?: { aspectRatio?: unknown } } }).generationConfig?.imageConfig
      ?.aspectRatio ?? '1:1',
  );
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const png = makePng(w * 4, h * 4, [40, 160, 90]).toString('base64');
  const thinking = !model.startsWith('gemini-2.');
  const parts: Record<string, unknown>[] = [];
  if (thinking) {
    parts.push({ text: 'Planning the composition…', thought: true });
    parts.push({
      inlineData: { mimeType: 'image/png', data: makePng(4, 4, [9, 9, 9]).toString('base64') },
      thought: true,
    });
  }
  parts.push({ text });
  parts.push({
    inlineData: { mimeType: 'image/png', data: png },
    ...(thinking ? { thoughtSignature: 'c2lnbmF0dXJlLW9wYXF1ZQ==' } : {}),
  });
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: usage(),
    modelVersion: model,
    responseId: 'resp-fake-1',
  };
}

function cut(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
  res.write('{"candidates":[{"content":{"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBOR');
  setImmediate(() => res.destroy());
}
