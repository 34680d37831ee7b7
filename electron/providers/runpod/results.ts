import { readBounded } from '../http/body.js';
import { type CallScope, malformedError, redact } from '../http/errors.js';
import { decodeDataUri, toImage } from '../http/image.js';
import { send } from '../http/request.js';
import type { EncodedImage, ProviderConfig, ProviderContext } from '../types.js';
import { isRecord } from './connection.js';
import { jobFailed } from './errors.js';

/** More images than any one graph Atelier sends makes; a longer list is not worth reading. */
const MAX_IMAGES = 64;

export interface Collected {
  images: EncodedImage[];
  files: string[];
  /** worker-comfyui's `output.errors`: problems that did not stop the job (an S3 upload that failed). */
  warnings: string[];
}

/** A presigned S3 URL (worker-comfyui with BUCKET_* set) is fetched at once and without the key: it is not RunPod's. */
async function download(link: string, config: ProviderConfig, scope: CallScope): Promise<EncodedImage> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw malformedError(scope, 'an image link that is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw malformedError(scope, 'an image link that is not http');
  const response = await send(url.href, { headers: { accept: 'image/*' } }, scope, 'while downloading the image');
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw jobFailed(
      `${scope.provider} made the image, but its storage link answered HTTP ${response.status} (a presigned link ` +
        `expires, and the bucket may refuse it). Run the job again.`,
      { status: response.status, remoteGone: true },
    );
  }
  return toImage(await readBounded(response, config.maxResponseBytes, scope, 'the image'), scope, 'the image');
}

function decode(data: string, scope: CallScope): EncodedImage {
  return toImage(decodeDataUri(data, scope, 'the image').data, scope, 'the image');
}

/** One image as worker-comfyui gives it: a base64 string, or a URL (an S3 upload). */
function fetchOne(data: string, kind: string, config: ProviderConfig, scope: CallScope): Promise<EncodedImage> {
  if (kind === 's3_url' || /^https?:\/\//i.test(data.slice(0, 10))) return download(data, config, scope);
  return Promise.resolve(decode(data, scope));
}

/**
 * The images of a COMPLETED job (docs/hosted-protocols.md §2.2): worker-comfyui 5.x gives
 * `output.images[{filename, type: "base64"|"s3_url", data}]` and `output.errors[]`; versions before 5.0.0 gave one
 * image as `output.message` (base64 or a URL) beside `output.status` "success" or "error".
 */
export async function collectOutput(
  output: unknown,
  config: ProviderConfig,
  context: ProviderContext,
  scope: CallScope,
): Promise<Collected> {
  if (!isRecord(output)) throw malformedError(scope, 'a finished job without an output object');
  const warnings = Array.isArray(output.errors)
    ? output.errors
        .filter((e): e is string => typeof e === 'string')
        .slice(0, 10)
        .map((e) => redact(e, scope.secrets))
    : [];
  const collected: Collected = { images: [], files: [], warnings };
  context.onProgress({ stage: 'downloading' });
  if (Array.isArray(output.images)) {
    for (const entry of output.images.slice(0, MAX_IMAGES)) {
      if (!isRecord(entry) || typeof entry.data !== 'string')
        throw malformedError(scope, 'an output image without its data');
      const kind = typeof entry.type === 'string' ? entry.type : 'base64';
      collected.images.push(await fetchOne(entry.data, kind, config, scope));
      collected.files.push(typeof entry.filename === 'string' ? entry.filename.slice(0, 200) : '');
    }
  } else if (typeof output.message === 'string') {
    if (output.status === 'error')
      throw jobFailed(
        `${scope.provider}'s worker could not run the workflow: "${redact(output.message, scope.secrets)}"`,
        {
          providerMessage: redact(output.message, scope.secrets),
        },
      );
    collected.images.push(await fetchOne(output.message, '', config, scope));
  }
  if (collected.images.length === 0) {
    const why = warnings.length === 0 ? '' : ` It said: "${warnings.join('; ')}"`;
    throw jobFailed(
      `${scope.provider}'s worker ran the workflow but sent back no images (does the workflow end in a SaveImage ` +
        `node?).${why}`,
      { runpodOutputStatus: typeof output.status === 'string' ? output.status.slice(0, 40) : 'none' },
    );
  }
  return collected;
}
