import {
  MAX_CAP_USD,
  MAX_PRICE_USD,
  PriceKey,
  ProviderId,
  type SpendSettings,
  type SpendSettingsPatch,
} from '../../shared/contract.js';

/** settings.spend as stored: the person's prices per image by "<kind>/<model>", caps per provider instance. */
export type StoredSpend = SpendSettings;

export const emptySpend = (): StoredSpend => ({ prices: {}, monthlyCapUsd: {} });

const dollars = (value: unknown, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max;

/** Entries whose key and value still pass the contract's checks; the rest of what was stored is left out. */
function kept(stored: unknown, validKey: (key: string) => boolean, max: number): Record<string, number> {
  const out: Record<string, number> = {};
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return out;
  for (const [key, value] of Object.entries(stored)) if (validKey(key) && dollars(value, max)) out[key] = value;
  return out;
}

/** settings.spend read back from the database like any file: only well-formed prices and caps survive. */
export function readSpend(stored: unknown): StoredSpend {
  const spend = (stored ?? {}) as Partial<Record<keyof StoredSpend, unknown>>;
  return {
    prices: kept(spend.prices, (k) => PriceKey.safeParse(k).success, MAX_PRICE_USD),
    monthlyCapUsd: kept(spend.monthlyCapUsd, (k) => ProviderId.safeParse(k).success, MAX_CAP_USD),
  };
}

function merged(current: Record<string, number>, patch: Record<string, number | null> | undefined) {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** A patch's prices and caps over the current ones; null removes one (the default price again, or no cap). */
export function applySpendPatch(current: StoredSpend, patch: SpendSettingsPatch): StoredSpend {
  return {
    prices: merged(current.prices, patch.prices),
    monthlyCapUsd: merged(current.monthlyCapUsd, patch.monthlyCapUsd),
  };
}

/** A provider instance's cap, only from its own entry ("constructor" is nobody's cap). */
export const capOf = (spend: StoredSpend, providerId: string): number | undefined =>
  Object.hasOwn(spend.monthlyCapUsd, providerId) ? spend.monthlyCapUsd[providerId] : undefined;
