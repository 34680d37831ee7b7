import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { Handlers } from '../../shared/contract.js';
import { AppError, fail, type ErrorBody, type Result } from '../../shared/errors.js';
import type { Engine } from '../engine/types.js';
import { dispatch, type UnexpectedErrorSink } from '../host/dispatch.js';
import { mediaCacheControl, parseMediaPath, resolveMediaFile } from '../host/media-request.js';
import { CONTENT_SECURITY_POLICY } from '../host/security.js';
import { resolveStaticFile } from '../host/static-files.js';
import { allowedHosts, hostAllowed, originAllowed, requestToken, sessionCookie, tokensEqual } from './auth.js';
import { BodyTooLarge, readBody } from './body.js';
import { createSseHub, type SseHub } from './sse.js';
import { STATUS_BY_CODE } from './status.js';
import { EXPORT_PREFIX, handleExportDownload } from './export-download.js';
import { SWEEP_SHEET_PREFIX, handleSweepSheetDownload } from './sweep-sheet-download.js';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Channels that carry an image in their body (a painted mask) get more room; everything else stays small. */
export const LARGE_BODY_CHANNELS: Readonly<Record<string, number>> = {
  'images.saveMask': 33 * 1024 * 1024,
  // A styles.csv of up to 5 million characters: its quotes, line breaks and accents grow as JSON and UTF-8.
  'presets.importStyles': 16 * 1024 * 1024,
};
/** Media files up to this size are read whole and sent in one write. */
const SMALL_FILE_BYTES = 1024 * 1024;

export interface ServeOptions {
  engine: Pick<Engine, 'dataDir' | 'handlers' | 'events' | 'resolveMedia' | 'exportDownload'>;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  token: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  keepaliveMs?: number;
  /** Largest accepted request body; 2 MB unless a test says otherwise. */
  bodyLimit?: number;
  onUnexpected?: UnexpectedErrorSink;
}

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** The one link to print: it carries the token once; the page then lives on the cookie. */
  readonly url: string;
  readonly sse: SseHub;
  /** Stops listening, ends event streams and open connections. */
  close(): Promise<void>;
}

const desktopOnly = async (): Promise<never> => {
  throw new AppError('desktop_only', 'This works in the desktop app only: the browser cannot reach your desktop.');
};

/** The engine's handlers, with the desktop touches answered `desktop_only` whatever the engine does. */
export function headlessHandlers(handlers: Handlers): Handlers {
  return {
    ...handlers,
    'desktop.reveal': desktopOnly,
    'desktop.copyImage': desktopOnly,
    'desktop.saveAs': desktopOnly,
    'desktop.startDrag': desktopOnly,
    'desktop.pickImportPaths': desktopOnly,
    'desktop.pickFolder': desktopOnly,
    'desktop.droppedImages': desktopOnly,
    'updates.restart': desktopOnly,
  };
}

function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
}

function sendJson(res: ServerResponse, status: number, body: Result<unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, error: ErrorBody): void {
  sendJson(res, status, { ok: false, error });
}

function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(text);
}

