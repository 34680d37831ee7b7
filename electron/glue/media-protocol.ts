import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { protocol } from 'electron';
import { MEDIA_SCHEME } from '../../shared/bridge.js';
import type { Engine } from '../engine/types.js';
import { APP_HOST, APP_SCHEME } from '../desktop/app-url.js';
import { mediaCacheControl, parseMediaUrl, resolveMediaFile } from '../host/media-request.js';
import { CONTENT_SECURITY_POLICY } from '../host/security.js';
import { resolveStaticFile } from '../host/static-files.js';

/** Must run before the app is ready: both schemes behave like https (standard, secure), which file:// never does. */
export function registerPrivilegedSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** `atelier://app/<path>` → a file of the built renderer, with the app's CSP on every response. */
export async function appResponse(rendererDir: string, url: string): Promise<Response> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return notFound();
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return notFound();
  const file = await resolveStaticFile(rendererDir, parsed.pathname);
  if (file === null) return notFound();
  return new Response(await readFile(file.path), {
    headers: {
      'content-type': file.mime,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    },
  });
}

/** `atelier-media://<kind>/<imageId>` → the file the engine resolves inside the data dir, else 404. */
export async function mediaResponse(engine: Pick<Engine, 'dataDir' | 'resolveMedia'>, url: string): Promise<Response> {
  const request = parseMediaUrl(url);
  if (request === null) return notFound();
  const file = await resolveMediaFile(engine, request);
  if (file === null) return notFound();
  // Node's web stream and the DOM lib's ReadableStream are the same object at runtime; the types differ.
  const body =
    file.bytes !== undefined
      ? file.bytes
      : (Readable.toWeb(createReadStream(file.path)) as unknown as ReadableStream<Uint8Array>);
  return new Response(body, {
    headers: {
      'content-type': file.mime,
      'content-length': String(file.size),
      'cache-control': mediaCacheControl(request.kind),
      'x-content-type-options': 'nosniff',
    },
  });
}

/** After `app.whenReady()`: serve the renderer and the media through the two schemes, nothing else. */
export function handleProtocols(rendererDir: string, engine: Pick<Engine, 'dataDir' | 'resolveMedia'>): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(rendererDir, request.url));
  protocol.handle(MEDIA_SCHEME, (request) =>
    request.method === 'GET' ? mediaResponse(engine, request.url) : notFound(),
  );
}
