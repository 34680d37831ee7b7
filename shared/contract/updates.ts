/** The desktop app's automatic updates (electron/desktop/updates.ts): where the check stands, as the person sees it. */
import { z } from 'zod';

/** Why nothing is checked: a development run, the person's setting, or a host with no installer (the browser). */
export const UPDATE_OFF_REASONS = ['development', 'setting', 'unsupported'] as const;

export const UpdateStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off'), reason: z.enum(UPDATE_OFF_REASONS) }),
  /** Up to date as of checkedAt (null: no check has finished yet). */
  z.object({ state: z.literal('idle'), checkedAt: z.number().int().nullable() }),
  z.object({ state: z.literal('checking') }),
  z.object({ state: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  /** Downloaded and verified: it installs on "Restart to update" (or on the next quit). */
  z.object({ state: z.literal('ready'), version: z.string() }),
  /** The last check or download failed (offline, no feed); the next daily check tries again. */
  z.object({ state: z.literal('error'), message: z.string() }),
]);
export type UpdateStatus = z.infer<typeof UpdateStatus>;
