/** Perceptual hashes as the images.phash column holds them (migration 11); images.ts and similar.ts both need them. */
/** A hash as the INTEGER column holds it: the 64 bits as a signed two's complement number. */
export function hashToColumn(hash: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hash}`));
}

/** The 16 hex digits of two 32-bit halves (unsigned), high first. */
export function hashFromHalves(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}
