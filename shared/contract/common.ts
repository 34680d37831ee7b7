/** Building blocks every domain of the contract shares: statuses, ids, numeric fields, issue wording. */
import { z } from 'zod';
import { MAX_SEED_TEXT, SEED_MESSAGE, normalizeSeed } from '../seed.js';

// eslint-disable-next-line no-control-regex -- the point is to reject control characters
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** A name a person types (a model, a node class): trimmed, then not empty, at most `max` characters, no controls. */
export const typedName = (what: string, max: number, emptyMessage = `Name the ${what}.`) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, emptyMessage)
        .max(max, `A ${what} is at most ${max} characters.`)
        .refine((s) => !CONTROL_CHARS.test(s), `A ${what} cannot contain control characters.`),
    );

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

export const Ids = z.array(Id).min(1, 'Select at least one job.').max(10_000, 'At most 10,000 jobs at once.');

export const int = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .int(`${label} must be a whole number.`)
    .min(min, `${label} must be at least ${min}.`)
    .max(max, `${label} must be at most ${max}.`);

/**
 * A seed, 0 … 2^64-1: a safe integer, or decimal digits (no sign, spaces or leading zeros). The output is canonical:
 * digits that fit a safe integer become that number, so "42" and 42 are the same request (and fingerprint).
 */
export const Seed = z.union([z.number(), z.string()], { error: SEED_MESSAGE }).transform((value, ctx) => {
  const seed = normalizeSeed(value);
  if (seed !== null) return seed;
  const message =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value > Number.MAX_SAFE_INTEGER &&
    value <= Number(MAX_SEED_TEXT)
      ? `${SEED_MESSAGE} Above ${Number.MAX_SAFE_INTEGER} send it as a string of digits, e.g. "${MAX_SEED_TEXT}": a JSON number that large has lost digits.`
      : SEED_MESSAGE;
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
});
export type Seed = z.infer<typeof Seed>;

export const num = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(min, `${label} must be at least ${min}.`)
    .max(max, `${label} must be at most ${max}.`);

export const QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'] as const;
export const BACKGROUNDS = ['auto', 'transparent', 'opaque'] as const;
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;

export const ById = z.strictObject({ id: Id });
export const ByImage = z.strictObject({ imageId: Id });
export const Empty = z.strictObject({});

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
