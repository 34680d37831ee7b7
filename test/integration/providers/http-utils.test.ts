import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../../electron/providers/http/deadline.js';
import { redact, type CallScope } from '../../../electron/providers/http/errors.js';
import { retryAfterMs } from '../../../electron/providers/http/status-errors.js';
import { decodeBase64, sniffImage } from '../../../electron/providers/http/image.js';
import { parseSse, type SseEvent } from '../../../electron/providers/http/sse.js';
import { parseBaseUrl } from '../../../electron/providers/http/url.js';
import { pngFor } from '../../fakes/png.js';

async function* chunked(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let last = 0;
  for (const cut of [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((a, b) => a - b)) {
    yield bytes.subarray(last, cut);
    last = cut;
  }
  yield bytes.subarray(last);
}

async function collect(text: string, cuts: number[] = []): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(chunked(new TextEncoder().encode(text), cuts))) events.push(event);
  return events;
}

function scope(): CallScope {
  return { provider: 'Test', deadline: new Deadline(new AbortController().signal, 60_000), secrets: [] };
}

describe('SSE parser', () => {
  it('parses event + data lines, ignores comments, joins multi-line data', async () => {
    const events = await collect(
      ': keepalive\nevent: a\ndata: {"x":1}\n\ndata: one\ndata: two\n\nevent: ignored-no-data\n\n',
    );
    expect(events).toEqual([
      { event: 'a', data: '{"x":1}' },
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('gives the same events for LF, CRLF and CR at any chunking (property)', async () => {
    const payload = fc.array(
      fc.record({
        event: fc.stringMatching(/^[a-z_.]{1,20}$/),
        data: fc.stringMatching(/^[A-Za-z0-9+/={}":,]{0,60}$/),
      }),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(
        payload,
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(400), { maxLength: 8 }),
        fc.boolean(),
        async (events, eol, cuts, comments) => {
          const text = events
            .map((e) => `${comments ? `: ping${eol}` : ''}event: ${e.event}${eol}data: ${e.data}${eol}${eol}`)
            .join('');
          expect(await collect(text, cuts)).toEqual(events);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250.4', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }), now)).toBe(10_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('base64 and images', () => {
  it('decodes valid base64 strictly and rejects junk', () => {
    const png = pngFor(1);
    expect(sniffImage(decodeBase64(png.toString('base64'), scope(), 'x'))).toEqual({
      mime: 'image/png',
      width: 8,
      height: 8,
    });
    for (const bad of ['', 'abc', 'iVBOR!!', 'a b c d', 'YQ===']) {
      expect(() => decodeBase64(bad, scope(), 'x')).toThrow(expect.objectContaining({ code: 'provider_error' }));
    }
  });
});

describe('secrets and URLs', () => {
  it('redacts secrets and bearer tokens', () => {
    expect(redact('key sk-secret-123 and Bearer abc.def', ['sk-secret-123'])).toBe('key *** and Bearer ***');
  });

  it('moves URL credentials to Basic auth and strips trailing slashes', () => {
    expect(parseBaseUrl('http://me:p%40ss@127.0.0.1:7860/', 'http://127.0.0.1:7860', 'A1111')).toEqual({
      base: 'http://127.0.0.1:7860',
      basic: { username: 'me', password: 'p@ss' },
    });
    expect(() => parseBaseUrl('ftp://x', 'http://127.0.0.1:7860', 'A1111')).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
  });
});

describe('ComfyUI binary frames', () => {
  it('decodes legacy type-1 and metadata type-4 previews (big-endian), ignoring other frames', async () => {
    const { decodePreviewFrame } = await import('../../../electron/providers/comfyui/frames.js');
    const png = pngFor(3);
    const type1 = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 2]), png]);
    expect(decodePreviewFrame(type1)).toMatchObject({ mime: 'image/png' });
    expect(Buffer.from(decodePreviewFrame(type1)!.data).equals(png)).toBe(true);
    expect(decodePreviewFrame(Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 0, 0, 1]), png]))?.mime).toBe('image/jpeg');
    const meta = Buffer.from(JSON.stringify({ prompt_id: 'p1', image_type: 'image/webp' }));
    const header = Buffer.alloc(8);
    header.writeUInt32BE(4, 0);
    header.writeUInt32BE(meta.length, 4);
    expect(decodePreviewFrame(Buffer.concat([header, meta, png]))).toMatchObject({
      mime: 'image/webp',
      promptId: 'p1',
    });
    expect(decodePreviewFrame(Buffer.from([0, 0, 0, 3, 0, 0, 0, 1, 0x33, 0x68, 0x69]))).toBeNull();
    expect(decodePreviewFrame(Buffer.from([0, 0, 0]))).toBeNull();
  });
});
