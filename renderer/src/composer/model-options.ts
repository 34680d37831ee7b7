import type { ProviderCapabilities, ProviderInfo, ProviderKind } from '../../../shared/contract';
import { capabilitiesFor } from './capabilities-for';

/**
 * Kinds that run any model id a person types, not only the listed presets (electron/providers/fal/models.ts and
 * replicate/models.ts send an unknown id with generic inputs).
 */
const TYPED_MODEL_KINDS: ReadonlySet<ProviderKind> = new Set(['fal', 'replicate']);

export function takesTypedModel(kind: ProviderKind): boolean {
  return TYPED_MODEL_KINDS.has(kind);
}

/** What a model can do, in a few words: "up to 4 images · 1–12 steps · seed". */
export function capabilitySummary(caps: ProviderCapabilities): string {
  const parts = [caps.maxCount === 1 ? '1 image' : `up to ${caps.maxCount} images`];
  if (caps.steps !== undefined)
    parts.push(
      caps.steps.min === caps.steps.max ? `${caps.steps.min} steps` : `${caps.steps.min}–${caps.steps.max} steps`,
    );
  if (caps.guidance !== undefined) parts.push('guidance');
  if (caps.seed) parts.push('seed');
  if (caps.negativePrompt) parts.push('negative prompt');
  const fixed = caps.sizes.fixed?.length ?? 0;
  if (fixed > 0) parts.push(fixed === 1 ? 'one size' : `${fixed} sizes`);
  if (caps.operations.img2img.supported) parts.push('edits images');
  if (caps.operations.inpaint.supported) parts.push('masks');
  return parts.join(' · ');
}

export interface ModelOption {
  value: string;
  label: string;
}

/** Whether the provider's models differ: only then does each option carry its summary (a server's checkpoints do not). */
export function modelsDiffer(provider: Pick<ProviderInfo, 'capabilitiesByModel'>): boolean {
  return provider.capabilitiesByModel !== undefined && Object.keys(provider.capabilitiesByModel).length > 0;
}

/**
 * The model menu: Default (when the engine picks), each listed model with what it can do where models differ, and
 * the current model when the list lacks it (typed in, or reused from another server), so it is never replaced unseen.
 */
export function modelOptions(provider: ProviderInfo, current: string): ModelOption[] {
  const summaries = modelsDiffer(provider);
  const label = (name: string, model: string) =>
    summaries ? `${name} — ${capabilitySummary(capabilitiesFor(provider, model))}` : name;
  const options: ModelOption[] = [];
  // Nothing chosen: the engine's default (ComfyUI: the first listed; A1111: the checkpoint it has loaded).
  if (provider.defaultModel === undefined && (current === '' || provider.models.length > 1))
    options.push({ value: '', label: label('Default', '') });
  for (const model of provider.models) options.push({ value: model, label: label(model, model) });
  if (current !== '' && !provider.models.includes(current)) {
    const note = takesTypedModel(provider.kind) ? 'typed in' : 'not listed';
    options.push({ value: current, label: `${current} (${note})` });
  }
  return options;
}
