import { describe, expect, it } from 'vitest';
import type { ProviderCapabilities } from '../../../../shared/contract';
import { capabilitiesFor } from '../../../../renderer/src/composer/capabilities-for';
import { resolveTarget } from '../../../../renderer/src/composer/composer-targets';
import { provider } from '../iterate/iterate-fixtures';

const plain = provider('fal');
const base = plain.capabilities;
const schnell: ProviderCapabilities = { ...base, maxCount: 4, steps: { min: 1, max: 12, default: 4 } };
const recraft: ProviderCapabilities = { ...base, maxCount: 1, seed: false };
const fal = {
  ...plain,
  kind: 'fal' as const,
  models: ['fal-ai/flux/dev', 'fal-ai/flux/schnell', 'fal-ai/recraft-v3'],
  capabilitiesByModel: { 'fal-ai/flux/schnell': schnell, 'fal-ai/recraft-v3': recraft },
};

describe('capabilitiesFor', () => {
  it('answers a model’s own capabilities where the engine sent them, else the provider’s', () => {
    expect(capabilitiesFor(fal, 'fal-ai/flux/schnell')).toBe(schnell);
    expect(capabilitiesFor(fal, 'fal-ai/recraft-v3').seed).toBe(false);
    expect(capabilitiesFor(fal, 'fal-ai/flux/dev')).toBe(base);
  });

  it('the default model (no choice) and a typed id it does not know get the provider’s capabilities', () => {
    expect(capabilitiesFor(fal, '')).toBe(base);
    expect(capabilitiesFor(fal, undefined)).toBe(base);
    expect(capabilitiesFor(fal, 'fal-ai/some-lab/new-model')).toBe(base);
  });

  it('a model named like an object’s own property is looked up as a model, never through the prototype', () => {
    expect(capabilitiesFor(fal, 'constructor')).toBe(base);
    expect(capabilitiesFor(fal, '__proto__')).toBe(base);
    expect(capabilitiesFor(fal, 'toString')).toBe(base);
  });

  it('operations sent alone for a model (operationsByModel) still answer what it can do to an image', () => {
    const cannot = { supported: false, reason: 'dall-e-3 makes images from text only.' };
    const openai = provider('openai', {
      operationsByModel: { 'dall-e-3': { img2img: cannot, inpaint: cannot, upscale: cannot } },
    });
    expect(capabilitiesFor(openai, 'dall-e-3').operations.img2img).toEqual(cannot);
    expect(capabilitiesFor(openai, 'dall-e-3').maxCount).toBe(openai.capabilities.maxCount);
    expect(capabilitiesFor(openai, 'gpt-image-1')).toBe(openai.capabilities);
  });

  it('an any:<kind> target answers with its first turned-on instance’s models, as today', () => {
    const second = provider('fal-2', { ...fal, id: 'fal-2', name: 'fal 2' });
    const off = { ...fal, id: 'fal-off', enabled: false, capabilitiesByModel: {} };
    const target = resolveTarget('any:fal', [off, fal, second]);
    expect(target?.id).toBe('fal');
    expect(capabilitiesFor(target!, 'fal-ai/flux/schnell').steps?.max).toBe(12);
  });
});
