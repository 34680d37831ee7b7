import WebSocket from 'ws';
import { AppError } from '../../../shared/errors.js';
import { type CallScope, abortedError, networkError } from '../http/errors.js';
import { statusError } from '../http/status-errors.js';

/** Client ids (with their server) that have a socket open or opening in this process. */
const openIds = new Set<string>();

/**
 * Opens ComfyUI's /ws?clientId=… before the prompt is queued (messages go only to the matching client id).
 * No Origin header is sent: ComfyUI answers 403 to a mismatched Origin on loopback (docs/provider-protocols.md §7.16).
 * One socket per client id: the server sends only to the newest one, and when the older one closes it forgets the
 * id altogether (server.py websocket_handler), so a second socket would leave both deaf.
 */
export function openSocket(url: string, headers: Record<string, string>, scope: CallScope): Promise<WebSocket> {
  const parsed = new URL(url);
  const idKey = `${parsed.host}${parsed.pathname}?${parsed.searchParams.get('clientId') ?? ''}`;
  if (openIds.has(idKey)) {
    return Promise.reject(
      new AppError(
        'internal',
        'A ComfyUI socket with this client id is already open; a second one would take its messages.',
        { retryable: false, details: { phase: 'before_accept' } },
      ),
    );
  }
  openIds.add(idKey);
  return new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(url, {
      headers,
      maxPayload: 64 * 1024 * 1024,
      handshakeTimeout: scope.deadline.timeoutMs,
    });
    socket.once('close', () => openIds.delete(idKey));
    const onAbort = () => {
      socket.terminate();
      reject(abortedError(scope, false));
    };
    const cleanup = () => scope.deadline.signal.removeEventListener('abort', onAbort);
    if (scope.deadline.signal.aborted) {
      onAbort();
      return;
    }
    scope.deadline.signal.addEventListener('abort', onAbort, { once: true });
    socket.once('open', () => {
      cleanup();
      resolve(socket);
    });
    socket.once('unexpected-response', (_req, res) => {
      cleanup();
      const status = res.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (const [key, value] of Object.entries(res.headers))
        if (typeof value === 'string') responseHeaders.set(key, value);
      res.resume();
      socket.terminate();
      reject(
        statusError(
          {
            status,
            headers: responseHeaders,
            message:
              status === 403
                ? 'ComfyUI refused the WebSocket (HTTP 403): check --enable-cors-header or a proxy in front of it.'
                : undefined,
          },
          scope,
        ),
      );
    });
    socket.once('error', (error) => {
      cleanup();
      const mapped = networkError(error, scope, 'while opening the WebSocket');
      // Nothing was queued yet, so even an odd socket failure here is safe to retry.
      reject(
        mapped.code === 'provider_error'
          ? new AppError('provider_unavailable', `Could not open ComfyUI's WebSocket: ${error.message}`, {
              retryable: true,
              details: { phase: 'before_accept' },
            })
          : mapped,
      );
    });
  });
}
