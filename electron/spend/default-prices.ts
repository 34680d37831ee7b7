/**
 * What a paid image costs when the provider's answer does not say: list prices in US dollars, as the providers
 * published them on the dates given. Prices change; the person's own figures (Settings → Spend, `settings.spend.prices`)
 * win over every line here, and a provider's reported cost wins over both (estimate.ts).
 */

/** Kinds that bill per job. builtin, a1111 and comfyui run on the person's own machine and cost nothing. */
export const PAID_KINDS = ['openai', 'gemini', 'bfl', 'fal', 'replicate', 'stability', 'runpod'] as const;
export type PaidKind = (typeof PAID_KINDS)[number];
export const isPaidKind = (kind: string): kind is PaidKind => (PAID_KINDS as readonly string[]).includes(kind);

/**
 * The model a request without one runs, as each provider's DEFAULT_*_MODEL says
 * (electron/providers/{openai,gemini,bfl,fal,replicate,stability}/models.ts).
 */
export const DEFAULT_MODELS: Readonly<Partial<Record<PaidKind, string>>> = {
  openai: 'gpt-image-1',
  gemini: 'gemini-2.5-flash-image',
  bfl: 'flux-2-pro',
  fal: 'fal-ai/flux/dev',
  replicate: 'black-forest-labs/flux-schnell',
  stability: 'core',
};

export interface DefaultPrice {
  usd: number;
  /** Per image, or per started megapixel of each image (over-counts a little where the first megapixel is dearer). */
  per: 'image' | 'megapixel';
  /** Shown beside the price in Settings → Spend when the figure depends on more than the model. */
  note?: string;
}

const image = (usd: number, note?: string): DefaultPrice => ({ usd, per: 'image', ...(note ? { note } : {}) });
const megapixel = (usd: number): DefaultPrice => ({ usd, per: 'megapixel', note: 'per megapixel' });

/** OpenAI's per-image table by quality: [1024×1024, 1024×1536 or 1536×1024]. */
export type OpenAITiers = Readonly<Record<'low' | 'medium' | 'high', readonly [number, number]>>;

/**
 * OpenAI, platform.openai.com/docs/pricing "Image generation" (per image), as of 2025-05 (gpt-image-1) and 2025-10
 * (gpt-image-1-mini). `auto` quality is counted as high: OpenAI picks it, so the dearest keeps a cap honest.
 */
export const OPENAI_TIERS: Readonly<Record<string, OpenAITiers>> = {
  'gpt-image-1': { low: [0.011, 0.016], medium: [0.042, 0.063], high: [0.167, 0.25] },
  'gpt-image-1-mini': { low: [0.005, 0.006], medium: [0.011, 0.015], high: [0.036, 0.052] },
};
/** dall-e-3, same page, as of 2025-05: [standard, hd] × [1024×1024, 1792 wide or tall]. */
export const DALLE3_PRICES = { standard: [0.04, 0.08], hd: [0.08, 0.12] } as const;

/** Gemini's 4K images cost more than 1K and 2K (ai.google.dev/gemini-api/docs/pricing, as of 2025-11). */
export const GEMINI_4K_PRICES: Readonly<Record<string, number>> = {
  'gemini-3-pro-image-preview': 0.24,
  // 2,520 output tokens at $60 per million (cloud.google.com Gemini 3.1 Flash Image model page, as of 2026-05).
  'gemini-3.1-flash-image-preview': 0.151,
};

/** The price of one image per `<kind>/<model>`, for a request at the model's usual size and quality. */
export const DEFAULT_PRICES: Readonly<Record<string, DefaultPrice>> = {
  // OpenAI (see OPENAI_TIERS): medium quality, square, as the table's headline figure.
  'openai/gpt-image-1': image(0.042, 'by quality and size'),
  'openai/gpt-image-1-mini': image(0.011, 'by quality and size'),
  'openai/dall-e-3': image(0.04, 'by quality and size'),
  // dall-e-2 at 1024×1024, platform.openai.com/docs/pricing as of 2025-05.
  'openai/dall-e-2': image(0.02),
  // Gemini, ai.google.dev/gemini-api/docs/pricing as of 2025-11: 1,290 output tokens at $30 per million (2.5 Flash),
  // 1K/2K at $0.134 (3 Pro); 3.1 Flash 1K is 1,120 tokens at $60 per million (cloud.google.com, as of 2026-05).
  'gemini/gemini-2.5-flash-image': image(0.039),
  'gemini/gemini-3-pro-image-preview': image(0.134, '4K: $0.24'),
  'gemini/gemini-3.1-flash-image-preview': image(0.067, '4K: $0.151'),
  // Black Forest Labs, docs.bfl.ai/quick_start/pricing (1 credit = $0.01), "from" prices, as of 2026-01.
  'bfl/flux-2-pro': megapixel(0.03),
  'bfl/flux-2-flex': megapixel(0.05),
  'bfl/flux-2-max': megapixel(0.07),
  'bfl/flux-2-klein-4b': megapixel(0.014),
  'bfl/flux-2-klein-9b': megapixel(0.015),
  // fal.ai, each model's page on fal.ai/models, as of 2025-09.
  'fal/fal-ai/flux/dev': megapixel(0.025),
  'fal/fal-ai/flux/schnell': megapixel(0.003),
  'fal/fal-ai/flux-pro/v1.1': megapixel(0.04),
  'fal/fal-ai/flux/dev/image-to-image': megapixel(0.03),
  'fal/fal-ai/recraft-v3': image(0.04),
  'fal/fal-ai/ideogram/v2': image(0.08),
  // Replicate, each model's page on replicate.com (per output image), as of 2025-09.
  'replicate/black-forest-labs/flux-schnell': image(0.003),
  'replicate/black-forest-labs/flux-dev': image(0.025),
  'replicate/black-forest-labs/flux-1.1-pro': image(0.04),
  'replicate/black-forest-labs/flux-kontext-pro': image(0.04),
  'replicate/stability-ai/stable-diffusion-3.5-large': image(0.065),
  'replicate/ideogram-ai/ideogram-v2': image(0.08),
  'replicate/recraft-ai/recraft-v3': image(0.04),
  // Stability AI, platform.stability.ai/pricing (1 credit = $0.01), as of 2025-08 (erase from its 2025-08-01 update).
  'stability/ultra': image(0.08),
  'stability/core': image(0.03),
  'stability/sd3.5-large': image(0.065),
  'stability/sd3.5-large-turbo': image(0.04),
  'stability/sd3.5-medium': image(0.035),
  'stability/erase': image(0.05),
};

/**
 * RunPod bills GPU seconds, not images: a 48 GB serverless worker at $0.00034 per second (runpod.io/serverless-gpu
 * pricing, flex workers, as of 2025-09) for 30 seconds, a warm SDXL or FLUX job with some queue and start-up.
 */
export const RUNPOD_USD_PER_SECOND = 0.00034;
export const RUNPOD_SECONDS_PER_IMAGE = 30;

/**
 * A model the table does not know (a typed fal or Replicate id, a compatible OpenAI server): the kind's dearer common
 * price, so an unknown model does not slip under a cap. The person sets its real price in Settings → Spend.
 */
export const KIND_FALLBACK_USD: Readonly<Record<PaidKind, number>> = {
  openai: 0.167,
  gemini: 0.134,
  bfl: 0.07,
  fal: 0.08,
  replicate: 0.08,
  stability: 0.08,
  runpod: RUNPOD_USD_PER_SECOND * RUNPOD_SECONDS_PER_IMAGE,
};
