import { isInteger, parse } from 'lossless-json';
import { scanJsonTokens } from './json-tokens.js';

export type JsonObject = Record<string, unknown>;

export type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** Bare NaN/Infinity become strings, so the field they sat in is reported as unparseable instead of failing the file. */
export function replaceNonFinite(text: string): string {
  return scanJsonTokens(text).text;
}

/** No seed or count is longer; printing a bigint of a million digits takes seconds, so such a number stays a float. */
const MAX_EXACT_DIGITS = 1_000;

/** Integers past 2^53 stay exact as bigint; every other number is a plain number. */
function parseNumber(digits: string): number | bigint {
  if (!isInteger(digits) || digits.length > MAX_EXACT_DIGITS) return Number.parseFloat(digits);
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : BigInt(digits);
}

/**
 * Parses generator JSON losslessly; a duplicate key keeps the last value, as JSON.parse does. Never throws.
 * JSON.parse (native, several times faster) reads what has no integer of 16 digits or more; lossless-json the rest.
 */
export function parseJson(text: string): JsonResult {
  try {
    const { text: finite, long } = scanJsonTokens(text);
    const value: unknown = long
      ? parse(finite, null, { parseNumber, onDuplicateKey: (info) => info.newValue })
      : JSON.parse(finite);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'not valid JSON' };
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON object a text holds, or undefined (not JSON, or JSON that is not an object). */
export function parseObject(text: string | undefined): JsonObject | undefined {
  if (text === undefined) return undefined;
  const result = parseJson(text);
  return result.ok && isObject(result.value) ? result.value : undefined;
}

/** Sets a key as plain data, even one like `__proto__` that an assignment would treat as the prototype. */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
