import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asKind, embeddingsOf, loaderFiles } from '../../../../electron/providers/comfyui/library-listing.js';
import { LIBRARY_LIMITS } from '../../../../electron/providers/server-models.js';
import { ServerModel } from '../../../../shared/contract.js';

describe('ComfyUI library listing', () => {
  it('reads a loader node file list in both combo forms, and nothing from a missing node', () => {
    const old = { LoraLoader: { input: { required: { lora_name: [['detail/add_detail.safetensors'], {}] } } } };
    const combo = {
      VAELoader: { input: { required: { vae_name: ['COMBO', { options: ['sdxl_vae.safetensors'] }] } } },
    };
    expect(loaderFiles(old, 'LoraLoader', 'lora_name')).toEqual(['detail/add_detail.safetensors']);
    expect(loaderFiles(combo, 'VAELoader', 'vae_name')).toEqual(['sdxl_vae.safetensors']);
    expect(loaderFiles({}, 'LoraLoader', 'lora_name')).toEqual([]);
  });

  it('reads /embeddings as names, and drops what is not a clean name', () => {
    expect(embeddingsOf(['EasyNegative', 'bad\nname', 7, '', 'x'.repeat(201), 'EasyNegative'])).toEqual([
      { kind: 'embedding', name: 'EasyNegative' },
    ]);
    expect(embeddingsOf({ detail: 'Not Found' })).toEqual([]);
  });

  it('bounds one kind from one server', () => {
    const names = Array.from({ length: LIBRARY_LIMITS.perKind + 10 }, (_, i) => `lora${i}.safetensors`);
    expect(asKind('lora', names)).toHaveLength(LIBRARY_LIMITS.perKind);
  });

  it('turns whatever a server answers into valid entries, never throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const model of [
          ...embeddingsOf(value),
          ...asKind('lora', loaderFiles(value, 'LoraLoader', 'lora_name')),
          ...asKind('vae', Array.isArray(value) ? value : []),
        ])
          expect(ServerModel.safeParse(model).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
