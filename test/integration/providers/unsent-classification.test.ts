import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { Deadline } from '../../../electron/providers/http/deadline.js';
import type { CallScope } from '../../../electron/providers/http/errors.js';
import { send } from '../../../electron/providers/http/request.js';

const NOTHING_SENT = /Nothing was sent/;
const MAY_HAVE_RUN = /may still have run the request/;

function scope(): CallScope {
  return {
    provider: 'Test server',
    deadline: new Deadline(new AbortController().signal, 10_000),
    secrets: ['sk-classify-secret'],
  };
}

/** What send() throws for this URL and init, against the real fetch: the shapes are Node's, not guessed. */
async function failure(url: string, headers: Record<string, string> = {}): Promise<AppError> {
  const error = await send(url, { method: 'POST', headers, json: { prompt: 'x' } }, scope()).then(
    () => new Error('the request succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('send(): what left and what did not, from real loopback failures', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function serve(onSocket: (socket: Socket) => void): Promise<number> {
    const server = createServer(onSocket);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('refused before connecting (blocked port), or at connect (closed port): nothing sent', async () => {
    const blocked = await failure('http://127.0.0.1:9/v1/images');
    expect(blocked).toMatchObject({
      code: 'provider_unavailable',
      retryable: false,
      details: { phase: 'before_accept', sent: false },
    });
    expect(blocked.message).toMatch(NOTHING_SENT);
    const port = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const refused = await failure(`http://127.0.0.1:${port}/v1/images`);
    expect(refused).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      details: { errno: 'ECONNREFUSED', sent: false },
    });
  });

  it('a header HTTP cannot carry is refused before any socket, and its value is never repeated', async () => {
    let connections = 0;
    const port = await serve((socket) => {
      connections += 1;
      socket.destroy();
    });
    for (const value of ['Bearer sk-classify-secret\nX-Injected: 1', 'Bearer sk-classify-secret\u2028']) {
      const error = await failure(`http://127.0.0.1:${port}/v1/images`, { authorization: value });
      expect(error).toMatchObject({ code: 'invalid_request', retryable: false, details: { sent: false } });
      expect(JSON.stringify(error.toBody())).not.toContain('sk-classify-secret');
    }
    expect(connections).toBe(0);
  });

  it('a connection that breaks after the request was written still says the server may have run it', async () => {
    const received: number[] = [];
    // Reset once the request arrived, and hang up once it arrived: both after the bytes left.
    const reset = await serve((socket) =>
      socket.once('data', (chunk) => (received.push(chunk.length), socket.resetAndDestroy())),
    );
    const hangUp = await serve((socket) => socket.once('data', (chunk) => (received.push(chunk.length), socket.end())));
    for (const port of [reset, hangUp]) {
      const error = await failure(`http://127.0.0.1:${port}/v1/images`);
      expect(error).toMatchObject({ code: 'provider_error', retryable: false, details: { phase: 'after_send' } });
      expect(error.message).toMatch(MAY_HAVE_RUN);
      expect(error.message).not.toMatch(NOTHING_SENT);
    }
    expect(received).toHaveLength(2);
    expect(received.every((n) => n > 0)).toBe(true);
  });
});
