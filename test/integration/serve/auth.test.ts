import type * as nodeCrypto from 'node:crypto';
import { timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokensEqual } from '../../../electron/serve/auth.js';
import { startHarness, TOKEN, type Harness } from './helpers.js';

// The real timingSafeEqual, watched: the token check must go through it whatever the caller sends.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof nodeCrypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

describe('headless host: token', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  it('prints a loopback URL that carries the token', () => {
    expect(h.server.url).toBe(`http://127.0.0.1:${h.server.port}/?token=${TOKEN}`);
  });

  it.each(['/', '/assets/index-abc123.js', '/media/image/0190a6e2-0000-7000-8000-000000000001', '/api/events'])(
    'refuses %s without a token',
    async (path) => {
      expect((await h.call({ path, auth: false })).status).toBe(401);
    },
  );

  it('refuses API calls with a wrong or malformed bearer token, with a structured error', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer ', `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN.slice(1)}`]) {
      const reply = await h.call({
        method: 'POST',
        path: '/api/settings.get',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reply.status).toBe(401);
      expect(reply.json()).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', details: { reason: 'auth' } },
      });
    }
    expect(h.engine.calls).toHaveLength(0);
  });

  it('trades the link token for an HttpOnly SameSite=Strict cookie and drops it from the URL', async () => {
    const entry = await h.call({ path: `/?token=${TOKEN}`, auth: false });
    expect(entry.status).toBe(303);
    expect(entry.headers.location).toBe('/');
    const cookie = entry.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^atelier_token_${h.server.port}=${TOKEN};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const pair = cookie.split(';')[0] ?? '';

    const page = await h.call({ path: '/', auth: false, headers: { cookie: `other=1; ${pair}` } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Atelier</title>');
    const api = await h.call({
      method: 'POST',
      path: '/api/settings.get',
      auth: false,
      headers: { cookie: pair, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(api.status).toBe(200);
  });

  it('refuses a wrong link token and a cookie named for another port', async () => {
    expect((await h.call({ path: `/?token=${TOKEN}0`, auth: false })).status).toBe(401);
    const reply = await h.call({ path: '/', auth: false, headers: { cookie: `atelier_token_1=${TOKEN}` } });
    expect(reply.status).toBe(401);
  });

  it('compares tokens in constant time: equal-length digests through timingSafeEqual, whatever length is sent', () => {
    const compare = vi.mocked(timingSafeEqual);
    compare.mockClear();
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    // Longer, shorter, a prefix, one character, empty, a different case: each refused without a length shortcut.
    const wrong = [`${TOKEN}\0`, `${TOKEN}${TOKEN}`, TOKEN.slice(0, -1), TOKEN.slice(0, 1), '', TOKEN.toUpperCase()];
    for (const given of wrong) expect(tokensEqual(TOKEN, given), given).toBe(false);
    expect(compare).toHaveBeenCalledTimes(1 + wrong.length);
    for (const [a, b] of compare.mock.calls) {
      expect(a.byteLength).toBe(32);
      expect(b.byteLength).toBe(32);
    }
    expect(tokensEqual(TOKEN, undefined)).toBe(false);
  });
});
