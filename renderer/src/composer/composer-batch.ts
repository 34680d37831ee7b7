import { expandPrompts } from '../../../shared/prompt/expand';
import { applyTemplate, takesPrompt } from '../../../shared/prompt-template';
import type { ProviderCapabilities } from '../../../shared/contract';
import { buildRequest, type ComposerDraft, type RequestWithoutKey } from './composer';

/** What Generate would queue: one job per prompt the text expands to, each wrapped by the preset's template. */
export type BatchPlan = { ok: true; prompts: string[] } | { ok: false; message: string };

export function planBatch(
  draft: Pick<ComposerDraft, 'prompt' | 'template'> & Partial<Pick<ComposerDraft, 'promptLiteral'>>,
): BatchPlan {
  // A recalled prompt is what was sent before, exactly: lines and {a|b} expand only in text the person typed.
  const expansion =
    draft.promptLiteral === true && draft.prompt.trim() !== ''
      ? { ok: true as const, prompts: [draft.prompt] }
      : expandPrompts(draft.prompt);
  if (!expansion.ok) return { ok: false, message: expansion.message };
  if (draft.template.trim() === '') return { ok: true, prompts: expansion.prompts };
  // A template without {prompt} is a fixed prompt: one job, whatever was typed.
  if (!takesPrompt(draft.template)) return { ok: true, prompts: [draft.template] };
  return { ok: true, prompts: expansion.prompts.map((p) => applyTemplate(draft.template, p)) };
}

/** How many jobs a recalled prompt would make if typed (its lines, its {a|b}); null when it is one either way. */
export function recalledExpansion(draft: Pick<ComposerDraft, 'prompt' | 'promptLiteral'>): number | null {
  if (!draft.promptLiteral) return null;
  const typed = expandPrompts(draft.prompt);
  return typed.ok && typed.prompts.length > 1 ? typed.prompts.length : null;
}

/** The requests to submit; an empty plan gives the draft's own request, so the contract says what is missing. */
export function batchRequests(
  draft: ComposerDraft,
  caps: ProviderCapabilities | undefined,
  prompts: readonly string[],
): RequestWithoutKey[] {
  const request = buildRequest(draft, caps);
  if (prompts.length === 0) return [request];
  return prompts.map((prompt) => ({ ...request, prompt }));
}

/** One batch, one fingerprint: the same prompts and settings again reuse the keys already sent. */
export function batchFingerprintRequest(requests: readonly RequestWithoutKey[]): RequestWithoutKey {
  if (requests.length === 1) return requests[0]!;
  return { ...requests[0]!, prompt: JSON.stringify(requests.map((r) => r.prompt)) };
}

/** Each job of a batch has its own key, derived from the batch's: a retry resends none twice. */
export function keyOfJob(batchKey: string, index: number, total: number): string {
  return total === 1 ? batchKey : `${batchKey}#${index + 1}`;
}

/** "Makes 6 jobs (12 images)"; null for a single job. */
export function batchHint(jobs: number, count: number): string | null {
  if (jobs <= 1) return null;
  const images = jobs * count;
  return count === 1 ? `Makes ${jobs} jobs` : `Makes ${jobs} jobs (${images} images)`;
}