const bad = (message: string, details?: Record<string, unknown>): ErrorBody => ({
  code: 'invalid_request',
  message,
  retryable: false,
  ...(details === undefined ? {} : { details }),
});

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const bindHost = options.host ?? '127.0.0.1';
  const handlers = headlessHandlers(options.engine.handlers);
  const sse = createSseHub(options.engine.events, options.keepaliveMs ?? 15_000);
  const server: Server = createServer();
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hosts = allowedHosts(port, bindHost);

  async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname.startsWith(EXPORT_PREFIX)) return handleExportDownload(req, res, pathname, options.engine);
    if (pathname.startsWith(SWEEP_SHEET_PREFIX))
      return handleSweepSheetDownload(req, res, pathname, options.engine.dataDir);
    if (pathname === '/api/events') {
      if (req.method !== 'GET') return sendError(res, 405, bad('Use GET for /api/events.'));
      sse.attach(res);
      return;
    }
    const channel = pathname.slice('/api/'.length);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendError(res, 405, bad(`Use POST for /api/${channel.slice(0, 64)}.`));
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return sendError(res, 415, bad('Send the request body as application/json.'));
    let raw: unknown;
    const limit = options.bodyLimit ?? LARGE_BODY_CHANNELS[channel] ?? MAX_BODY_BYTES;
    try {
      const body = await readBody(req, limit);
      raw = body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        res.setHeader('connection', 'close');
        return sendError(res, 413, bad(`A request body is at most ${Math.floor(limit / 1024 / 1024)} MB.`));
      }
      return sendError(res, 400, bad('The request body is not valid JSON.'));
    }
    const result = await dispatch(handlers, channel, raw, options.onUnexpected);
    sendJson(res, result.ok ? 200 : STATUS_BY_CODE[result.error.code], result);
  }

  async function handleMedia(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const request = parseMediaPath(pathname);
    const file = request === null ? null : await resolveMediaFile(options.engine, request);
    if (request === null || file === null) return sendText(res, 404, 'Not found');
    const head = (size: number) =>
      res.writeHead(200, {
        'content-type': file.mime,
        'content-length': size,
        'cache-control': mediaCacheControl(request.kind),
      });
    if (req.method === 'HEAD') return void head(file.size).end();
    if (file.bytes !== undefined) return void head(file.bytes.length).end(file.bytes);
    // Thumbnails and previews are small: one read beats a stream's machinery (a grid asks for dozens at once).
    if (file.size <= SMALL_FILE_BYTES) {
      const body = await readFile(file.path).catch(() => null);
      // Gone since it was resolved (a preview replaced, a purge): the same answer as an unknown id.
      if (body === null) return sendText(res, 404, 'Not found');
      return void head(body.length).end(body);
    }
    head(file.size);
    const stream = createReadStream(file.path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const file = await resolveStaticFile(options.rendererDir, pathname);
    if (file === null) {
      const built = await access(join(options.rendererDir, 'index.html')).then(
        () => true,
        () => false,
      );
      if (!built) {
        return sendText(res, 503, 'The Atelier UI is not built yet. Run `npm run build:renderer`, then reload.');
      }
      return sendText(res, 404, 'Not found');
    }
    // Vite names assets by content hash, so they never change; the page itself is always revalidated.
    const immutable = pathname.startsWith('/assets/');
    res.writeHead(200, {
      'content-type': file.mime,
      'content-length': file.size,
      'cache-control': immutable ? 'private, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file.path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setSecurityHeaders(res);
    if (!hostAllowed(req.headers.host, hosts)) {
      return sendText(res, 421, 'This server answers only to its loopback address.');
    }
    if (!originAllowed(req.headers.origin, req.headers.host)) {
      return sendError(res, 403, bad('Requests from another origin are refused.', { reason: 'origin' }));
    }
    const url = new URL(req.url ?? '/', 'http://placeholder');
    const pathname = url.pathname;

    // The printed link: trade the token for an HttpOnly cookie, then drop it from the address bar.
    if (pathname === '/' && url.searchParams.has('token') && (req.method === 'GET' || req.method === 'HEAD')) {
      if (!tokensEqual(options.token, url.searchParams.get('token') ?? undefined)) {
        return sendText(res, 401, 'That link has the wrong token. Use the link `npm run serve` printed.');
      }
      res.writeHead(303, {
        location: '/',
        'set-cookie': sessionCookie(port, options.token),
        'cache-control': 'no-store',
      });
      return void res.end();
    }
    if (!tokensEqual(options.token, requestToken(req, port))) {
      if (pathname.startsWith('/api/')) {
        return sendError(
          res,
          401,
          bad('This page is not signed in: open the link `npm run serve` printed.', { reason: 'auth' }),
        );
      }
      return sendText(res, 401, 'Open the link `npm run serve` printed (it carries the access token).');
    }
    if (pathname.startsWith('/api/')) return handleApi(req, res, pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendText(res, 405, 'Method not allowed');
    }
    if (pathname.startsWith('/media/')) return handleMedia(req, res, pathname);
    return handleStatic(req, res, pathname);
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      options.onUnexpected?.('http', error);
      if (!res.headersSent) sendJson(res, 500, fail(error));
      else res.destroy();
    });
  });

  const shownHost =
    bindHost === '0.0.0.0' || bindHost === '::' ? '127.0.0.1' : bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  return {
    port,
    host: bindHost,
    url: `http://${shownHost}:${port}/?token=${options.token}`,
    sse,
    close: () =>
      new Promise<void>((resolve) => {
        sse.close();
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; requests in flight have had their chance.
        server.closeIdleConnections();
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 1_000).unref();
      }),
  };
}
