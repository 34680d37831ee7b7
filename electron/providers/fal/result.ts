import { AppError } from '../../../shared/errors.js';
import { parseSeed, seedFromBigInt, type Seed } from '../../../shared/seed.js';
import { readBounded, readJson } from '../http/body.js';
import { type CallScope, malformedError } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import type { GeneratedImage, ProviderConfig, ProviderContext, ProviderOutput } from '../types.js';
import { authHeaders, isRecord, mayCarryKey } from './connection.js';
import { afterAccept, falResponseError } from './errors.js';
import { type FalRequest, requestGone } from './poll.js';

/** A request makes at most this many images (num_images ≤ 4 on the presets); more is not an answer to trust. */
const MAX_IMAGES = 10;

interface ResultImage {
  url: string;
  flagged: boolean;
}

function failed(message: string, details: Record<string, unknown>): AppError {
  return new AppError('provider_error', message, { retryable: false, details: { phase: 'after_send', ...details } });
}

/** The images of a model's output: `images: [{url}]` (FLUX, Recraft, Ideogram) or one `image: {url}`. */
function imagesOf(json: Record<string, unknown>, scope: CallScope): ResultImage[] {
  const list: unknown[] = Array.isArray(json.images)
    ? json.images.slice(0, MAX_IMAGES + 1)
    : isRecord(json.image)
      ? [json.image]
      : [];
  if (list.length > MAX_IMAGES) throw malformedError(scope, `more than ${MAX_IMAGES} images for one request`);
  const flags = Array.isArray(json.has_nsfw_concepts) ? json.has_nsfw_concepts : [];
  const out: ResultImage[] = [];
  list.forEach((entry, index) => {
    if (!isRecord(entry) || typeof entry.url !== 'string' || entry.url === '')
      throw malformedError(scope, 'a result image without a url');
    out.push({ url: entry.url, flagged: flags[index] === true });
  });
  if (out.length === 0) throw malformedError(scope, 'a result without images');
  return out;
}

function seedOf(json: Record<string, unknown>): Seed | undefined {
  const seed = parseSeed(json.seed);
  return seed === null ? undefined : seedFromBigInt(seed);
}

/** A data URI is decoded in place (sync_mode); a URL on fal's CDN is downloaded at once, without the key. */
async function imageBytes(url: string, config: ProviderConfig, scope: CallScope): Promise<Uint8Array> {
  if (url.startsWith('data:')) return decodeDataUri(url, scope, 'the image').data;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malformedError(scope, 'a result link that is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw malformedError(scope, 'a result link that is not http');
  const response = await send(parsed.href, { headers: { accept: 'image/*' } }, scope, 'while downloading the result');
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(
      `${scope.provider} made the image, but its download link answered HTTP ${response.status} (it may have ` +
        `expired). Run the job again.`,
      { status: response.status, remoteGone: true },
    );
  }
  return readBounded(response, config.maxResponseBytes, scope, 'the image');
}

/**
 * Fetches a COMPLETED request's output from its response URL and downloads its images at once (bounded). Images
 * fal's safety checker flagged (`has_nsfw_concepts`, sent blacked out) are left out; when every one is, the job
 * fails naming it. A fresh run and a resumed one end here the same way.
 */
export async function collectResult(
  request: FalRequest,
  base: string,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<ProviderOutput> {
  const headers = mayCarryKey(request.responseUrl, base) ? authHeaders(config) : {};
  const response = await send(request.responseUrl, { headers }, scope, 'while fetching the result');
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    throw requestGone(scope, request.id, 'from its result');
  }
  if (response.status !== 200) {
    throw afterAccept(
      await falResponseError(response, scope, config.maxResponseBytes, { model: request.model, phase: 'after_send' }),
    );
  }
  const json = await readJson(response, config.maxResponseBytes, scope, 'the result');
  if (!isRecord(json)) throw malformedError(scope, 'a result that is not an object');
  const found = imagesOf(json, scope);
  const kept = found.filter((image) => !image.flagged);
  if (kept.length === 0) {
    throw failed(
      `${scope.provider}'s safety checker flagged ${found.length === 1 ? 'the image' : `all ${found.length} images`} ` +
        `as NSFW and blacked ${found.length === 1 ? 'it' : 'them'} out. Rephrase the prompt or use another image.`,
      { falRequestId: request.id, moderation: true },
    );
  }
  if (kept.length < found.length) {
    context.trace(
      'warning',
      `${scope.provider}'s safety checker flagged ${found.length - kept.length} of ${found.length} images; they were left out.`,
    );
  }
  context.onProgress({ stage: 'downloading' });
  const seed = seedOf(json);
  const images: GeneratedImage[] = [];
  for (const entry of kept) {
    const image: GeneratedImage = toImage(await imageBytes(entry.url, config, scope), scope, 'the image');
    if (seed !== undefined && found.length === 1) image.seed = seed;
    // FLUX draws a batch from the one seed it answers: the image's place in it is what reproduces it.
    if (seed !== undefined && found.length > 1) image.batchIndex = found.indexOf(entry);
    images.push(image);
  }
  context.onProgress({ stage: 'done', fraction: 1 });
  const output: ProviderOutput = { images, info: { falRequestId: request.id, model: request.model } };
  if (seed !== undefined) output.seed = seed;
  return output;
}
