import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

const request = { provider: 'comfyui', prompt: 'a lighthouse at dusk', width: 512, height: 512, count: 1 };

describe('headless host: 64-bit seeds over HTTP', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  const submit = (seedJson: string) =>
    h.call({
      method: 'POST',
      path: '/api/jobs.submit',
      headers: { 'content-type': 'application/json' },
      body: `${JSON.stringify(request).slice(0, -1)},"seed":${seedJson}}`,
    });

  it('a seed sent as a string of digits reaches the engine exactly, and comes back exactly in the JSON', async () => {
    const reply = await submit('"18446744073709551615"');
    expect(reply.status).toBe(200);
    expect(h.engine.calls[0]).toMatchObject({ channel: 'jobs.submit', input: { seed: '18446744073709551615' } });
    expect(reply.text).toContain('"seed":"18446744073709551615"');
    // Digits that fit a JS number become that number: the same request as 42.
    await submit('"42"');
    expect(h.engine.calls[1]).toMatchObject({ input: { seed: 42 } });
  });

  it('a bare JSON number past 2^53 (rounded by any JSON parser) is refused with the way to send it, not run with other digits', async () => {
    const reply = await submit('18446744073709551615');
    expect(reply.status).toBe(400);
    const body = reply.json() as {
      ok: false;
      error: { code: string; message: string; details: { fields: Record<string, string> } };
    };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.fields.seed).toMatch(
      /^Seed is a whole number from 0 to 18446744073709551615\. Above 9007199254740991 send it as a string of digits/,
    );
    expect(h.engine.calls).toHaveLength(0);
  });
});
