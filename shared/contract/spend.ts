/** Spend: what paid jobs cost per provider per day and month, the person's prices and monthly caps. */
import { z } from 'zod';
import { ProviderId } from './common.js';

export const COST_SOURCES = ['reported', 'estimated'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

/** A job's cost: the provider's own figure where its API says, else the price table's estimate. */
export const JobCost = z.object({ usd: z.number().min(0), source: z.enum(COST_SOURCES) });
export type JobCost = z.infer<typeof JobCost>;

/** A price's name, "<kind>/<model>" (bfl/flux-2-pro, fal/fal-ai/flux/dev); no spaces or control characters. */
export const PriceKey = z
  .string()
  .max(300, 'A price name is at most 300 characters.')
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}\/[^\s\p{Cc}]{1,236}$/u, 'A price is named <kind>/<model>, like bfl/flux-2-pro.');

export const MAX_PRICE_USD = 1_000;
export const MAX_CAP_USD = 1_000_000;
const dollars = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number of dollars.` })
    .min(0, `${label} cannot be negative.`)
    .max(max, `${label} is at most $${max.toLocaleString('en-US')}.`);

/** What is saved: the person's price per image for a model, and a monthly cap per provider instance (both optional). */
export const SpendSettings = z.object({
  prices: z.record(z.string(), z.number()),
  monthlyCapUsd: z.record(z.string(), z.number()),
});
export type SpendSettings = z.infer<typeof SpendSettings>;

/** Each entry sets that price or cap; null removes it (the default price again, or no cap). */
export const SpendSettingsPatch = z.strictObject({
  prices: z
    .record(PriceKey, dollars('A price', MAX_PRICE_USD).nullable())
    .refine((r) => Object.keys(r).length <= 500, 'At most 500 prices at once.')
    .optional(),
  monthlyCapUsd: z
    .record(ProviderId, dollars('A monthly cap', MAX_CAP_USD).nullable())
    .refine((r) => Object.keys(r).length <= 200, 'At most 200 caps at once.')
    .optional(),
});
export type SpendSettingsPatch = z.infer<typeof SpendSettingsPatch>;

export const DaySpend = z.object({ day: z.string(), usd: z.number(), jobs: z.number().int() });
export type DaySpend = z.infer<typeof DaySpend>;

/** One paid provider instance this month. */
export const ProviderSpend = z.object({
  id: z.string(),
  kind: z.string(),
  name: z.string(),
  todayUsd: z.number(),
  monthUsd: z.number(),
  /** Estimates held for jobs running now (admitted, not yet recorded). */
  runningUsd: z.number(),
  capUsd: z.number().nullable(),
  /** Set while the cap holds this provider's queue: the message its waiting jobs show. */
  pausedByCap: z.string().nullable(),
  /** Some of this month's figure is an estimate (the provider did not say). */
  estimated: z.boolean(),
  /** This month's days with spend, oldest first. */
  days: z.array(DaySpend),
});
export type ProviderSpend = z.infer<typeof ProviderSpend>;

/** A price the person can edit: the models used so far, each paid provider's chosen model, and their own lines. */
export const PriceRow = z.object({
  key: z.string(),
  kind: z.string(),
  model: z.string(),
  /** The price in force per image: theirs where set, else the default. */
  usdPerImage: z.number(),
  /** The list price per image at the model's usual size; null when the table does not know the model. */
  defaultUsd: z.number().nullable(),
  yours: z.boolean(),
  note: z.string().optional(),
});
export type PriceRow = z.infer<typeof PriceRow>;

export const SpendSummary = z.object({
  /** YYYY-MM and YYYY-MM-DD, local time. */
  month: z.string(),
  today: z.string(),
  /** When monthly caps start over, in words ("1 January 2027"). */
  capsResetOn: z.string(),
  providers: z.array(ProviderSpend),
  prices: z.array(PriceRow),
});
export type SpendSummary = z.infer<typeof SpendSummary>;
