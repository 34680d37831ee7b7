import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

describe('headless host: Host and Origin', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  const post = (headers: Record<string, string>) =>
    h.call({
      method: 'POST',
      path: '/api/settings.get',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it('answers to the loopback names on its own port', async () => {
    for (const host of [
      `127.0.0.1:${h.server.port}`,
      `localhost:${h.server.port}`,
      `LOCALHOST:${h.server.port}`,
      `[::1]:${h.server.port}`,
    ]) {
      expect((await post({ host })).status).toBe(200);
    }
  });

  it('refuses another Host (DNS rebinding) even with a valid token', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${h.server.port}`,
      `127.0.0.1:${h.server.port + 1}`,
      '127.0.0.1',
      `127.0.0.1.nip.io:${h.server.port}`,
    ]) {
      const reply = await post({ host });
      expect(reply.status, host).toBe(421);
    }
    expect(h.engine.calls).toHaveLength(0);
  });

  it('accepts its own Origin and refuses any other', async () => {
    expect((await post({ origin: `http://127.0.0.1:${h.server.port}` })).status).toBe(200);
    expect(
      (await post({ host: `localhost:${h.server.port}`, origin: `http://localhost:${h.server.port}` })).status,
    ).toBe(200);
    // Same server, but not the page's own origin: a page on one loopback name cannot drive another.
    expect((await post({ origin: `http://localhost:${h.server.port}` })).status).toBe(403);
    for (const origin of [
      'http://evil.example',
      `https://127.0.0.1:${h.server.port}`,
      'null',
      `http://127.0.0.1:${h.server.port + 1}`,
      'garbage',
    ]) {
      const reply = await post({ origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.json()).toMatchObject({ ok: false, error: { details: { reason: 'origin' } } });
    }
    expect(h.engine.calls).toHaveLength(2);
  });

  it('sets the security headers on every answer', async () => {
    for (const reply of [
      await h.call({ path: '/' }),
      await post({}),
      await h.call({ path: '/nope' }),
      await h.call({ path: '/', auth: false }),
    ]) {
      expect(reply.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(reply.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(reply.headers['content-security-policy']).not.toMatch(/unsafe-eval/);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

/** Whether a TCP connection to host:port opens (refused, unroutable or silent all count as no). */
function opens(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('headless host: bind address', () => {
  it('binds 127.0.0.1 by default: the socket opens there and on no other address of this machine', async () => {
    const h = await startHarness();
    try {
      expect(h.server.host).toBe('127.0.0.1');
      expect(await opens('127.0.0.1', h.server.port)).toBe(true);
      // 127.0.0.2 is loopback too on Linux, but only a wildcard bind (0.0.0.0, ::) answers there.
      const others = [
        '127.0.0.2',
        '::1',
        ...Object.values(networkInterfaces()).flatMap((list) =>
          (list ?? []).filter((a) => !a.internal).map((a) => a.address),
        ),
      ];
      for (const address of others) expect(await opens(address, h.server.port), address).toBe(false);
    } finally {
      await h.close();
    }
  });
});
