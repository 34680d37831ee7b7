/**
 * The one contract between the engine, both hosts (Electron IPC and the headless HTTP host) and the renderer.
 * Channel and event names are public: outside clients depend on them, so rename nothing.
 */
import { z } from 'zod';
import { ERROR_CODES } from './errors.js';

// ---------------------------------------------------------------------------------------------------------------
// Building blocks

const MAX_SAFE_SEED = Number.MAX_SAFE_INTEGER;
// eslint-disable-next-line no-control-regex -- the point is to reject control characters
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export function isTerminal(status: JobStatus): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export const Id = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Ids are UUIDs like 0190a6e2-…');
export const ProviderId = z
  .string()
  .min(1, 'Choose a provider.')
  .max(64, 'A provider id is at most 64 characters.')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'A provider id uses lowercase letters, digits, - and _.');

const Ids = z.array(Id).min(1, 'Select at least one job.').max(10_000, 'At most 10,000 jobs at once.');

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be a whole number.`)
    .min(min, `${label} must be at least ${min}.`)
    .max(max, `${label} must be at most ${max}.`);

const num = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(min, `${label} must be at least ${min}.`)
    .max(max, `${label} must be at most ${max}.`);

export const QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'] as const;
export const BACKGROUNDS = ['auto', 'transparent', 'opaque'] as const;
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Requests and jobs

export const GenerateRequest = z.strictObject({
  provider: ProviderId,
  model: z.string().min(1, 'A model name cannot be empty.').max(200, 'A model name is at most 200 characters.').optional(),
  prompt: z
    .string({ error: 'Write a prompt.' })
    .min(1, 'Write a prompt.')
    .max(32_000, 'A prompt is at most 32,000 characters.')
    .refine((s) => s.trim().length > 0, 'Write a prompt: it cannot be only spaces.'),
  negativePrompt: z.string().max(32_000, 'A negative prompt is at most 32,000 characters.').optional(),
  width: int('Width', 64, 4096),
  height: int('Height', 64, 4096),
  count: int('Count', 1, 10),
  seed: int('Seed', 0, MAX_SAFE_SEED).optional(),
  steps: int('Steps', 1, 150).optional(),
  guidance: num('Guidance', 0, 30).optional(),
  sampler: z.string().min(1).max(64, 'A sampler name is at most 64 characters.').optional(),
  quality: z.enum(QUALITIES, { error: `Quality is one of ${QUALITIES.join(', ')}.` }).optional(),
  background: z.enum(BACKGROUNDS, { error: `Background is one of ${BACKGROUNDS.join(', ')}.` }).optional(),
  outputFormat: z.enum(OUTPUT_FORMATS, { error: `Output format is one of ${OUTPUT_FORMATS.join(', ')}.` }).optional(),
  partialImages: int('Partial previews', 0, 3).optional(),
  /** Per-request provider timeout; excluded from the idempotency fingerprint. */
  timeoutMs: int('Timeout', 1_000, 3_600_000).optional(),
  idempotencyKey: z
    .string()
    .min(1, 'An idempotency key cannot be empty.')
    .max(256, 'An idempotency key is at most 256 characters.')
    .refine((s) => !CONTROL_CHARS.test(s), 'An idempotency key cannot contain control characters.')
    .optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequest>;

export const ImageSummary = z.object({
  id: Id,
  index: z.number().int().min(0),
  width: z.number().int(),
  height: z.number().int(),
  mime: z.string(),
  bytes: z.number().int().min(0),
});
export type ImageSummary = z.infer<typeof ImageSummary>;

export const JobProgress = z.object({
  stage: z.string(),
  fraction: z.number().min(0).max(1).optional(),
  partialImages: z.number().int().min(0),
});
export type JobProgress = z.infer<typeof JobProgress>;

export const ErrorBody = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const JobSummary = z.object({
  id: Id,
  status: JobStatus,
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  startedAt: z.number().int().optional(),
  completedAt: z.number().int().optional(),
  provider: z.string(),
  model: z.string().optional(),
  prompt: z.string(),
  negativePrompt: z.string().optional(),
  width: z.number().int(),
  height: z.number().int(),
  count: z.number().int(),
  favorite: z.boolean(),
  trashedAt: z.number().int().nullable(),
  progress: JobProgress.optional(),
  images: z.array(ImageSummary),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).optional(),
});
export type JobSummary = z.infer<typeof JobSummary>;

export const Usage = z.record(z.string(), z.unknown());

export const JobResult = z.object({
  revisedPrompt: z.string().optional(),
  seed: z.number().optional(),
  usage: Usage.optional(),
  /** Milliseconds per phase, e.g. {queuedMs, providerMs, storeMs, totalMs}. */
  timings: z.record(z.string(), z.number()),
});
export type JobResult = z.infer<typeof JobResult>;

export const JobEvent = z.object({
  seq: z.number().int(),
  at: z.number().int(),
  kind: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type JobEvent = z.infer<typeof JobEvent>;

export const JobDetail = JobSummary.extend({
  request: GenerateRequest.omit({ idempotencyKey: true }),
  result: JobResult.optional(),
  errorDetail: ErrorBody.optional(),
  cancelRequested: z.boolean(),
  events: z.array(JobEvent),
});
export type JobDetail = z.infer<typeof JobDetail>;

// ---------------------------------------------------------------------------------------------------------------
// Providers and settings

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

export const THEMES = ['system', 'dark', 'light'] as const;

export const ProviderSettings = z.object({
  enabled: z.boolean(),
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  timeoutMs: z.number().int(),
  concurrency: z.number().int(),
  username: z.string().optional(),
  /** ComfyUI: a user-supplied API-format workflow with {{placeholders}}. */
  workflow: z.string().optional(),
  /** Secrets are write-only: only whether one is stored comes back. */
  hasApiKey: z.boolean(),
  hasPassword: z.boolean(),
});
export type ProviderSettings = z.infer<typeof ProviderSettings>;

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
  concurrency: int('Provider concurrency', 1, 16).optional(),
  username: z.string().max(256).nullable().optional(),
  workflow: z.string().max(1_000_000, 'A workflow is at most 1 MB.').nullable().optional(),
  /** A new key, or null to forget the stored one. */
  apiKey: Secret.nullable().optional(),
  password: Secret.nullable().optional(),
});
export type ProviderSettingsPatch = z.infer<typeof ProviderSettingsPatch>;

export const SettingsPatch = z.strictObject({
  concurrency: z.strictObject({ global: int('Concurrency', 1, 16) }).optional(),
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
});
export type SettingsPatch = z.infer<typeof SettingsPatch>;

// ---------------------------------------------------------------------------------------------------------------
// Channels

export const ListQuery = z.strictObject({
  cursor: z.string().min(1).max(512, 'That cursor is not one Atelier made.').optional(),
  limit: int('Limit', 1, 200).default(60),
  view: z.enum(['active', 'trash', 'all']).default('active'),
  status: z.array(JobStatus).min(1).max(JOB_STATUSES.length).optional(),
  favorite: z.boolean().optional(),
  provider: ProviderId.optional(),
  search: z.string().max(1_000, 'A search is at most 1,000 characters.').optional(),
});
export type ListQuery = z.infer<typeof ListQuery>;

export const ListPage = z.object({ items: z.array(JobSummary), nextCursor: z.string().nullable() });
export type ListPage = z.infer<typeof ListPage>;

export const SubmitResult = z.object({ job: JobDetail, created: z.boolean() });
export type SubmitResult = z.infer<typeof SubmitResult>;

export const Stats = z.object({
  byStatus: z.record(JobStatus, z.number().int()),
  total: z.number().int(),
  trashed: z.number().int(),
  favorites: z.number().int(),
  images: z.number().int(),
  databaseBytes: z.number().int(),
  mediaBytes: z.number().int(),
  /** Image rows whose file is gone from disk: reported, never silently dropped. */
  missingFiles: z.number().int(),
});
export type Stats = z.infer<typeof Stats>;

const ById = z.strictObject({ id: Id });
const ByImage = z.strictObject({ imageId: Id });
const Empty = z.strictObject({});
const Updated = z.object({ updated: z.number().int() });
const Removed = z.object({ removed: z.number().int(), bytesFreed: z.number().int() });
const Done = z.object({});

export const channels = {
  'jobs.submit': { input: GenerateRequest, output: SubmitResult },
  'jobs.list': { input: ListQuery, output: ListPage },
  'jobs.get': { input: ById, output: JobDetail },
  'jobs.cancel': { input: ById, output: JobDetail },
  'jobs.retry': { input: ById, output: SubmitResult },
  'jobs.setFavorite': { input: z.strictObject({ ids: Ids, favorite: z.boolean() }), output: Updated },
  'jobs.trash': { input: z.strictObject({ ids: Ids }), output: Updated },
  'jobs.restore': { input: z.strictObject({ ids: Ids }), output: Updated },
  'jobs.purge': { input: z.strictObject({ ids: Ids }), output: Removed },
  'jobs.emptyTrash': { input: Empty, output: Removed },
  'jobs.stats': { input: Empty, output: Stats },
  'providers.list': { input: Empty, output: z.object({ providers: z.array(ProviderInfo) }) },
  'providers.test': { input: z.strictObject({ id: ProviderId }), output: ProviderTestResult },
  'settings.get': { input: Empty, output: Settings },
  'settings.update': { input: SettingsPatch, output: Settings },
  // Desktop-only touches: the headless host answers these with `desktop_only`.
  'desktop.reveal': { input: ByImage, output: Done },
  'desktop.copyImage': { input: ByImage, output: Done },
  'desktop.saveAs': { input: ByImage, output: z.object({ saved: z.boolean() }) },
  'desktop.startDrag': { input: ByImage, output: Done },
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[];
/** What a caller may send (defaults not yet applied). */
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['input']>;
/** What a handler receives after validation. */
export type ChannelInput<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;

export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(channels, name);
}

/** The engine side: one function per channel. */
export type Handlers = {
  [C in ChannelName]: (input: ChannelInput<C>) => Promise<ChannelOutput<C>>;
};

// ---------------------------------------------------------------------------------------------------------------
// Events (pushed from the engine)

export const JobProgressEvent = z.object({
  id: Id,
  stage: z.string(),
  fraction: z.number().min(0).max(1).optional(),
  step: z.number().int().optional(),
  steps: z.number().int().optional(),
  etaMs: z.number().int().optional(),
  partialImages: z.number().int(),
  previewImageId: z.string().optional(),
});
export type JobProgressEvent = z.infer<typeof JobProgressEvent>;

export const events = {
  'jobs.changed': z.object({ job: JobSummary }),
  'jobs.progress': JobProgressEvent,
  'jobs.removed': z.object({ ids: z.array(Id) }),
} as const;

export type Events = { [E in keyof typeof events]: z.infer<(typeof events)[E]> };
export type EventName = keyof Events;
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** Issues from a failed parse, as a message a person understands plus per-field details. */
export function describeIssues(error: z.ZodError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(body)';
    if (!(path in fields)) fields[path] = issue.message;
  }
  const first = error.issues[0];
  const message = first === undefined ? 'The request is not valid.' : first.message;
  return { message, fields };
}
