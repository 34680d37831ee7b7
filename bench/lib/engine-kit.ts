/** What every engine bench needs: a keyring in memory and one percentile rule. */
import type { Keyring } from '../../electron/base/keyring.js';

export const memoryKeyring = (): Keyring => {
  const values = new Map<string, string>();
  return {
    get: async (n) => values.get(n) ?? null,
    set: async (n, v) => void values.set(n, v),
    delete: async (n) => void values.delete(n),
  };
};

/** The nearest-rank percentile (p in 0–100); NaN for no values. */
export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
