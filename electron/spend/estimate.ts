import type { GenerateRequest } from '../../shared/contract.js';
import {
  DALLE3_PRICES,
  DEFAULT_MODELS,
  DEFAULT_PRICES,
  GEMINI_4K_PRICES,
  KIND_FALLBACK_USD,
  OPENAI_TIERS,
  isPaidKind,
  type DefaultPrice,
} from './default-prices.js';

/** What a request needs for an estimate: how many images, how large, at what quality. */
export type PricedRequest = Pick<GenerateRequest, 'count' | 'width' | 'height'> &
  Pick<Partial<GenerateRequest>, 'quality'>;

export interface CostEstimate {
  usd: number;
  source: 'estimated';
  /** The price line it came from, "<kind>/<model>". */
  key: string;
  /** The person's own price, the table's, the kind's fallback for a model the table does not know, or free. */
  basis: 'yours' | 'default' | 'kind-default' | 'free';
  note?: string;
}

/** The person's prices per image by "<kind>/<model>" (settings.spend.prices). */
export type PersonPrices = Readonly<Record<string, number>>;

export const priceKey = (kind: string, model: string): string => `${kind}/${model}`;

/** The model a job runs: its own, else the kind's default; '' where neither is known. */
export const modelOf = (kind: string, model: string | undefined): string =>
  model ?? (isPaidKind(kind) ? (DEFAULT_MODELS[kind] ?? '') : '');

const usable = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

function personPrice(prices: PersonPrices, key: string): number | undefined {
  if (!Object.hasOwn(prices, key)) return undefined;
  const value = prices[key];
  return usable(value) ? value : undefined;
}

/** BFL and fal count 1024×1024 as one megapixel. */
const MEGAPIXEL = 1024 * 1024;
const startedMegapixels = (r: PricedRequest): number => Math.max(1, Math.ceil((r.width * r.height) / MEGAPIXEL));
const isSquare = (r: PricedRequest): boolean => r.width === r.height;

/** OpenAI's and Gemini's prices move with quality and size; everything else is the line's price per image. */
function perImage(kind: string, model: string, line: DefaultPrice, r: PricedRequest): number {
  if (kind === 'openai') {
    const tiers = OPENAI_TIERS[model];
    if (tiers !== undefined) {
      const quality = r.quality === 'low' || r.quality === 'medium' ? r.quality : 'high';
      return tiers[quality][isSquare(r) ? 0 : 1];
    }
    if (model === 'dall-e-3') return DALLE3_PRICES[r.quality === 'hd' ? 'hd' : 'standard'][isSquare(r) ? 0 : 1];
  }
  if (kind === 'gemini' && Math.max(r.width, r.height) > 3072) return GEMINI_4K_PRICES[model] ?? line.usd;
  return line.per === 'megapixel' ? line.usd * startedMegapixels(r) : line.usd;
}

/**
 * What a job should cost, before it runs or when its provider did not say: the person's price for the model per
 * image, else the table's (by quality, size or megapixels where the provider prices so), else the kind's fallback with
 * a note saying so. Free kinds cost nothing.
 */
export function estimateCost(
  kind: string,
  model: string | undefined,
  request: PricedRequest,
  prices: PersonPrices = {},
): CostEstimate {
  const name = modelOf(kind, model);
  const key = priceKey(kind, name);
  const count = Math.max(1, Math.trunc(request.count));
  if (!isPaidKind(kind)) return { usd: 0, source: 'estimated', key, basis: 'free' };
  const yours = personPrice(prices, key);
  if (yours !== undefined) return { usd: yours * count, source: 'estimated', key, basis: 'yours' };
  const line = Object.hasOwn(DEFAULT_PRICES, key) ? DEFAULT_PRICES[key] : undefined;
  if (line !== undefined) {
    return { usd: perImage(kind, name, line, request) * count, source: 'estimated', key, basis: 'default' };
  }
  const fallback = KIND_FALLBACK_USD[kind];
  return {
    usd: fallback * count,
    source: 'estimated',
    key,
    basis: 'kind-default',
    note:
      `No price is known for ${name === '' ? 'this model' : `“${name}”`}: counted at $${fallback.toFixed(3)} an ` +
      'image. Set its price in Settings → Spend.',
  };
}

/** The price line a person sees for a model: the default per image at its usual size, and theirs if set. */
export function priceLine(
  kind: string,
  model: string,
  prices: PersonPrices,
): { usdPerImage: number; defaultUsd: number | null; yours: boolean; note?: string } {
  const key = priceKey(kind, model);
  const line = Object.hasOwn(DEFAULT_PRICES, key) ? DEFAULT_PRICES[key] : undefined;
  const defaultUsd = line?.usd ?? null;
  const yours = personPrice(prices, key);
  const fallback = isPaidKind(kind) ? KIND_FALLBACK_USD[kind] : 0;
  return {
    usdPerImage: yours ?? defaultUsd ?? fallback,
    defaultUsd,
    yours: yours !== undefined,
    ...(line?.note === undefined ? {} : { note: line.note }),
  };
}
