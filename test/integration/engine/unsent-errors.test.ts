import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProviders } from '../../../electron/engine/default-providers.js';
import { startHarness, waitForStatus, type Harness } from './harness.js';

const TLS = new URL('../../fixtures/tls/', import.meta.url);
const NOTHING_SENT = /Nothing was sent, so nothing was run or billed\./;
const MAY_HAVE_RUN = /may still have run/i;

function listen<T extends NetServer | HttpsServer>(server: T): Promise<T> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function close(server: NetServer | HttpsServer | undefined): Promise<void> {
  return new Promise((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
}

/** A loopback port with nothing listening on it (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = await listen(createNetServer());
  const { port } = server.address() as AddressInfo;
  await close(server);
  return port;
}

describe('errors raised before the request left say nothing was sent', () => {
  let h: Harness | undefined;
  let server: NetServer | HttpsServer | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await close(server);
    h = server = undefined;
  });

  async function failedOpenAIJob(baseUrl: string, apiKey = 'sk-unsent-0123456789') {
    h = await startHarness({
      providers: defaultProviders(),
      retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20 },
    });
    await h.engine.handlers['settings.update']({ providers: { openai: { apiKey, baseUrl } } });
    const { job } = await h.engine.handlers['jobs.submit']({
      provider: 'openai',
      model: 'gpt-image-1',
      prompt: 'a lantern',
      width: 1024,
      height: 1024,
      count: 1,
    });
    return waitForStatus(h.engine, job.id, ['failed']);
  }

  it('OpenAI-compatible server on a blocked port (127.0.0.1:9): named as such, nothing sent, not retried in vain', async () => {
    const failed = await failedOpenAIJob('http://127.0.0.1:9/v1');
    const error = failed.errorDetail!;
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toMatch(
      /^Could not reach OpenAI-compatible server at 127\.0\.0\.1:9: its port is one that Node refuses/,
    );
    expect(error.message).toMatch(NOTHING_SENT);
    expect(error.message).not.toMatch(MAY_HAVE_RUN);
    expect(error.details).toMatchObject({ phase: 'before_accept', sent: false });
    // The port is refused by Node every time: trying again cannot help.
    expect(failed.events.filter((e) => e.kind === 'attempt')).toHaveLength(1);

    const test = await h!.engine.handlers['providers.test']({ id: 'openai' });
    expect(test).toMatchObject({ ok: false, reachable: false });
    expect(test.message).toMatch(/OpenAI-compatible server at 127\.0\.0\.1:9/);
    expect(test.message).toMatch(NOTHING_SENT);
  });

  it('a refused connection says nothing was sent and is retried, being safe to retry', async () => {
    const port = await closedPort();
    const failed = await failedOpenAIJob(`http://127.0.0.1:${port}/v1`);
    const error = failed.errorDetail!;
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      details: { phase: 'before_accept', errno: 'ECONNREFUSED' },
    });
    expect(error.message).toBe(
      `Could not reach OpenAI-compatible server at 127.0.0.1:${port} (connection refused). Is it running and is the address right? Nothing was sent, so nothing was run or billed.`,
    );
    expect(failed.events.filter((e) => e.kind === 'attempt')).toHaveLength(3);
  });

  it('a certificate that is not accepted (self-signed, on loopback) says nothing was sent, and the server saw no request', async () => {
    let requests = 0;
    server = await listen(
      createHttpsServer(
        {
          key: readFileSync(new URL('self-signed.key.pem', TLS)),
          cert: readFileSync(new URL('self-signed.cert.pem', TLS)),
        },
        (_req, res) => {
          requests += 1;
          res.end('{}');
        },
      ),
    );
    const { port } = server.address() as AddressInfo;
    const failed = await failedOpenAIJob(`https://127.0.0.1:${port}/v1`);
    const error = failed.errorDetail!;
    expect(error).toMatchObject({ code: 'provider_unavailable', details: { phase: 'before_accept', sent: false } });
    expect(error.message).toMatch(
      new RegExp(
        `^Could not open a secure connection to OpenAI-compatible server at 127\\.0\\.0\\.1:${port}: its certificate was not accepted`,
      ),
    );
    expect(error.message).toMatch(NOTHING_SENT);
    expect(error.message).not.toMatch(MAY_HAVE_RUN);
    expect(requests).toBe(0);
  });

  it('https to a server that hangs up during the TLS handshake says nothing was sent', async () => {
    let bytes = 0;
    // Reads the ClientHello and closes: no request can have been written.
    server = await listen(
      createNetServer((socket) => socket.once('data', (chunk) => ((bytes += chunk.length), socket.destroy()))),
    );
    const { port } = server.address() as AddressInfo;
    const failed = await failedOpenAIJob(`https://127.0.0.1:${port}/v1`);
    expect(bytes).toBeGreaterThan(0);
    expect(failed.errorDetail).toMatchObject({ code: 'provider_unavailable', details: { phase: 'before_accept' } });
    expect(failed.errorDetail!.message).toMatch(/TLS handshake/);
    expect(failed.errorDetail!.message).toMatch(NOTHING_SENT);
  });

  it('a key that HTTP cannot carry (a line break) is refused before sending, without repeating the key', async () => {
    const broken = await failedOpenAIJob(`http://127.0.0.1:${await closedPort()}/v1`, 'sk-line\nbreak-0123456789');
    expect(broken.errorDetail).toMatchObject({
      code: 'invalid_request',
      retryable: false,
      details: { phase: 'before_accept', sent: false },
    });
    expect(broken.errorDetail!.message).toMatch(/header value \(the API key, user name or password\)/);
    expect(broken.errorDetail!.message).toMatch(NOTHING_SENT);
    expect(JSON.stringify(broken)).not.toContain('break-0123456789');
  });
});
