import { describe, expect, it } from 'vitest';
import {
  type MissingAssetDeps,
  checkMissingAssets,
  withListedLoraNames,
} from '../../../electron/engine/missing-assets.js';
import type { ModelList } from '../../../electron/engine/model-cache.js';
import type { GenerateRequest, ServerModel } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';

const lora = (name: string): ServerModel => ({ kind: 'lora', name });

function deps(lists: Record<string, ModelList | undefined>, hosted: string[] = []): MissingAssetDeps {
  return {
    models: { get: (id) => lists[id] },
    instances: () => Object.keys(lists).map((id) => ({ id, kind: id.replace(/-\d+$/, '') })),
    listsFiles: (id) => !hosted.includes(id),
  };
}
const ask = (over: Partial<GenerateRequest>): GenerateRequest => ({
  prompt: 'a fox',
  width: 512,
  height: 512,
  count: 1,
  provider: 'comfyui',
  ...over,
});
function refusal(run: () => void): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

const comfy: ModelList = {
  models: ['sd15.safetensors'],
  listedAt: 1,
  library: [
    lora('styles/add_detail.safetensors'),
    lora('ink.safetensors'),
    { kind: 'checkpoint', name: 'sd15.safetensors' },
  ],
};

describe('missing models and LoRAs before sending', () => {
  it('names every missing LoRA at once, with its field', () => {
    const error = refusal(() =>
      checkMissingAssets(
        ask({
          loras: [
            { name: 'add_detail', weight: 1 },
            { name: 'gone', weight: 0.5 },
            { name: 'also gone.safetensors', weight: 1 },
          ],
        }),
        deps({ comfyui: comfy }),
      ),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('No connected server has the LoRAs “gone”, “also gone.safetensors”.');
    expect(error.details).toMatchObject({
      field: 'loras.1.name',
      missing: [
        { kind: 'lora', name: 'gone', field: 'loras.1.name' },
        { kind: 'lora', name: 'also gone.safetensors', field: 'loras.2.name' },
      ],
    });
  });

  it('one LoRA in the words the composer shows, and a missing model beside it', () => {
    const one = refusal(() => checkMissingAssets(ask({ loras: [{ name: 'x', weight: 1 }] }), deps({ comfyui: comfy })));
    expect(one.message).toBe('No connected server has the LoRA “x”.');
    const both = refusal(() =>
      checkMissingAssets(ask({ model: 'sdxl', loras: [{ name: 'x', weight: 1 }] }), deps({ comfyui: comfy })),
    );
    expect(both.message).toBe('No connected server has the model “sdxl” or the LoRA “x”.');
    expect(both.details).toMatchObject({ field: 'model' });
  });

  it('matches across spellings: case, folders, extensions, A1111 title hashes', () => {
    const a1111: ModelList = {
      models: ['v1-5-pruned-emaonly.safetensors [6ce0161689]'],
      listedAt: 1,
      library: [lora('Add_Detail')],
    };
    expect(() =>
      checkMissingAssets(
        ask({
          provider: 'a1111',
          model: 'V1-5-pruned-emaonly',
          loras: [{ name: 'x/add_detail.safetensors', weight: 1 }],
        }),
        deps({ a1111 }),
      ),
    ).not.toThrow();
  });

  it('does not guess: no library, no model list, a hosted provider, or no cache', () => {
    const loras = [{ name: 'anything', weight: 1 }];
    expect(() => checkMissingAssets(ask({ loras }), deps({ comfyui: { models: ['a'], listedAt: 1 } }))).not.toThrow();
    expect(() => checkMissingAssets(ask({ model: 'b' }), deps({ comfyui: { models: [], listedAt: 1 } }))).not.toThrow();
    expect(() => checkMissingAssets(ask({ model: 'b' }), deps({ comfyui: undefined }))).not.toThrow();
    expect(() =>
      checkMissingAssets(ask({ provider: 'fal', model: 'someone/typed' }), deps({ fal: comfy }, ['fal'])),
    ).not.toThrow();
    expect(() => checkMissingAssets(ask({ loras }), { ...deps({ comfyui: comfy }), models: undefined })).not.toThrow();
  });

  it('any:<kind>: missing only when every instance lacks it; one instance not knowing is not a refusal', () => {
    const other: ModelList = { models: ['sd15.safetensors'], listedAt: 1, library: [lora('gone.safetensors')] };
    const loras = [{ name: 'gone', weight: 1 }];
    expect(() =>
      checkMissingAssets(ask({ provider: 'any:comfyui', loras }), deps({ comfyui: comfy, 'comfyui-2': other })),
    ).not.toThrow();
    expect(() =>
      checkMissingAssets(
        ask({ provider: 'any:comfyui', loras }),
        deps({ comfyui: comfy, 'comfyui-2': { models: ['a'], listedAt: 1 } }),
      ),
    ).not.toThrow();
    const error = refusal(() =>
      checkMissingAssets(
        ask({ provider: 'any:comfyui', loras: [{ name: 'nowhere', weight: 1 }] }),
        deps({ comfyui: comfy, 'comfyui-2': other, a1111: { models: [], listedAt: 1, library: [lora('nowhere')] } }),
      ),
    );
    expect(error.details).toMatchObject({ missing: [{ name: 'nowhere' }] });
  });

  it('an upscale runs no checkpoint: its model is not checked', () => {
    expect(() =>
      checkMissingAssets(
        ask({ model: 'gone', upscale: { imageId: '0190a6e2-0000-7000-8000-000000000001', factor: 2 } }),
        deps({ comfyui: comfy }),
      ),
    ).not.toThrow();
  });
});

describe('LoRAs named as the one target server lists them', () => {
  const loras = [
    { name: 'Add_Detail', weight: 0.5 },
    { name: 'ink.safetensors', weight: 1 },
    { name: 'unknown', weight: 1 },
  ];
  it('a single server: its spelling; exact and unknown names unchanged', () => {
    expect(withListedLoraNames(ask({ loras }), deps({ comfyui: comfy })).loras).toEqual([
      { name: 'styles/add_detail.safetensors', weight: 0.5 },
      { name: 'ink.safetensors', weight: 1 },
      { name: 'unknown', weight: 1 },
    ]);
  });
  it('any:<kind>, a server without a library, or a hosted provider: left as asked', () => {
    const asked = ask({ provider: 'any:comfyui', loras });
    expect(withListedLoraNames(asked, deps({ comfyui: comfy }))).toBe(asked);
    const plain = ask({ loras });
    expect(withListedLoraNames(plain, deps({ comfyui: { models: [], listedAt: 1 } }))).toBe(plain);
    expect(withListedLoraNames(plain, deps({ comfyui: comfy }, ['comfyui']))).toBe(plain);
  });
});
