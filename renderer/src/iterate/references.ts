/**
 * Reference images, the pure part: the library images the composer's next Generate shows the model beside the
 * prompt, in the order chosen, and how many of them the chosen model takes.
 */
import type { ProviderCapabilities, ProviderKind } from '../../../shared/contract';
import { MAX_REFERENCE_IMAGES } from '../common/contract-constants';
import type { RequestWithoutKey } from '../composer/composer';

/** One chosen reference: the image, and its job (for the viewer and the thumbnail's label). */
export interface ReferencePick {
  imageId: string;
  jobId: string;
}

export type AddOutcome = 'added' | 'already' | 'full';

/** The list with `pick` at its end; one already there, or a list at the contract's limit, stays as it was. */
export function addReference(
  list: readonly ReferencePick[],
  pick: ReferencePick,
): { list: readonly ReferencePick[]; outcome: AddOutcome } {
  if (list.some((r) => r.imageId === pick.imageId)) return { list, outcome: 'already' };
  if (list.length >= MAX_REFERENCE_IMAGES) return { list, outcome: 'full' };
  return { list: [...list, pick], outcome: 'added' };
}

export function removeReference(list: readonly ReferencePick[], imageId: string): readonly ReferencePick[] {
  return list.filter((r) => r.imageId !== imageId);
}

/** What this model does with the chosen references: the ones it is sent, the ones it is not, and the words for it. */
export interface ReferencePlan {
  /** How many this model takes now (the input image counted where it shares the slots); 0: none. */
  takes: number;
  sent: readonly ReferencePick[];
  held: readonly ReferencePick[];
  /** Why some (or all) stay behind; null when every one is sent. */
  note: string | null;
}

/**
 * Splits the references by what the model takes: the first `takes` are sent, the rest are kept for another model
 * and named. FLUX.2's eight images include the one being edited (electron/providers/bfl/models.ts).
 */
export function planReferences(
  list: readonly ReferencePick[],
  caps: Pick<ProviderCapabilities, 'maxReferenceImages'> | undefined,
  context: { kind: ProviderKind | undefined; hasInput: boolean },
): ReferencePlan {
  const max = Math.max(0, caps?.maxReferenceImages ?? 0);
  const takes = context.hasInput && context.kind === 'bfl' ? Math.max(0, max - 1) : max;
  const sent = list.slice(0, takes);
  const held = list.slice(takes);
  let note: string | null = null;
  if (list.length > 0 && max === 0)
    note = 'This model takes no reference images: they stay here and are not sent. Gemini and FLUX.2 take them.';
  else if (held.length > 0) {
    const shared = takes < max ? ' (the input image takes one of its places)' : '';
    note = `This model takes ${takes}${shared}: the ${held.length === 1 ? 'last one is' : `last ${held.length} are`} not sent.`;
  }
  return { takes, sent, held, note };
}

/** The composer's request with the references the model takes; none sent leaves the field out. */
export function withReferences(request: RequestWithoutKey, plan: ReferencePlan): RequestWithoutKey {
  if (plan.sent.length === 0) return request;
  return { ...request, referenceImages: plan.sent.map((r) => ({ imageId: r.imageId })) };
}

/** The row's count: "2 of 14", or "2, none sent" when the model takes none. */
export function referenceCount(plan: ReferencePlan, total: number): string {
  return plan.takes === 0 ? `${total}, none sent` : `${total} of ${plan.takes}`;
}
