import { useState } from 'react';
import { formatSeed } from '../../../shared/seed';
import type { ProviderCapabilities } from '../../../shared/contract';
import type { ComposerDraft } from './composer';

const ADVANCED_KEY = 'atelier.composerAdvanced';

/** The fields that live under Advanced: an error in any of them opens it, so the message is never hidden. */
export const ADVANCED_FIELDS = [
  'negativePrompt',
  'seed',
  'steps',
  'guidance',
  'quality',
  'sampler',
  'scheduler',
] as const;

export function hasAdvancedError(errors: Record<string, string>): boolean {
  return ADVANCED_FIELDS.some((field) => errors[field] !== undefined);
}

/**
 * What Advanced holds that differs from the provider's defaults, for its closed summary ("seed 42 · 30 steps"), so a
 * fixed seed or a negative prompt is never forgotten behind a closed disclosure.
 */
export function advancedSummary(
  draft: ComposerDraft,
  caps: Pick<ProviderCapabilities, 'steps' | 'guidance'> | undefined,
): string {
  const parts: string[] = [];
  if (draft.negativePrompt.trim() !== '') parts.push('negative prompt');
  if (draft.seedLocked) parts.push(`seed ${formatSeed(draft.seed)}`);
  if (draft.steps !== null && draft.steps !== caps?.steps?.default) parts.push(`${draft.steps} steps`);
  if (draft.guidance !== null && draft.guidance !== caps?.guidance?.default) parts.push(`guidance ${draft.guidance}`);
  if (draft.sampler !== '') parts.push(draft.sampler);
  if (draft.quality !== null) parts.push(`${draft.quality} quality`);
  return parts.join(' · ');
}

/** Whether Advanced is open: closed for a new person, then as they last left it. */
export function useAdvancedOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => globalThis.localStorage?.getItem(ADVANCED_KEY) === 'open');
  return [
    open,
    (next: boolean) => {
      globalThis.localStorage?.setItem(ADVANCED_KEY, next ? 'open' : 'closed');
      setOpen(next);
    },
  ];
}
