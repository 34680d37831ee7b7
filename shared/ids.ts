/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits, so ids sort by creation time.
 * A per-process counter in rand_a keeps ids made within one millisecond in order.
 */
let lastMs = -1;
let sequence = 0;

/** Web Crypto exists in Node 20+ and every browser; typed locally because shared/ sees neither lib. */
function webCrypto(): { getRandomValues(array: Uint8Array): Uint8Array } {
  return (globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto;
}

export function uuidv7(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  webCrypto().getRandomValues(bytes);
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    // The counter wrapped within one millisecond: borrow the next millisecond to stay monotonic.
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    sequence = bytes[6]! & 0x07; // start low so a burst has room to count up
  }
  const ms = BigInt(now);
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The millisecond timestamp embedded in a UUIDv7. */
export function uuidv7Time(id: string): number {
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
