import { textOnlyOperations } from '../../../shared/contract.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import {
  REDACTED,
  createRedactor,
  createSecretBook,
  secretForms,
  secretsOf,
} from '../../../electron/providers/redact.js';
import { redactingProvider } from '../../../electron/providers/redacting-provider.js';
import { redactingLog } from '../../../electron/engine/redacting-log.js';
import type { Provider, ProviderConfig, ProviderContext, ProviderProgress } from '../../../electron/providers/types.js';

/** Every string in a value, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

/** A copy of `value` with `secret` spliced into every string and key at a position chosen by `at`. */
function embed(value: unknown, secret: string, at: number): unknown {
  const splice = (s: string): string => {
    const i = at % (s.length + 1);
    return s.slice(0, i) + secret + s.slice(i);
  };
  if (typeof value === 'string') return splice(value);
  if (Array.isArray(value)) return value.map((v) => embed(v, secret, at));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(copy, splice(k), {
        value: embed(v, secret, at),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return copy;
  }
  return value;
}

const secretArb = fc.string({ unit: 'binary', minLength: 4, maxLength: 40 });
const json = fc.jsonValue({ maxDepth: 4 });

describe('the redactor', () => {
  it('removes a secret embedded anywhere in nested JSON, keys included', () => {
    fc.assert(
      fc.property(json, secretArb, fc.nat(), (value, secret, at) => {
        const redacted = createRedactor([secret]).deep(embed({ wrapper: value }, secret, at));
        for (const s of strings(redacted)) expect(s.includes(secret)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves text and JSON without the secret unchanged', () => {
    fc.assert(
      fc.property(json, fc.string({ unit: 'binary' }), secretArb, (value, text, secret) => {
        const absent = (s: string) => secretForms(secret).every((form) => !s.includes(form));
        fc.pre(absent(text) && strings(value).every(absent));
        const r = createRedactor([secret]);
        expect(r.text(text)).toBe(text);
        expect(r.deep(value)).toEqual(value);
      }),
      { numRuns: 300 },
    );
    // Pieces of the secret that never make it whole (a masked "sk-abc…xyz", a prefix) are not the secret.
    fc.assert(
      fc.property(
        secretArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 6 }),
        (secret, parts) => {
          const text = parts
            .map(
              ([a, b, filler]) => secret.slice(Math.min(a, b) % secret.length, Math.max(a, b) % secret.length) + filler,
            )
            .join('');
          fc.pre(secretForms(secret).every((form) => !text.includes(form)));
          expect(createRedactor([secret]).text(text)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
    expect(createRedactor(['sk-abcdef']).text('cafe\u0301 Bearer sk-abc***def')).toBe('cafe\u0301 Bearer sk-abc***def');
  });

  it('removes overlapping secrets whole, and a secret that reappears around a replacement', () => {
    fc.assert(
      fc.property(secretArb, fc.string({ minLength: 1, maxLength: 8 }), fc.string(), (a, b, around) => {
        const text = `${around}${a}${b}${around}${a}`;
        const out = createRedactor([a, `${a}${b}`]).text(text);
        expect(out.includes(a)).toBe(false);
        expect(out.includes(`${a}${b}`)).toBe(false);
      }),
    );
    expect(createRedactor(['****']).text('*****')).not.toContain('****');
    expect(createRedactor(['sk-abcdef']).text('key sk-abcdef!')).toBe(`key ${REDACTED}!`);
    // Echoed inside JSON text (A1111's info string) or a URL, the secret is escaped: those forms go too.
    expect(createRedactor(['pa"ss/wo rd']).text('{"detail":"pa\\"ss/wo rd"} ?p=pa%22ss%2Fwo%20rd')).toBe(
      `{"detail":"${REDACTED}"} ?p=${REDACTED}`,
    );
  });

  it('keeps image bytes as they are and a provider "__proto__" key as data', () => {
    const data = new Uint8Array([1, 2, 3]);
    const out = createRedactor(['sk-abcdef']).deep({
      images: [{ data, mime: 'image/png sk-abcdef' }],
      ...(JSON.parse('{"__proto__": {"polluted": "sk-abcdef"}}') as object),
    });
    expect(out.images[0]!.data).toBe(data);
    expect(out.images[0]!.mime).toBe(`image/png ${REDACTED}`);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: REDACTED });
  });
});

describe('the secrets of one call', () => {
  it('are the key, the password, URL credentials as typed and decoded, and the Basic header value', () => {
    const secrets = secretsOf({ apiKey: 'sk-key-1234', baseUrl: 'http://art%40ist:p%40ss-word@127.0.0.1:7860' });
    expect(secrets).toEqual(
      expect.arrayContaining([
        'sk-key-1234',
        'p%40ss-word',
        'p@ss-word',
        'art@ist:p@ss-word',
        Buffer.from('art@ist:p@ss-word').toString('base64'),
      ]),
    );
    const basic = secretsOf({ username: 'artist', password: 'hunter22' });
    expect(basic).toEqual(expect.arrayContaining(['hunter22', Buffer.from('artist:hunter22').toString('base64')]));
    expect(secretsOf({ baseUrl: 'http://127.0.0.1:7860' })).toEqual([]);
  });
});

describe('a provider behind the redacting boundary', () => {
  const KEY = 'sk-echoed-0123456789';
  const config: ProviderConfig = { apiKey: KEY, timeoutMs: 1_000, maxResponseBytes: 1_000_000 };
  const nested = { [KEY]: [KEY, { deep: KEY }] };
  const echoing = (fail: boolean): Provider => ({
    id: 'echo',
    name: 'Echo',
    capabilities: () => ({
      sizes: { min: 64, max: 64, multipleOf: 8, presets: [] },
      maxCount: 1,
      seed: false,
      negativePrompt: false,
      maxPartialImages: 0,
      outputFormats: ['png'],
      operations: textOnlyOperations('text only'),
    }),
    knownModels: () => [],
    isConfigured: () => true,
    validate: () => {
      throw new AppError('invalid_request', `bad ${KEY}`, { details: nested });
    },
    async generate(_request, c, context) {
      context.trace(`kind ${c.apiKey}`, `message ${c.apiKey}`, { nested });
      context.onProgress({ stage: `stage ${c.apiKey}` });
      if (fail)
        throw new AppError('provider_error', `failed ${c.apiKey}`, {
          retryable: true,
          details: { providerCode: c.apiKey, nested },
        });
      return {
        images: [{ data: new Uint8Array([9]), mime: 'image/png' }],
        revisedPrompt: `revised ${c.apiKey}`,
        usage: { note: nested },
        info: { requestId: c.apiKey, nested },
      };
    },
    async test(c) {
      return { ok: false, reachable: true, models: [`model ${c.apiKey}`], latencyMs: 1, message: `said ${c.apiKey}` };
    },
  });
  const recording = () => {
    const seen: unknown[] = [];
    const context: ProviderContext = {
      signal: new AbortController().signal,
      onAccepted: () => undefined,
      onPartialImage: () => undefined,
      onProgress: (p: ProviderProgress) => seen.push(p),
      trace: (kind, message, data) => seen.push({ kind, message, data }),
    };
    return { seen, context };
  };
  const request = { provider: 'echo', prompt: 'p', width: 64, height: 64, count: 1 };

  it('redacts output, traces, progress, thrown errors and test results, keeping codes, flags and bytes', async () => {
    const book = createSecretBook();
    const ok = redactingProvider(echoing(false), (s) => book.add(s));
    const { seen, context } = recording();
    const output = await ok.generate(request, config, context);
    expect(output.images[0]!.data).toEqual(new Uint8Array([9]));
    expect(output.revisedPrompt).toBe(`revised ${REDACTED}`);
    const failing = redactingProvider(echoing(true));
    const error = (await failing.generate(request, config, recording().context).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'provider_error', retryable: true, message: `failed ${REDACTED}` });
    const invalid = (() => {
      try {
        ok.validate(request, config);
      } catch (e) {
        return e as AppError;
      }
      throw new Error('validate did not throw');
    })();
    const tested = await ok.test(config, new AbortController().signal);
    const all = JSON.stringify([output, seen, error.toBody(), invalid.toBody(), tested]);
    expect(all).toContain(REDACTED);
    expect(all).not.toContain(KEY);
    // The engine log is redacted against every secret a call has used.
    const lines: string[] = [];
    const log = redactingLog(
      { info: (m, f) => lines.push(m + JSON.stringify(f)), warn: () => undefined, error: () => undefined },
      book,
    );
    log.info(`unexpected ${KEY}`, { nested });
    expect(lines.join()).not.toContain(KEY);
    expect(lines.join()).toContain(REDACTED);
  });
});
