import { createHash } from 'node:crypto';
import { parseJsonSync, readBounded } from '../http/body.js';
import { type CallScope, malformedError, networkError } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';
import { buildMultipart } from '../http/multipart.js';
import { joinUrl } from '../http/url.js';
import type { EncodedImage } from '../types.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * POST /upload/image (docs/provider-protocols.md §3.5) and the name LoadImage must use. The file is named after its
 * content, so `overwrite` can only ever replace a file with the same bytes (two jobs sharing a server never clobber
 * each other).
 */
export async function uploadImage(
  base: string,
  headers: Record<string, string>,
  image: EncodedImage,
  role: 'image' | 'mask',
  scope: CallScope,
): Promise<string> {
  const extension = EXTENSIONS[image.mime] ?? 'png';
  const filename = `atelier-${role}-${createHash('sha256').update(image.data).digest('hex').slice(0, 24)}.${extension}`;
  const form = buildMultipart([
    { name: 'image', filename, contentType: image.mime, data: image.data },
    { name: 'type', value: 'input' },
    { name: 'overwrite', value: 'true' },
  ]);
  let response: Response;
  try {
    response = await fetch(joinUrl(base, 'upload/image'), {
      method: 'POST',
      headers: { ...headers, accept: 'application/json', 'content-type': form.contentType },
      body: form.bytes,
      signal: scope.deadline.signal,
      redirect: 'manual',
    });
  } catch (error) {
    throw networkError(error, scope, `while uploading the ${role === 'mask' ? 'mask' : 'source image'}`);
  }
  const body = await readBounded(response, 64 * 1024, scope, 'while uploading');
  if (response.status !== 200) {
    const said = new TextDecoder().decode(body).slice(0, 300).trim();
    const what = role === 'mask' ? 'mask' : 'source image';
    throw statusError(
      {
        status: response.status,
        headers: response.headers,
        message: `ComfyUI refused the ${what} upload (HTTP ${response.status}).`,
        ...(said === '' ? {} : { providerMessage: said }),
      },
      scope,
    );
  }
  return loadImageName(parseJsonSync(body, scope, 'the upload answer'), scope);
}

/**
 * The upload answer as LoadImage takes it ("sub/name"); the name goes into the graph as a path, so only a plain file
 * name (and plain subfolder) is accepted.
 */
export function loadImageName(answer: unknown, scope: CallScope): string {
  const { name, subfolder = '' } = (answer !== null && typeof answer === 'object' ? answer : {}) as {
    name?: unknown;
    subfolder?: unknown;
  };
  const plain = (part: string) => part !== '' && part !== '.' && part !== '..' && !/[\\/\0]/.test(part);
  if (
    typeof name !== 'string' ||
    !plain(name) ||
    typeof subfolder !== 'string' ||
    (subfolder !== '' && !subfolder.split('/').every(plain))
  ) {
    throw malformedError(
      scope,
      `an upload answer without a usable file name (${String(JSON.stringify(answer)).slice(0, 120)})`,
    );
  }
  return subfolder === '' ? name : `${subfolder}/${name}`;
}
