/** Providers: what each can do, what it knows, how a connection test went. */
import { z } from 'zod';
import { BACKGROUNDS, OUTPUT_FORMATS, ProviderId, QUALITIES } from './common.js';

const Range = z.object({ min: z.number(), max: z.number(), default: z.number() });

export const ProviderCapabilities = z.object({
  sizes: z.object({
    min: z.number().int(),
    max: z.number().int(),
    /** Width and height must be multiples of this. */
    multipleOf: z.number().int(),
    /** When set, only these exact sizes are accepted. */
    fixed: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
    presets: z.array(z.tuple([z.number().int(), z.number().int()])),
  }),
  maxCount: z.number().int(),
  steps: Range.optional(),
  guidance: Range.optional(),
  seed: z.boolean(),
  negativePrompt: z.boolean(),
  maxPartialImages: z.number().int(),
  qualities: z.array(z.enum(QUALITIES)).optional(),
  backgrounds: z.array(z.enum(BACKGROUNDS)).optional(),
  outputFormats: z.array(z.enum(OUTPUT_FORMATS)),
  samplers: z.array(z.string()).optional(),
});
export type ProviderCapabilities = z.infer<typeof ProviderCapabilities>;

export const ProviderInfo = z.object({
  id: ProviderId,
  name: z.string(),
  enabled: z.boolean(),
  /** Everything it needs (base URL, key) is set. */
  configured: z.boolean(),
  capabilities: ProviderCapabilities,
  models: z.array(z.string()),
  /** When the server's model list in `models` was last fetched (kept across restarts, so it works offline). */
  modelsListedAt: z.number().int().optional(),
  defaultModel: z.string().optional(),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

export const ProviderTestResult = z.object({
  ok: z.boolean(),
  reachable: z.boolean(),
  authenticated: z.boolean().optional(),
  models: z.array(z.string()),
  latencyMs: z.number().int(),
  message: z.string(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResult>;