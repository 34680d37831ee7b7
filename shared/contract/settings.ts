/** Settings: the public view (secrets as has-flags only) and the patch a person sends. */
import { z } from 'zod';
import { ProviderId, int, typedName } from './common.js';
import { CORRECTABLE_FIELDS } from './corrections.js';
import { SpendSettings, SpendSettingsPatch } from './spend.js';

export const THEMES = ['system', 'dark', 'light'] as const;
export const MAX_PROVIDER_CONCURRENCY = 32;
export const MAX_GLOBAL_CONCURRENCY = 64;
export const MAX_PER_MINUTE = 600;

export const ProviderSettings = z.object({
  enabled: z.boolean(),
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  timeoutMs: z.number().int(),
  concurrency: z.number().int(),
  /** Jobs started per minute at most; absent: no limit beyond concurrency. */
  perMinute: z.number().int().optional(),
  username: z.string().optional(),
  /** ComfyUI: a user-supplied API-format workflow with {{placeholders}}. */
  workflow: z.string().optional(),
  /** Secrets are write-only: only whether one is stored comes back. */
  hasApiKey: z.boolean(),
  hasPassword: z.boolean(),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

/** The settings a person's own ComfyUI node can hold: the same a person can correct on an imported image. */
export const COMFY_RULE_FIELDS = CORRECTABLE_FIELDS;
export const MAX_COMFY_NODE_RULES = 100;

/** "In my workflows, this node class's input holds that setting": read wherever the trace passes the node. */
export const ComfyNodeRule = z.strictObject({
  classType: typedName('node class', 200),
  input: typedName('input', 200),
  field: z.enum(COMFY_RULE_FIELDS, { error: `A setting is one of ${COMFY_RULE_FIELDS.join(', ')}.` }),
});
export type ComfyNodeRule = z.infer<typeof ComfyNodeRule>;

export const Settings = z.object({
  concurrency: z.object({ global: z.number().int() }),
  retention: z.object({
    trashAutoEmptyDays: z.number().int(),
    maxJobs: z.number().int().nullable(),
    maxBytes: z.number().int().nullable(),
    maxAgeDays: z.number().int().nullable(),
  }),
  theme: z.enum(THEMES),
  providers: z.record(z.string(), ProviderSettings),
  /** Off by default: write ratings and tags to `<original>.xmp` beside imported originals, for other tools to read. */
  library: z.object({
    xmpSidecars: z.boolean(),
    /** The person's own ComfyUI nodes; re-reading ComfyUI files applies them. */
    comfyNodeRules: z.array(ComfyNodeRule).optional(),
  }),
  /** On by default: the desktop app checks the release feed on start and daily, and downloads in the background. */
  updates: z.object({ auto: z.boolean() }),
  /** Prices the person set per model and monthly caps per provider (electron/spend/); empty by default. */
  spend: SpendSettings.optional(),
  dataDir: z.string(),
});
export type Settings = z.infer<typeof Settings>;

const BaseUrl = z
  .string()
  .max(2048, 'A base URL is at most 2,048 characters.')
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'A base URL starts with http:// or https://, like http://127.0.0.1:7860.');

const Secret = z.string().min(1, 'A key cannot be empty.').max(4096, 'A key is at most 4,096 characters.');

export const ProviderSettingsPatch = z.strictObject({
  enabled: z.boolean().optional(),
  baseUrl: BaseUrl.nullable().optional(),
  model: z.string().min(1).max(200).nullable().optional(),
  timeoutMs: int('Timeout', 1_000, 3_600_000).optional(),
  // Hosted queues take many jobs at once (BFL 24, fal and Replicate more): a local GPU is best left at 1.
  concurrency: int('Provider concurrency', 1, MAX_PROVIDER_CONCURRENCY).optional(),
  perMinute: int('Jobs per minute', 1, MAX_PER_MINUTE).nullable().optional(),
  username: z.string().max(256).nullable().optional(),
  workflow: z.string().max(1_000_000, 'A workflow is at most 1 MB.').nullable().optional(),
  /** A new key, or null to forget the stored one. */
  apiKey: Secret.nullable().optional(),
  password: Secret.nullable().optional(),
});
export type ProviderSettingsPatch = z.infer<typeof ProviderSettingsPatch>;

export const SettingsPatch = z.strictObject({
  concurrency: z.strictObject({ global: int('Concurrency', 1, MAX_GLOBAL_CONCURRENCY) }).optional(),
  retention: z
    .strictObject({
      trashAutoEmptyDays: int('Trash auto-empty days', 0, 3650).optional(),
      maxJobs: int('Maximum jobs', 1, 100_000_000).nullable().optional(),
      maxBytes: int('Maximum bytes', 1, Number.MAX_SAFE_INTEGER).nullable().optional(),
      maxAgeDays: int('Maximum age', 1, 36_500).nullable().optional(),
    })
    .optional(),
  theme: z.enum(THEMES).optional(),
  providers: z.record(ProviderId, ProviderSettingsPatch).optional(),
  library: z
    .strictObject({
      xmpSidecars: z.boolean().optional(),
      comfyNodeRules: z
        .array(ComfyNodeRule)
        .max(MAX_COMFY_NODE_RULES, `At most ${MAX_COMFY_NODE_RULES} node rules.`)
        .optional(),
    })
    .optional(),
  updates: z.strictObject({ auto: z.boolean().optional() }).optional(),
  spend: SpendSettingsPatch.optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;
