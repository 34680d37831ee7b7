import { type CallScope, malformedError, networkError, redact, tooLargeError } from './errors.js';

/**
 * Yields a response body's chunks, counting bytes; once the total passes `limitBytes` it cancels the stream
 * (undici then destroys the socket) and throws, so an oversized body is never buffered.
 */
export async function* boundedChunks(
  response: Response,
  limitBytes: number,
  scope: CallScope,
  what = 'while sending its response',
): AsyncGenerator<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLargeError(scope, limitBytes, 0);
  }
  if (response.body === null) return;
  const reader = response.body.getReader();
  let total = 0;
  try {
    for (;;) {
      let chunk: { done: true; value?: undefined } | { done: false; value: Uint8Array };
      try {
        chunk = (await reader.read()) as typeof chunk;
      } catch (error) {
        throw networkError(error, scope, what);
      }
      if (chunk.done) return;
      total += chunk.value.byteLength;
      if (total > limitBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLargeError(scope, limitBytes, total);
      }
      yield chunk.value;
    }
  } finally {
    // Early exit (error, bound, consumer stopped): release the socket instead of draining it.
    reader.releaseLock();
    if (total <= limitBytes) await response.body.cancel().catch(() => undefined);
  }
}

/** The whole body as bytes, never more than `limitBytes`. */
export async function readBounded(
  response: Response,
  limitBytes: number,
  scope: CallScope,
  what?: string,
): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of boundedChunks(response, limitBytes, scope, what)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** Reads and parses a JSON body within the bound. */
export async function readJson(
  response: Response,
  limitBytes: number,
  scope: CallScope,
  what?: string,
): Promise<unknown> {
  const bytes = await readBounded(response, limitBytes, scope);
  return parseJsonSync(bytes, scope, what);
}

/** Parses JSON from a provider, turning a syntax error into a provider_error that quotes the start of the body. */
export function parseJsonSync(bytes: Uint8Array | string, scope: CallScope, what = 'a response'): unknown {
  const text =
    typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw malformedError(scope, `malformed JSON in ${what}`, {
      parseError: error instanceof Error ? error.message : String(error),
      snippet: redact(text.slice(0, 120), scope.secrets),
    });
  }
}
