import type { ChannelRequest, Preset } from '../../../shared/contract';
import type { ComposerDraft } from './composer';

/**
 * The draft's settings as a preset. A prompt holding {prompt} is the template itself ("cinematic still of
 * {prompt}"); otherwise the template in use, if any, is kept.
 */
export function presetFromDraft(draft: ComposerDraft, name: string): ChannelRequest<'presets.save'> {
  const preset: ChannelRequest<'presets.save'> = {
    name,
    provider: draft.provider,
    width: draft.width,
    height: draft.height,
  };
  if (draft.model !== '') preset.model = draft.model;
  if (draft.steps !== null) preset.steps = draft.steps;
  if (draft.guidance !== null) preset.guidance = draft.guidance;
  if (draft.sampler !== '') preset.sampler = draft.sampler;
  if (draft.scheduler !== '') preset.scheduler = draft.scheduler;
  if (draft.negativePrompt.trim() !== '') preset.negativePrompt = draft.negativePrompt;
  const template = draft.prompt.includes('{prompt}') ? draft.prompt : draft.template;
  if (template.trim() !== '') preset.template = template;
  return preset;
}

/** The draft with a preset's settings; what it leaves out stays as it was, its template wraps the next prompts. */
export function draftWithPreset(draft: ComposerDraft, preset: Preset): ComposerDraft {
  const next: ComposerDraft = { ...draft };
  if (preset.model !== undefined) next.model = preset.model;
  if (preset.width !== undefined) next.width = preset.width;
  if (preset.height !== undefined) next.height = preset.height;
  if (preset.steps !== undefined) next.steps = preset.steps;
  if (preset.guidance !== undefined) next.guidance = preset.guidance;
  if (preset.sampler !== undefined) next.sampler = preset.sampler;
  if (preset.scheduler !== undefined) next.scheduler = preset.scheduler;
  if (preset.negativePrompt !== undefined) next.negativePrompt = preset.negativePrompt;
  next.template = preset.template ?? '';
  next.templateName = preset.template === undefined ? '' : preset.name;
  // The prompt box held the template itself when it was saved: give the box back to the person.
  if (preset.template !== undefined && draft.prompt === preset.template) next.prompt = '';
  return next;
}
