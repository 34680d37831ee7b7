import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';

describe('headless host: a styles.csv as large as the contract allows', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  const post = (body: string) =>
    h.call({
      method: 'POST',
      path: '/api/presets.importStyles',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('takes a 5-million-character file whose JSON is well past 2 MB, and says where the limit is past 16 MB', async () => {
    // Quotes and CRLF double as JSON escapes, accents take two bytes: the body is far larger than the text.
    const row = 'Café noir,"{prompt}, ""film"" look",\r\n';
    const csv = `name,prompt,negative_prompt\r\n${row.repeat(Math.floor((5_000_000 - 40) / row.length))}`;
    const body = JSON.stringify({ csv });
    expect(csv.length).toBeLessThanOrEqual(5_000_000);
    expect(Buffer.byteLength(body)).toBeGreaterThan(5 * 1024 * 1024);
    const roomy = await post(body);
    // It reached the engine (this fake one answers no presets channel).
    expect(roomy.status).not.toBe(413);
    expect(roomy.json()).toMatchObject({
      ok: false,
      error: { message: 'The fake engine does not answer presets.importStyles.' },
    });
    const tooBig = await post(JSON.stringify({ csv: 'x'.repeat(17 * 1024 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.json()).toMatchObject({ ok: false, error: { message: 'A request body is at most 16 MB.' } });
  });
});
