import { describe, expect, it } from 'vitest';
import type { ProviderCapabilities, ProviderInfo } from '../../../../shared/contract';
import { adaptDraftToModel, adaptDraftToProvider, DEFAULT_DRAFT } from '../../../../renderer/src/composer/composer';
import { capabilitySummary, modelOptions } from '../../../../renderer/src/composer/model-options';
import { provider } from '../iterate/iterate-fixtures';

const TEXT_ONLY = { supported: false, reason: 'Text only.' };
const plain = provider('fal');
const dev: ProviderCapabilities = {
  ...plain.capabilities,
  maxCount: 4,
  negativePrompt: false,
  steps: { min: 1, max: 50, default: 28 },
  guidance: { min: 1, max: 20, default: 3.5 },
  operations: { img2img: TEXT_ONLY, inpaint: TEXT_ONLY, upscale: TEXT_ONLY },
};
const schnell: ProviderCapabilities = { ...dev, steps: { min: 1, max: 4, default: 4 } };
delete schnell.guidance;
const recraft: ProviderCapabilities = { ...dev, maxCount: 1, seed: false };
delete recraft.steps;
delete recraft.guidance;
const edit: ProviderCapabilities = { ...dev, operations: { ...dev.operations, img2img: { supported: true } } };
const fal: ProviderInfo = {
  ...plain,
  kind: 'fal',
  name: 'fal.ai',
  capabilities: dev,
  models: ['fal-ai/flux/dev', 'fal-ai/flux/schnell', 'fal-ai/recraft-v3', 'fal-ai/flux/dev/image-to-image'],
  capabilitiesByModel: {
    'fal-ai/flux/schnell': schnell,
    'fal-ai/recraft-v3': recraft,
    'fal-ai/flux/dev/image-to-image': edit,
  },
};

describe('capabilitySummary', () => {
  it('says in a few words what a model can do', () => {
    expect(capabilitySummary(schnell)).toBe('up to 4 images · 1–4 steps · seed');
    expect(capabilitySummary(dev)).toBe('up to 4 images · 1–50 steps · guidance · seed');
    expect(capabilitySummary(recraft)).toBe('1 image');
    expect(capabilitySummary(edit)).toBe('up to 4 images · 1–50 steps · guidance · seed · edits images');
    expect(
      capabilitySummary({
        ...recraft,
        negativePrompt: true,
        sizes: { ...recraft.sizes, fixed: [[1024, 1024]] },
        steps: { min: 30, max: 30, default: 30 },
      }),
    ).toBe('1 image · 30 steps · negative prompt · one size');
  });
});

describe('modelOptions', () => {
  it('labels each of a provider’s differing models with its summary, the default first', () => {
    expect(modelOptions(fal, 'fal-ai/flux/dev')).toEqual([
      { value: '', label: 'Default — up to 4 images · 1–50 steps · guidance · seed' },
      { value: 'fal-ai/flux/dev', label: 'fal-ai/flux/dev — up to 4 images · 1–50 steps · guidance · seed' },
      { value: 'fal-ai/flux/schnell', label: 'fal-ai/flux/schnell — up to 4 images · 1–4 steps · seed' },
      { value: 'fal-ai/recraft-v3', label: 'fal-ai/recraft-v3 — 1 image' },
      {
        value: 'fal-ai/flux/dev/image-to-image',
        label: 'fal-ai/flux/dev/image-to-image — up to 4 images · 1–50 steps · guidance · seed · edits images',
      },
    ]);
  });

  it('a server whose models all take the same settings lists bare names, as before', () => {
    const comfy = provider('comfyui', { models: ['a.safetensors', 'b.safetensors'] });
    expect(modelOptions(comfy, '').map((o) => o.label)).toEqual(['Default', 'a.safetensors', 'b.safetensors']);
  });

  it('keeps a model the list lacks, marked typed in where the provider runs any id and not listed elsewhere', () => {
    expect(modelOptions(fal, 'fal-ai/some-lab/new-model').at(-1)).toEqual({
      value: 'fal-ai/some-lab/new-model',
      label: 'fal-ai/some-lab/new-model (typed in)',
    });
    const comfy = provider('comfyui', { models: ['a.safetensors'] });
    expect(modelOptions(comfy, 'old.ckpt').at(-1)?.label).toBe('old.ckpt (not listed)');
  });
});

describe('choosing a model fits the form to it', () => {
  const onDev = adaptDraftToProvider({ ...DEFAULT_DRAFT, provider: 'fal', count: 4 }, fal);

  it('a provider’s default model sets the form: FLUX dev’s 28 steps and 3.5 guidance', () => {
    expect(onDev).toMatchObject({ model: 'fal-ai/flux/dev', steps: 28, guidance: 3.5, count: 4 });
  });

  it('steps left at the last provider’s default follow the new one’s (the built-in’s 20 become FLUX dev’s 28)', () => {
    const builtin = { ...dev, steps: { min: 1, max: 150, default: 20 } };
    const draft = { ...DEFAULT_DRAFT, steps: 20, guidance: null };
    expect(adaptDraftToProvider(draft, fal, builtin).steps).toBe(28);
    expect(adaptDraftToProvider({ ...draft, steps: 12 }, fal, builtin).steps).toBe(12);
  });

  it('schnell: steps left at dev’s default become schnell’s 4, and guidance goes', () => {
    expect(adaptDraftToModel(onDev, fal, 'fal-ai/flux/schnell')).toEqual({
      model: 'fal-ai/flux/schnell',
      steps: 4,
      guidance: null,
    });
  });

  it('steps a person chose stay where the new model takes them, and are brought in range where it does not', () => {
    expect(adaptDraftToModel({ ...onDev, steps: 3 }, fal, 'fal-ai/flux/schnell').steps).toBeUndefined();
    expect(adaptDraftToModel({ ...onDev, steps: 20 }, fal, 'fal-ai/flux/schnell').steps).toBe(4);
  });

  it('Recraft: the count drops to one, and steps and guidance go', () => {
    expect(adaptDraftToModel(onDev, fal, 'fal-ai/recraft-v3')).toEqual({
      model: 'fal-ai/recraft-v3',
      count: 1,
      steps: null,
      guidance: null,
    });
  });

  it('back to dev from schnell: dev’s defaults return', () => {
    const onSchnell = { ...onDev, ...adaptDraftToModel(onDev, fal, 'fal-ai/flux/schnell') };
    expect(adaptDraftToModel(onSchnell, fal, 'fal-ai/flux/dev')).toEqual({
      model: 'fal-ai/flux/dev',
      steps: 28,
      guidance: 3.5,
    });
  });
});
