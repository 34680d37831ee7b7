/** Providers: what each can do, what it knows, how a connection test went. */
import { z } from 'zod';
import { BACKGROUNDS, OUTPUT_FORMATS, ProviderId, QUALITIES } from './common.js';
import { InstanceHealth, OperationCapabilities, ProviderKind } from './iterate.js';

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
  /** Takes a request's LoRAs (A1111 and ComfyUI by file name; hosted APIs where they have a LoRA input). */
  loras: z.boolean().optional(),
  /** Library images a request may send as references beside the prompt; absent or 0: none. */
  maxReferenceImages: z.number().int().optional(),
  /** Image-to-image, masked edit and upscale: supported or why not. */
  operations: OperationCapabilities,
});
export type ProviderCapabilities = z.infer<typeof ProviderCapabilities>;

/** Models given their own capabilities in ProviderInfo at most: a server may list thousands of checkpoints. */
export const MAX_MODELS_WITH_CAPABILITIES = 200;

export const PROVIDER_STATES = ['off', 'untested', 'ready', 'failing'] as const;

/** What Atelier last saw of a provider: a connection test or a real job. Messages came from the provider (redacted). */
export const ProviderStatus = z.object({
  state: z.enum(PROVIDER_STATES),
  /** When the outcome behind `ready` or `failing` was seen (absent for a provider that needs no test). */
  at: z.number().int().optional(),
  source: z.enum(['test', 'job']).optional(),
  /** Why it is failing. */
  message: z.string().max(500).optional(),
});
export type ProviderStatus = z.infer<typeof ProviderStatus>;

export const ProviderInfo = z.object({
  id: ProviderId,
  /** builtin, openai, a1111 or comfyui: the first instance of each kind has the kind as its id. */
  kind: ProviderKind,
  name: z.string(),
  enabled: z.boolean(),
  /** Everything it needs (base URL, key) is set. */
  configured: z.boolean(),
  capabilities: ProviderCapabilities,
  models: z.array(z.string()),
  /** When the server's model list in `models` was last fetched (kept across restarts, so it works offline). */
  modelsListedAt: z.number().int().optional(),
  defaultModel: z.string().optional(),
  status: ProviderStatus,
  /**
   * What each listed model can do where it differs from `capabilities` (the default model's): FLUX schnell's few steps,
   * Recraft's one image without a seed. Only the first MAX_MODELS_WITH_CAPABILITIES models are looked at.
   */
  capabilitiesByModel: z.record(z.string(), ProviderCapabilities).optional(),
  /** The operations part of `capabilitiesByModel`, for models whose operations differ (OpenAI: dall-e-3 cannot edit). */
  operationsByModel: z.record(z.string(), OperationCapabilities).optional(),
  /** Whether the scheduler sends it work: down instances are probed with backoff. */
  health: InstanceHealth,
  concurrency: z.number().int(),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

export const ProviderTestResult = z.object({
  ok: z.boolean(),
  reachable: z.boolean(),
  authenticated: z.boolean().optional(),
  models: z.array(z.string()),
  latencyMs: z.number().int(),
  message: z.string(),
  /** Advice in Atelier's own words about how the server runs (ComfyUI started without previews), shown in Settings. */
  hint: z.string().optional(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResult>;
