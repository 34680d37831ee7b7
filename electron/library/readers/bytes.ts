/** Bounds-checked reads: a truncated or lying file answers undefined instead of reading past its end. */

export function u16be(bytes: Uint8Array, at: number): number | undefined {
  return at >= 0 && at + 2 <= bytes.length ? (bytes[at]! << 8) | bytes[at + 1]! : undefined;
}

export function u16le(bytes: Uint8Array, at: number): number | undefined {
  return at >= 0 && at + 2 <= bytes.length ? bytes[at]! | (bytes[at + 1]! << 8) : undefined;
}

export function u24le(bytes: Uint8Array, at: number): number | undefined {
  return at >= 0 && at + 3 <= bytes.length ? bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) : undefined;
}

export function u32be(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 4 > bytes.length) return undefined;
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

export function u32le(bytes: Uint8Array, at: number): number | undefined {
  if (at < 0 || at + 4 > bytes.length) return undefined;
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

export function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (at < 0 || at + length > bytes.length) return '';
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

export function startsWith(bytes: Uint8Array, prefix: string, at = 0): boolean {
  return ascii(bytes, at, prefix.length) === prefix;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

/** UTF-8 when the bytes are valid UTF-8 (writers in the wild put it into Latin-1 fields), else Latin-1. */
export function utf8OrLatin1(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return LATIN1.decode(bytes);
  }
}
