import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenerateRequest, JobDetail, Seed } from '../../../shared/contract.js';
import { MAX_SEED, SEED_MESSAGE, formatSeed, offsetSeed, parseSeed, sameSeed } from '../../../shared/seed.js';
import { requestFingerprint } from '../../../electron/db/fingerprint.js';
import { finished, image, open, req } from '../db/helpers.js';

const base = { provider: 'comfyui', prompt: 'a lighthouse', width: 512, height: 512, count: 1 };

/** The seed's value, whichever canonical form it has. */
const valueOf = (seed: Seed | undefined): bigint | undefined => (seed === undefined ? undefined : BigInt(seed));

describe('Seed: every whole number from 0 to 2^64-1, exactly', () => {
  it('canonical form: a number up to 2^53-1, its digits beyond; "42" and 42 are one seed and one fingerprint', () => {
    expect(Seed.parse('42')).toBe(42);
    expect(Seed.parse(42)).toBe(42);
    expect(Seed.parse('0')).toBe(0);
    expect(Seed.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(Seed.parse('9007199254740992')).toBe('9007199254740992');
    expect(Seed.parse('18446744073709551615')).toBe('18446744073709551615');
    expect(requestFingerprint(GenerateRequest.parse({ ...base, seed: '42' }))).toBe(
      requestFingerprint(GenerateRequest.parse({ ...base, seed: 42 })),
    );
    expect(requestFingerprint(GenerateRequest.parse({ ...base, seed: '18446744073709551615' }))).not.toBe(
      requestFingerprint(GenerateRequest.parse({ ...base, seed: '18446744073709551614' })),
    );
  });

  it('refuses what is not a seed, saying what one is', () => {
    const refused: unknown[] = [
      -1,
      '-1',
      1.5,
      '1.5',
      '1e5',
      1e300,
      ' 5',
      '5 ',
      '05',
      '00',
      '+5',
      '0x10',
      '',
      '18446744073709551616',
      '99999999999999999999',
      '1'.repeat(21),
      '١٢',
      true,
      null,
      {},
      [],
      NaN,
      Infinity,
    ];
    for (const value of refused) {
      const parsed = GenerateRequest.safeParse({ ...base, seed: value });
      expect(parsed.success, `seed ${JSON.stringify(value)} should be refused`).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain(SEED_MESSAGE);
      expect(parsed.error?.issues[0]?.path).toEqual(['seed']);
    }
  });

  it('a JSON number past 2^53 (its digits already lost) is refused with the way to send it', () => {
    const body = JSON.parse(`{"seed": 18446744073709551615}`) as { seed: number };
    const parsed = Seed.safeParse(body.seed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      `${SEED_MESSAGE} Above 9007199254740991 send it as a string of digits, e.g. "18446744073709551615": a JSON number that large has lost digits.`,
    );
  });

  it('any seed in range round-trips through parse → contract → JSON → database → contract exactly', () => {
    const store = open();
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_SEED }), fc.boolean(), (seed, asNumber) => {
        const typed = asNumber && seed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seed) : seed.toString();
        expect(parseSeed(typed)).toBe(seed);
        const request = GenerateRequest.parse(JSON.parse(JSON.stringify({ ...base, seed: typed })));
        const stored = { ...image(0), seed: request.seed! };
        const id = finished(store, 'round trip', { seed: request.seed! }, [stored]);
        const back = JobDetail.parse(JSON.parse(JSON.stringify(store.get(id))));
        expect(valueOf(back.request.seed)).toBe(seed);
        expect(valueOf(back.images[0]!.seed)).toBe(seed);
        expect(valueOf(store.image(stored.id)?.seed)).toBe(seed);
        expect(formatSeed(back.images[0]!.seed!)).toBe(seed.toString());
        // The canonical form is the same on the way out as on the way in.
        expect(back.images[0]!.seed).toBe(request.seed);
      }),
      { numRuns: 200 },
    );
  });

  it('a provider may report a 64-bit seed in the result', () => {
    const store = open();
    const { job } = store.submit(req('reported', { seed: '18446744073709551615' }));
    store.claim(job.id);
    store.succeed(job.id, [], { seed: '18446744073709551615', timings: {} });
    expect(store.get(job.id).result?.seed).toBe('18446744073709551615');
  });

  it('helpers: compare by value, offset wraps past 2^64-1 so it stays a seed', () => {
    expect(sameSeed(42, '42')).toBe(true);
    expect(sameSeed('18446744073709551615', '18446744073709551614')).toBe(false);
    expect(offsetSeed(9007199254740991, 1)).toBe('9007199254740992');
    expect(offsetSeed('18446744073709551615', 1)).toBe(0);
    expect(parseSeed(2 ** 53)).toBeNull();
  });
});
