/**
 * Seeds are 64-bit (ComfyUI, Fooocus): 0 … 2^64-1. A JS number is exact only up to 2^53-1, so the canonical form is
 * a number up to Number.MAX_SAFE_INTEGER and a string of decimal digits beyond it. Every seed that enters Atelier is
 * made canonical once (the contract's Seed schema), so "42" and 42 are the same request and compare equal anywhere.
 */

/** A seed in canonical form: a safe integer, or the decimal digits of one above Number.MAX_SAFE_INTEGER. */
export type Seed = number | string;

export const MAX_SEED = 18446744073709551615n;
export const MAX_SEED_TEXT = '18446744073709551615';
export const SEED_MESSAGE = `Seed is a whole number from 0 to ${MAX_SEED_TEXT}.`;

// No sign, no spaces, no exponent, no leading zero (except "0" itself); at most 20 digits, checked against 2^64-1.
const DIGITS = /^(?:0|[1-9][0-9]{0,19})$/;
const TWO_64 = 1n << 64n;

/** The seed a number or decimal string stands for, or null when it is not a whole number from 0 to 2^64-1. */
export function parseSeed(value: unknown): bigint | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value === 'bigint') return value >= 0n && value <= MAX_SEED ? value : null;
  if (typeof value !== 'string' || !DIGITS.test(value)) return null;
  const big = BigInt(value);
  return big <= MAX_SEED ? big : null;
}

/** The canonical form of a seed already known to be in range. */
export function seedFromBigInt(value: bigint): Seed {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** The canonical seed for a number, digits or bigint; null when it is not a seed. */
export function normalizeSeed(value: unknown): Seed | null {
  const big = parseSeed(value);
  return big === null ? null : seedFromBigInt(big);
}

/** The exact value of a canonical seed. */
export function seedToBigInt(seed: Seed): bigint {
  return BigInt(seed);
}

/** Its decimal digits, exactly: what a person sees and what goes into a provider's JSON text. */
export function formatSeed(seed: Seed): string {
  return typeof seed === 'number' ? String(seed) : seed;
}

export function sameSeed(a: Seed, b: Seed): boolean {
  return seedToBigInt(a) === seedToBigInt(b);
}

/** The seed `offset` places on (a batch's image i renders with seed + i), wrapping past 2^64-1 so it stays a seed. */
export function offsetSeed(seed: Seed, offset: number): Seed {
  return seedFromBigInt((seedToBigInt(seed) + BigInt(offset)) % TWO_64);
}
