import { boundedChunks, readJson } from '../http/body.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { decodeBase64, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import { parseBaseUrl } from '../http/url.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { OPENAI_BASE_URL, PROVIDER, authHeaders, isRecord } from './connection.js';

/** A plain (not streamed) answer: `data` entries as base64 or, from some compatible servers, URLs. */
export async function readJsonResult(
  response: Response,
  scope: CallScope,
  config: ProviderConfig,
  context: ProviderContext,
  basic?: { username: string; password: string },
): Promise<ProviderOutput> {
  context.onProgress({ stage: 'downloading' });
  const json = await readJson(response, config.maxResponseBytes, scope, 'the image response');
  if (!isRecord(json) || !Array.isArray(json.data))
    throw malformedError(scope, 'a response without a "data" list of images');
  if (json.data.length === 0) throw malformedError(scope, 'a response with no images');
  const images: GeneratedImage[] = [];
  let revisedPrompt: string | undefined;
  for (const [index, item] of json.data.entries()) {
    if (!isRecord(item)) throw malformedError(scope, `an image entry ${index} that is not an object`);
    if (typeof item.revised_prompt === 'string' && revisedPrompt === undefined) revisedPrompt = item.revised_prompt;
    if (typeof item.b64_json === 'string')
      images.push(toImage(decodeBase64(item.b64_json, scope, `image ${index + 1}`), scope, `image ${index + 1}`));
    else if (typeof item.url === 'string') images.push(await fetchImageUrl(item.url, scope, config, basic));
    else throw malformedError(scope, `image ${index + 1} with neither b64_json nor url`);
  }
  const output: ProviderOutput = { images };
  if (revisedPrompt !== undefined) output.revisedPrompt = revisedPrompt;
  if (isRecord(json.usage)) output.usage = json.usage;
  const info: Record<string, unknown> = {};
  for (const key of ['created', 'size', 'quality', 'background', 'output_format'] as const) {
    if (json[key] !== undefined) info[key] = json[key];
  }
  if (Object.keys(info).length > 0) output.info = info;
  return output;
}

/** Compatible servers may ignore response_format and return a URL; fetch it under the same bound and deadline. */
async function fetchImageUrl(
  url: string,
  scope: CallScope,
  config: ProviderConfig,
  basic?: { username: string; password: string },
): Promise<GeneratedImage> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malformedError(scope, 'an image URL that is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw malformedError(scope, 'an image URL that is not http(s)');
  const sameOrigin =
    config.baseUrl !== undefined &&
    new URL(parseBaseUrl(config.baseUrl, OPENAI_BASE_URL, PROVIDER).base).origin === parsed.origin;
  // The key goes only back to the configured server, never to a blob host.
  const response = await send(
    parsed.toString(),
    { headers: sameOrigin ? { ...authHeaders(config, basic), accept: 'image/*' } : { accept: 'image/*' } },
    scope,
    'while downloading an image',
  );
  if (response.status !== 200)
    throw malformedError(scope, `HTTP ${response.status} for an image download`, { status: response.status });
  const chunks: Uint8Array[] = [];
  for await (const chunk of boundedChunks(response, config.maxResponseBytes, scope, 'while sending an image'))
    chunks.push(chunk);
  return toImage(Buffer.concat(chunks), scope, 'an image download');
}
