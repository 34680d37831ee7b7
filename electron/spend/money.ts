/** Dollars are kept as whole micro-dollars wherever they are added up, so a cap compares exact sums. */
export const MICROS_PER_USD = 1_000_000;

export const toMicros = (usd: number): number => Math.round(usd * MICROS_PER_USD);
export const toUsd = (micros: number): number => micros / MICROS_PER_USD;

/** $20.00, $0.06; amounts under a cent keep the digits that make them non-zero ($0.003). */
export function formatUsd(usd: number): string {
  const abs = Math.abs(usd);
  if (abs === 0 || abs >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(4).replace(/0+$/, '')}`;
}
